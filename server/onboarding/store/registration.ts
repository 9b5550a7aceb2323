// SQL of the confirmation: the lookups the registration rules need, and the user, evidences and QR credential
// an accepted registration creates, in one transaction.
import type { RegistrationPayload, Verification } from '../../../contract/api/onboarding';
import { OCR_FIELDS } from '../../../contract/domain/registration';
import type { Queryable } from '../../db/db';
import { nonEmpty } from '../../http/validation';

const exists = async (q: Queryable, sql: string, params: unknown[]) =>
  (await q.query(sql, params)).rows.length > 0;

/** The account already has a user record. */
export function accountHasUser(q: Queryable, tenant: string, accountId: string): Promise<boolean> {
  return exists(q, 'select 1 from users where tenant = $1 and account_id = $2', [tenant, accountId]);
}

/** A user holds this document number (already uppercased), whatever case it was stored in. */
export function documentInUse(q: Queryable, tenant: string, documentNumber: string): Promise<boolean> {
  return exists(q, 'select 1 from users where tenant = $1 and upper(document_number) = $2', [
    tenant,
    documentNumber,
  ]);
}

/** Another account's user has this email (case-insensitive). */
export function emailInUse(
  q: Queryable,
  tenant: string,
  email: string,
  accountId: string | null,
): Promise<boolean> {
  return exists(
    q,
    'select 1 from users where tenant = $1 and lower(email) = lower($2) and account_id is distinct from $3',
    [tenant, email, accountId],
  );
}

export function acsIdInUse(q: Queryable, tenant: string, acsId: string): Promise<boolean> {
  return exists(q, 'select 1 from users where tenant = $1 and acs_id = $2', [tenant, acsId]);
}

export interface NewUser {
  tenant: string;
  onboarding: {
    onboarding_id: string;
    mode: string;
    assisted_by: string | null;
    host: string | null;
  };
  portrayalId: string;
  /** The region the person registers in (store/region.ts). */
  region: string | null;
  payload: RegistrationPayload;
  documentNumber: string;
  email: string | null;
  acsId: string;
  accountId: string | null;
  username: string | null;
  liveness: Verification;
  /** What the engine verified of this portrayal (engineChecks): the staff's security tab shows it. */
  checks: EngineChecks;
  stamp: Date;
  qrEndsAt: Date;
}

export interface EngineChecks {
  /** The document's machine-readable zone and its check digits (data_validation). */
  ocrIntegrity: Verification;
  /** The selfie against the document's portrait (score_biometry_valid). */
  identityProofing: Verification;
}

const verification = (value: unknown): Verification =>
  value === 'passing' || value === 'failing' ? value : 'not_computed';

/**
 * What the engine's stored result of a portrayal verified: a document without a machine-readable zone, or a
 * selfie with no portrait to compare with, is not_computed, never passing.
 */
export function engineChecks(result: Record<string, unknown> | null): EngineChecks {
  const biometry = result?.score_biometry_valid;
  return {
    ocrIntegrity: verification(result?.data_validation),
    identityProofing: biometry === true ? 'passing' : biometry === false ? 'failing' : 'not_computed',
  };
}

const upperOrNull = (value: string | null | undefined) => nonEmpty(value)?.toUpperCase() ?? null;

/**
 * The user record, its evidences, its QR credential; the portrayal keeps what was confirmed and the onboarding
 * is completed. Run inside a transaction: a unique violation (users_account…, users_document_number…) undoes it.
 */
