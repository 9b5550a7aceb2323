// The mail a host gets for a visitor's request (spec §2 VisitConfirmation): through the outbox (/dev/mailbox in
// development), in the host's language, with the link to accept or reject. The link's origin is a known origin of
// the tenant (server/origins.ts), never the request's Host header.
import type { LocaleCode } from '../../contract/api/settings';
import type { Queryable } from '../db/db';

/** The host's mail per language (Spanish in usted: server/spanish-register.test.ts). */
export const TEXTS: Record<LocaleCode, { subject: string; body: string }> = {
  es: {
    subject: 'Solicitud de visita de {visitor}',
    body: 'Hola, {host}: {visitor} ha pedido visitarle el {when} en {place} ({title}). Abra el enlace para aceptar o rechazar la visita.',
  },
  en: {
    subject: 'Visit request from {visitor}',
    body: 'Hello {host}: {visitor} has asked to visit you on {when} at {place} ({title}). Open the link to accept or reject the visit.',
  },
  eu: {
    subject: '{visitor}(r)en bisita-eskaera',
    body: 'Kaixo, {host}: {visitor}(e)k zu bisitatzeko eskatu du, {when}, {place} ({title}). Ireki esteka bisita onartzeko edo baztertzeko.',
  },
};

const langOf = (locale: string | null | undefined): LocaleCode =>
  locale === 'en' || locale === 'eu' ? locale : 'es';

export async function mailHost(
  tx: Queryable,
  mail: {
    tenant: string;
    to: string;
    hostName: string;
    hostLocale: string | null;
    visitorName: string;
    when: string;
    place: string;
    title: string;
    link: string;
  },
): Promise<void> {
  const texts = TEXTS[langOf(mail.hostLocale)];
  const fill = (template: string) =>
    template
      .replaceAll('{host}', mail.hostName)
      .replaceAll('{visitor}', mail.visitorName)
      .replaceAll('{when}', mail.when)
      .replaceAll('{place}', mail.place)
      .replaceAll(' ({title})', mail.title ? ` (${mail.title})` : '');
  await tx.query('insert into outbox (tenant, recipient, subject, body, link) values ($1, $2, $3, $4, $5)', [
    mail.tenant,
    mail.to,
    fill(texts.subject),
    fill(texts.body),
    mail.link,
  ]);
}
