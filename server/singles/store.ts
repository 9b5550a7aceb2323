// The SQL of a single registration: account, user, evidence, QR credential and mail, written in the caller's
// transaction (the bulk import calls it once per row). Every statement names the tenant.

import { randomUUID } from 'node:crypto';
import type { LocaleCode } from '../../contract/api/settings';
import type { SingleRegistrationBody } from '../../contract/api/singles';
import type { AcsIdSchema } from '../../contract/domain/singles';
import { isLoginTaken, loginsTaken, loginsTakenProblem } from '../auth/logins';
import { credentialPayload, QR_VALID_MS } from '../credentials/rules';
import type { Queryable } from '../db/db';
import { HttpProblem } from '../http/problem';
import { DetailedProblem } from '../http/validation';
import { regionOf } from '../onboarding/store/region';
import { acsIdInUse } from '../onboarding/store/registration';
import { qrMail } from './mail';
import { Rejection } from './rules';

const emailTaken = () =>
  new DetailedProblem(409, 'That email is already in use.', 'email_already_in_use', {
    errors: [{ field: 'email', code: 'email_already_in_use' }],
  });

export async function emailInUse(q: Queryable, tenant: string, email: string) {
  const accounts = await q.query('select 1 from accounts where tenant = $1 and lower(email) = lower($2)', [
    tenant,
    email,
  ]);
  if (accounts.rows.length > 0) return true;
  const users = await q.query('select 1 from users where tenant = $1 and lower(email) = lower($2)', [
    tenant,
    email,
  ]);
  return users.rows.length > 0;
}

export interface SingleCreated {
  userId: string;
  sid: string;
  emailed: boolean;
}

/** What one registration writes, checked already (the mode's fields, the acs_id's schema, the image's bounds). */
export interface NewSingle {
  tenant: string;
  /** The staff member's account id (assisted_by). */
  staff: string;
  stamp: Date;
  body: Pick<
    SingleRegistrationBody,
    | 'mode'
    | 'username'
    | 'first_name'
    | 'last_name'
    | 'birth_date'
    | 'document_type'
    | 'document_number'
    | 'id_number'
    | 'send_qr_by_email'
  >;
  email: string;
  /** Normalised; null makes one (a free Wiegand number, or S-xxxxxxxx). */
  acsId: string | null;
  acsIdSchema: AcsIdSchema;
  /** The tenant's legal domains: the person registers in the staff member's region (onboarding/store/region.ts). */
  legalDomains: readonly string[];
  image: { bytes: Buffer; type: 'image/jpeg' | 'image/png' } | null;
  origin: string | undefined;
  /** The QR mail's language (server/singles/mail.ts); none where no mail is asked for (a bulk row). */
  mailLanguage?: LocaleCode;
  makeQr: (payload: string) => Promise<Uint8Array>;
}

/**
 * Writes one registration inside the caller's transaction: account, user, evidence, QR credential and mail. Throws
 * 409 email_already_in_use / username_already_in_use / document_already_exists (DetailedProblem, the first two
 * when the email or username is another account's login: server/auth/logins.ts) or a Rejection (acs_id_already_in_use,
 * qr_generation_failed), so that the caller's transaction keeps nothing of it. The bulk import (bulk/routes.ts)
 * calls it once per row.
 */