export async function createUser(tx: Queryable, n: NewUser): Promise<{ user_id: string; qr_sid: string }> {
  const { tenant, onboarding, payload } = n;
  const documentValidity: Verification = payload.expiry_date ? 'passing' : 'not_computed';
  const { rows } = await tx.query<{ user_id: string }>(
    `insert into users (tenant, account_id, username, first_name, last_name, email, acs_id, id_number, nie, nationality,
       birth_date, expiry_date, document_number, document_type, expedition_country, extra_fields, portrayal_id,
       onboarding_id, host, onboarding_date, active, onboarding_state, register_mode, assisted_by,
       life_proofing_result, identity_proofing_result, ocr_integrity, document_validity, selfie_authenticity, created_at,
       region)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, true,
       'completed', $21, $22, $23, $26, $27, $24, 'not_computed', $20, $25)
     returning user_id`,
    [
      tenant,
      n.accountId,
      n.username,
      payload.first_name.trim(),
      payload.last_name.trim(),
      n.email,
      n.acsId,
      upperOrNull(payload.id_number),
      upperOrNull(payload.nie),
      upperOrNull(payload.nationality),
      payload.birth_date,
      payload.expiry_date ?? null,
      n.documentNumber,
      payload.document_type,
      upperOrNull(payload.expedition_country),
      JSON.stringify(payload.extra_fields ?? {}),
      n.portrayalId,
      onboarding.onboarding_id,
      onboarding.host,
      n.stamp,
      onboarding.mode,
      onboarding.assisted_by,
      n.liveness,
      documentValidity,
      n.region,
      n.checks.identityProofing,
      n.checks.ocrIntegrity,
    ],
  );
  const userId = rows[0]?.user_id;
  if (!userId) throw new Error('user insert returned no id');
  // Evidences: the obverse, the reverse and the selfie (or the first still frame of the liveness proof).
  await tx.query(
    `insert into user_evidences (tenant, user_id, kind, content_type, bytes, created_at)
     select tenant, $3, kind, content_type, bytes, $4 from portrayal_images
      where tenant = $1 and portrayal_id = $2 and kind in ('obverse', 'reverse', 'selfie') and seq = 0`,
    [tenant, n.portrayalId, userId, n.stamp],
  );
  await tx.query(
    `insert into user_evidences (tenant, user_id, kind, content_type, bytes, created_at)
     select tenant, $3, 'selfie', content_type, bytes, $4 from portrayal_images
      where tenant = $1 and portrayal_id = $2 and kind = 'lifeproof' and content_type like 'image/%'
        and not exists (select 1 from user_evidences where tenant = $1 and user_id = $3 and kind = 'selfie')
      order by seq limit 1`,
    [tenant, n.portrayalId, userId, n.stamp],
  );
  const { rows: credential } = await tx.query<{ sid: string }>(
    `insert into credentials (tenant, user_id, credential_type, state, starts_at, ends_at, created_at)
     values ($1, $2, 'qr', 'active', $3, $4, $3) returning sid`,
    [tenant, userId, n.stamp, n.qrEndsAt],
  );
  const sid = credential[0]?.sid;
  if (!sid) throw new Error('credential insert returned no sid');
  // What the person confirmed, beside what the document reading gave: GET /internal/onboardings/{id} compares them.
  const registration = Object.fromEntries(
    OCR_FIELDS.map((field) => [field, (payload as Record<string, unknown>)[field] ?? null]),
  );
  await tx.query('update portrayals set registration = $3 where tenant = $1 and portrayal_id = $2', [
    tenant,
    n.portrayalId,
    JSON.stringify(registration),
  ]);
  await tx.query(
    `update onboardings set status = 'completed', user_id = $3, qr_sid = $4, last_outcome = 'accepted',
            last_reason = null, updated_at = $5
      where tenant = $1 and onboarding_id = $2`,
    [tenant, onboarding.onboarding_id, userId, sid, n.stamp],
  );
  if (n.accountId) await linkAccount(tx, tenant, n.accountId, n.acsId);
  return { user_id: userId, qr_sid: sid };
}

/** Marks the IAM account enrolled, with its acs_id: its next access token says so (server/auth/accounts.ts). */
export async function linkAccount(
  tx: Queryable,
  tenant: string,
  accountId: string,
  acsId: string,
): Promise<void> {
  await tx.query(
    `update accounts set enrolled = true, acs_id = $3, onboarding_status = 'completed'
      where tenant = $1 and id::text = $2`,
    [tenant, accountId, acsId],
  );
}
