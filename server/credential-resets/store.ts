// The SQL of credential resets: the mail throttle, the stored link and its mail, and the redemption that revokes a
// person's credentials and issues a new QR. Every statement names the tenant.
import type { Queryable } from '../db/db';

/**
 * The mail throttle, counted in the mail_throttle table (migration 017) so that every server process behind a load
 * balancer counts the same mails. Inside the transaction that sends the mail: a per-tenant advisory lock makes
 * "count, then record" one step, so two processes cannot both send the last mail allowed.
 */
export function mailThrottle(options: {
  perAddress: number;
  perTenant: number;
  windowMs: number;
  now: () => Date;
}) {
  return async (tx: Queryable, tenant: string, email: string): Promise<boolean> => {
    const at = options.now();
    const since = new Date(at.getTime() - options.windowMs);
    await tx.query("select pg_advisory_xact_lock(hashtext('mail_throttle|' || $1))", [tenant]);
    const { rows } = await tx.query<{ address: number; tenant: number }>(
      `select count(*) filter (where key = $2)::int as address, count(*) filter (where key = $3)::int as tenant
         from mail_throttle where tenant = $1 and key in ($2, $3) and sent_at > $4`,
      [tenant, `reset|address|${email}`, 'reset|tenant', since],
    );
    const counts = rows[0] ?? { address: 0, tenant: 0 };
    if (counts.address >= options.perAddress || counts.tenant >= options.perTenant) return false;
    await tx.query(`insert into mail_throttle (tenant, key, sent_at) values ($1, $2, $4), ($1, $3, $4)`, [
      tenant,
      `reset|address|${email}`,
      'reset|tenant',
      at,
    ]);
    await tx.query('delete from mail_throttle where tenant = $1 and sent_at <= $2', [tenant, since]);
    return true;
  };
}

/** The account that signs in with a password under this email (lower case), if any. */
export async function resettableAccount(db: Queryable, tenant: string, email: string) {
  const { rows } = await db.query<{ id: string; first_name: string | null; username: string }>(
    `select id::text as id, first_name, username from accounts
      where tenant = $1 and lower(email) = $2 and password_hash is not null`,
    [tenant, email],
  );
  return rows[0];
}

/** Stores the link (its hash) and queues its mail, in the caller's transaction. */
export async function recordReset(
  tx: Queryable,
  tenant: string,
  reset: { tokenHash: string; accountId: string; expiresAt: Date },
  mail: { recipient: string; subject: string; body: string; link: string },
) {
  await tx.query(
    'insert into credential_resets (tenant, token_hash, account_id, expires_at) values ($1, $2, $3, $4)',
    [tenant, reset.tokenHash, reset.accountId, reset.expiresAt],
  );
  await tx.query('insert into outbox (tenant, recipient, subject, body, link) values ($1, $2, $3, $4, $5)', [
    tenant,
    mail.recipient,
    mail.subject,
    mail.body,
    mail.link,
  ]);
}

/** A stored link by its hash, locked for the transaction that redeems it. */
export async function resetForUpdate(tx: Queryable, tenant: string, tokenHash: string) {
  const { rows } = await tx.query<{ account_id: string; expires_at: Date; used_at: Date | null }>(
    `select account_id::text as account_id, expires_at, used_at from credential_resets
      where tenant = $1 and token_hash = $2 for update`,
    [tenant, tokenHash],
  );
  return rows[0];
}

/** The user record of an account: the person whose credentials a reset replaces. */
export async function userIdOfAccount(tx: Queryable, tenant: string, accountId: string) {
  const { rows } = await tx.query<{ user_id: string }>(
    'select user_id::text as user_id from users where tenant = $1 and account_id = $2',
    [tenant, accountId],
  );
  return rows[0]?.user_id;
}

/**
 * Marks the link used, revokes the person's active credentials and issues a new QR valid from `at` to `endsAt`;
 * the number revoked and the new credential.
 */
export async function redeemReset(
  tx: Queryable,
  tenant: string,
  redemption: { tokenHash: string; userId: string; at: Date; endsAt: Date },
) {
  const { tokenHash, userId, at, endsAt } = redemption;
  await tx.query('update credential_resets set used_at = $3 where tenant = $1 and token_hash = $2', [
    tenant,
    tokenHash,
    at,
  ]);
  const revoked = await tx.query(
    `update credentials set state = 'revoked' where tenant = $1 and user_id = $2 and state = 'active'
     returning 1`,
    [tenant, userId],
  );
  const issued = await tx.query<{ sid: string; starts_at: Date; ends_at: Date }>(
    `insert into credentials (tenant, user_id, credential_type, starts_at, ends_at)
     values ($1, $2, 'qr', $3, $4) returning sid::text as sid, starts_at, ends_at`,
    [tenant, userId, at, endsAt],
  );
  const credential = issued.rows[0];
  if (!credential) throw new Error('the new credential was not stored');
  return { revoked: revoked.rows.length, credential };
}
