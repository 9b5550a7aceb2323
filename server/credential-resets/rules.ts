// The rules of a credential reset (spec §2 ResetCredentials): how long a link lives, how its token is kept, and the
// mail that carries it.
import { createHash } from 'node:crypto';

export const RESET_LINK_TTL_MS = 30 * 60 * 1000;

/** Only the token's SHA-256 is stored, so the database never holds a usable link. */
export const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

export const RESET_MAIL: Record<'es' | 'en' | 'eu', { subject: string; body: string }> = {
  es: {
    subject: 'Restablecer sus credenciales',
    body: 'Hola {name}: abra este enlace e inicie sesión para anular sus credenciales y recibir un QR nuevo. Caduca en 30 minutos y sólo sirve una vez. Si no lo ha pedido usted, ignore este mensaje.',
  },
  en: {
    subject: 'Reset your credentials',
    body: 'Hello {name}: open this link and sign in to revoke your credentials and get a new QR. It expires in 30 minutes and works once. If you did not ask for it, ignore this mail.',
  },
  eu: {
    subject: 'Zure kredentzialak berrezarri',
    body: 'Kaixo, {name}: ireki esteka hau eta hasi saioa zure kredentzialak baliogabetzeko eta QR berri bat jasotzeko. 30 minututan iraungitzen da eta behin bakarrik balio du. Zuk eskatu ez baduzu, ez egin kasurik mezu honi.',
  },
};
