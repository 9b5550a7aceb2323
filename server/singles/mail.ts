// The mail with a registered person's QR (SingleRegistration's send_qr_by_email): in the language of the portal the
// staff member registers them in (the request's Accept-Language, which the portal sets to its own), among the tenant's
// languages; else the tenant's first. The person is with the staff member, who speaks with them in that language.
import type { LocaleCode } from '../../contract/api/settings';
import { LOCALES } from '../../contract/i18n/locale';

/** The mail per language (Spanish in usted: server/spanish-register.test.ts); `{link}`: where the QR is shown. */
export const QR_MAIL: Record<LocaleCode, { subject: string; body: string }> = {
  es: {
    subject: 'Su QR de acceso',
    body: 'Su credencial de acceso está lista. Inicie sesión para ver su QR: {link}',
  },
  en: {
    subject: 'Your access QR',
    body: 'Your access credential is ready. Sign in to see your QR: {link}',
  },
  eu: {
    subject: 'Zure sarbide-QRa',
    body: 'Zure sarbide-kredentziala prest dago. Hasi saioa zure QRa ikusteko: {link}',
  },
};

const isLocale = (value: string): value is LocaleCode => (LOCALES as readonly string[]).includes(value);

/** The first of Accept-Language the tenant offers (and the mail has), else the tenant's first language, else es. */
export function qrMailLanguage(
  acceptLanguage: string | undefined,
  tenantLocales: readonly string[],
): LocaleCode {
  const offered = tenantLocales.filter(isLocale);
  for (const part of (acceptLanguage ?? '').split(',')) {
    const lang = (part.split(';')[0] ?? '').trim().toLowerCase().slice(0, 2);
    if (isLocale(lang) && offered.includes(lang)) return lang;
  }
  return offered[0] ?? 'es';
}

/** The subject and body of the mail in `lang`, with the link where the QR is shown. */
export function qrMail(lang: LocaleCode, link: string): { subject: string; body: string } {
  const { subject, body } = QR_MAIL[lang];
  return { subject, body: body.replace('{link}', link) };
}
