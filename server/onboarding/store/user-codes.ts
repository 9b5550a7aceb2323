// SQL of the user codes that carry an onboarding from a computer to a phone.
import type { Queryable } from '../../db/db';
import type { Owner } from './onboardings';

/** Stores a drawn code; false when the code is taken (draw again). */
export async function insertUserCode(
  q: Queryable,
  owner: Owner,
  code: string,
  onboardingId: string,
  expiresAt: Date,
  stamp: Date,
): Promise<boolean> {
  const { rows } = await q.query<{ code: string }>(
    `insert into user_codes (tenant, code, account_id, onboarding_id, expires_at, created_at)
     values ($1, $2, $3, $4, $5, $6) on conflict do nothing returning code`,
    [owner.tenant, code, owner.sub, onboardingId, expiresAt, stamp],
  );
  return rows.length > 0;
}

/** A code of an onboarding the caller reaches. */
export async function findOwnUserCode(
  q: Queryable,
  owner: Owner,
  code: string,
): Promise<{ onboarding_id: string; expires_at: Date; redeemed_at: Date | null } | undefined> {
  const { rows } = await q.query<{ onboarding_id: string; expires_at: Date; redeemed_at: Date | null }>(
    `select u.onboarding_id, u.expires_at, u.redeemed_at from user_codes u
       join onboardings o on o.tenant = u.tenant and o.onboarding_id = u.onboarding_id
      where u.tenant = $1 and u.code = $2 and (o.created_by = $3 or o.account_id = $3 or o.assisted_by = $3)`,
    [owner.tenant, code, owner.sub],
  );
  return rows[0];
}

/** Spends the code; false when another call spent it first. */
export async function redeemUserCode(
  q: Queryable,
  tenant: string,
  code: string,
  stamp: Date,
): Promise<boolean> {
  const { rows } = await q.query(
    'update user_codes set redeemed_at = $3 where tenant = $1 and code = $2 and redeemed_at is null returning code',
    [tenant, code, stamp],
  );
  return rows.length > 0;
}
