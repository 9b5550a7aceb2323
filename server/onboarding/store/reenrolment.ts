// AssistedExistingUsers (spec §4 register types): an assistant re-enrols an existing user. POST
// /internal/onboardings with user_id naming a user record marks the onboarding as replacing it; its confirmation
// then updates that record (the new data, evidences and a new QR; the old QRs revoked) instead of creating one.
import type { Queryable } from '../../db/db';
import type { NewUser } from './registration';

export interface ExistingUser {
  user_id: string;
  account_id: string | null;
  acs_id: string;
}

/** The user record of the tenant with this user_id, if any (a user_id may also be an account id). */
export async function existingUser(
  q: Queryable,
  tenant: string,
  userId: string,
): Promise<ExistingUser | null> {
  const { rows } = await q.query<ExistingUser>(
    `select user_id::text as user_id, account_id, acs_id from users
      where tenant = $1 and user_id::text = $2`,
    [tenant, userId],
  );
  return rows[0] ?? null;
}

export async function markReenrolment(q: Queryable, tenant: string, onboardingId: string, userId: string) {
  await q.query('update onboardings set replaces_user_id = $3 where tenant = $1 and onboarding_id = $2', [
    tenant,
    onboardingId,
    userId,
  ]);
}

/** Another user than the one re-enrolled holds this document number (already uppercased). */
export async function documentInUseByOther(
  q: Queryable,
  tenant: string,
  documentNumber: string,
  userId: string,
) {
  const { rows } = await q.query(
    'select 1 from users where tenant = $1 and upper(document_number) = $2 and user_id::text <> $3',
    [tenant, documentNumber, userId],
  );
  return rows.length > 0;
}

/**
 * The re-enrolled user record takes what was confirmed; its evidences are replaced by the new portrayal's, its QR
 * credentials revoked and a new one issued, its face credential made again from the new selfie; the onboarding is
 * completed. Run inside a transaction.
 */
export async function reenrolUser(
  tx: Queryable,
  n: NewUser,
  userId: string,
): Promise<{ user_id: string; qr_sid: string }> {
  const { tenant, onboarding, payload } = n;
  const upper = (value: string | null | undefined) => (value?.trim() ? value.trim().toUpperCase() : null);
  const { rows } = await tx.query<{ user_id: string; acs_id: string; account_id: string | null }>(
    `update users set username = coalesce($3, username), first_name = $4, last_name = $5, email = coalesce($6, email),
       id_number = $7, nie = $8, nationality = $9, birth_date = $10, expiry_date = $11, document_number = $12,
       document_type = $13, expedition_country = $14, extra_fields = $15, portrayal_id = $16, onboarding_id = $17,
       host = $18, onboarding_date = $19, active = true, onboarding_state = 'completed', register_mode = 'assisted',
       assisted_by = $20, life_proofing_result = $21, identity_proofing_result = $24,
       ocr_integrity = $25, document_validity = $22, selfie_authenticity = 'not_computed',
       region = coalesce($23, region)
     where tenant = $1 and user_id = $2::uuid
     returning user_id::text as user_id, acs_id, account_id`,
    [
      tenant,
      userId,
      n.username,
      payload.first_name.trim(),
      payload.last_name.trim(),
      n.email,
      upper(payload.id_number),
      upper(payload.nie),
      upper(payload.nationality),
      payload.birth_date,
      payload.expiry_date ?? null,
      n.documentNumber,
      payload.document_type,
      upper(payload.expedition_country),
      JSON.stringify(payload.extra_fields ?? {}),
      n.portrayalId,
      onboarding.onboarding_id,
      onboarding.host,
      n.stamp,
      onboarding.assisted_by,
      n.liveness,
      payload.expiry_date ? 'passing' : 'not_computed',
      n.region,
      n.checks.identityProofing,
      n.checks.ocrIntegrity,
    ],
  );
  const user = rows[0];
  if (!user) throw new Error('the re-enrolled user is gone');
  await tx.query('delete from user_evidences where tenant = $1 and user_id = $2::uuid', [tenant, userId]);
  await tx.query(
    `insert into user_evidences (tenant, user_id, kind, content_type, bytes, created_at)
     select tenant, $3::uuid, kind, content_type, bytes, $4 from portrayal_images
      where tenant = $1 and portrayal_id = $2 and kind in ('obverse', 'reverse', 'selfie') and seq = 0`,
    [tenant, n.portrayalId, userId, n.stamp],
  );
  await tx.query(
    `insert into user_evidences (tenant, user_id, kind, content_type, bytes, created_at)
     select tenant, $3::uuid, 'selfie', content_type, bytes, $4 from portrayal_images
      where tenant = $1 and portrayal_id = $2 and kind = 'lifeproof' and content_type like 'image/%'
        and not exists (select 1 from user_evidences where tenant = $1 and user_id = $3::uuid and kind = 'selfie')
      order by seq limit 1`,
    [tenant, n.portrayalId, userId, n.stamp],
  );
  await tx.query(
    `update credentials set state = 'revoked', ends_at = least(coalesce(ends_at, $3), $3)
      where tenant = $1 and user_id = $2::uuid and credential_type = 'qr' and state = 'active'`,
    [tenant, userId, n.stamp],
  );
  const { rows: credential } = await tx.query<{ sid: string }>(
    `insert into credentials (tenant, user_id, credential_type, state, starts_at, ends_at, created_at)
     values ($1, $2::uuid, 'qr', 'active', $3, $4, $3) returning sid::text as sid`,
    [tenant, userId, n.stamp, n.qrEndsAt],
  );
  const sid = credential[0]?.sid;
  if (!sid) throw new Error('credential insert returned no sid');
  await replaceFace(tx, n, userId);
  await tx.query(
    `update onboardings set status = 'completed', user_id = $3::uuid, qr_sid = $4::uuid, last_outcome = 'accepted',
            last_reason = null, updated_at = $5
      where tenant = $1 and onboarding_id = $2`,
    [tenant, onboarding.onboarding_id, userId, sid, n.stamp],
  );
  return { user_id: user.user_id, qr_sid: sid };
}

/**
 * The face credential follows the new selfie (like POST /internal/rights with a new selfie portrayal): a door knows
 * one face per person, so an active face credential is revoked and a new one is made from the re-enrolment's
 * portrayal, for the same object. A user who held no face credential is not given one: that stays their request.
 */
async function replaceFace(tx: Queryable, n: NewUser, userId: string): Promise<void> {
  const { tenant } = n;
  const { rows: revoked } = await tx.query<{ object: string | null }>(
    `update credentials set state = 'revoked', ends_at = least(coalesce(ends_at, $3), $3)
      where tenant = $1 and user_id = $2::uuid and credential_type = 'embedding' and state = 'active'
      returning metadata->>'object' as object`,
    [tenant, userId, n.stamp],
  );
  if (revoked.length === 0) return;
  const metadata = {
    object: revoked.find((row) => row.object)?.object ?? 'portal',
    portrayal_id: n.portrayalId,
    requested_by: n.onboarding.assisted_by,
    onboarding_id: n.onboarding.onboarding_id,
  };
  // Only from a selfie the re-enrolment really brought (its evidence was just copied from the portrayal).
  await tx.query(
    `insert into credentials (tenant, user_id, credential_type, state, starts_at, ends_at, metadata, created_at)
     select $1, $2::uuid, 'embedding', 'active', $3, null, $4, $3
      where exists (select 1 from user_evidences where tenant = $1 and user_id = $2::uuid and kind = 'selfie')`,
    [tenant, userId, n.stamp, JSON.stringify(metadata)],
  );
}