export async function createSingle(tx: Queryable, s: NewSingle): Promise<SingleCreated> {
  const { tenant, stamp, body, email, acsId, image } = s;
  if (await emailInUse(tx, tenant, email)) throw emailTaken();
  const username = body.username?.trim() || email;
  const taken = await loginsTaken(tx, tenant, { username, email });
  if (taken.length > 0) throw loginsTakenProblem(taken);
  if (acsId !== null && (await acsIdInUse(tx, tenant, acsId))) throw new Rejection('acs_id_already_in_use');
  const finalAcsId =
    acsId ?? (s.acsIdSchema === 'wiegand' ? await freeWiegand(tx, tenant) : `S-${randomUUID().slice(0, 8)}`);
  let accountId: string | undefined;
  try {
    const account = await tx.query<{ id: string }>(
      `insert into accounts (tenant, username, first_name, last_name, email, roles, enrolled, acs_id, onboarding_status)
       values ($1, $2, $3, $4, $5, array['user'], true, $6, 'completed')
       on conflict do nothing returning id::text as id`,
      [tenant, username, body.first_name?.trim() || null, body.last_name?.trim() || null, email, finalAcsId],
    );
    accountId = account.rows[0]?.id;
  } catch (error) {
    // Another registration took the login since the question; the failed transaction cannot ask which one.
    if (!isLoginTaken(error)) throw error;
    const field = username.toLowerCase() === email.toLowerCase() ? 'email' : 'username';
    throw loginsTakenProblem([{ field, code: `${field}_already_in_use` }]);
  }
  if (!accountId) throw emailTaken();
  const documentNumber =
    body.mode === 'fields' ? (body.document_number as string).toUpperCase() : `SINGLE-${finalAcsId}`;
  const { rows } = await tx.query<{ user_id: string }>(
    `insert into users (tenant, account_id, username, first_name, last_name, email, acs_id, id_number,
       birth_date, document_number, document_type, onboarding_date, active, onboarding_state, register_mode,
       assisted_by, life_proofing_result, identity_proofing_result, ocr_integrity, document_validity,
       selfie_authenticity, created_at, region)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, true, 'completed', 'administrative', $13,
       'not_computed', 'not_computed', 'not_computed', 'not_computed', 'not_computed', $12, $14)
     on conflict do nothing returning user_id::text as user_id`,
    [
      tenant,
      accountId,
      username,
      body.first_name?.trim() || username,
      body.last_name?.trim() || '',
      email,
      finalAcsId,
      body.id_number ? body.id_number.toUpperCase() : null,
      body.birth_date ?? '1900-01-01',
      documentNumber,
      body.mode === 'fields' ? body.document_type : 'others',
      stamp,
      s.staff,
      await regionOf(tx, tenant, { location: null, registeredBy: s.staff }, s.legalDomains),
    ],
  );
  const userId = rows[0]?.user_id;
  // The only unique key left is the document number: another user holds it.
  if (!userId)
    throw new DetailedProblem(409, 'That document number is already registered.', 'document_already_exists', {
      errors: [{ field: 'document_number', code: 'id_already_registered' }],
    });
  if (image) {
    await tx.query(
      `insert into user_evidences (tenant, user_id, kind, content_type, bytes, created_at)
       values ($1, $2, 'selfie', $3, $4, $5)`,
      [tenant, userId, image.type, image.bytes, stamp],
    );
  }
  const sid = randomUUID();
  try {
    await s.makeQr(credentialPayload(tenant, finalAcsId, sid));
  } catch {
    throw new Rejection('qr_generation_failed');
  }
  await tx.query(
    `insert into credentials (tenant, sid, user_id, credential_type, state, starts_at, ends_at, created_at)
     values ($1, $2, $3, 'qr', 'active', $4, $5, $4)`,
    [tenant, sid, userId, stamp, new Date(stamp.getTime() + QR_VALID_MS)],
  );
  let emailed = false;
  if (body.send_qr_by_email) {
    const link = `${s.origin ?? ''}/accreditations`;
    const mail = qrMail(s.mailLanguage ?? 'es', link);
    await tx.query(
      'insert into outbox (tenant, recipient, subject, body, link) values ($1, $2, $3, $4, $5)',
      [tenant, email, mail.subject, mail.body, link],
    );
    emailed = true;
  }
  return { userId, sid, emailed };
}

/** The lowest Wiegand number 1–65535 no user of the tenant holds. */
async function freeWiegand(q: Queryable, tenant: string): Promise<string> {
  const { rows } = await q.query<{ n: number }>(
    `select n from generate_series(1, 65535) n
      where not exists (select 1 from users where tenant = $1 and acs_id = n::text) order by n limit 1`,
    [tenant],
  );
  const n = rows[0]?.n;
  if (n === undefined) throw new HttpProblem(409, 'No Wiegand number is free.', 'acs_id_already_in_use');
  return String(n);
}
