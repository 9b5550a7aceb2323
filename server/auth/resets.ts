// The password-reset links' store: a link is kept by its token's hash, lives RESET_TTL_MS and is used once.
import { createHash } from 'node:crypto';
import type { Db } from '../db/db';

export const RESET_TTL_MS = 30 * 60 * 1000;

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface ResetMail {
  recipient: string;
  subject: string;
  body: string;
  link: string;
}

/** Keeps a new link and puts its mail in the outbox, together. */
export async function createReset(
  db: Db,
  tenant: string,
  reset: { token: string; accountId: string; expiresAt: Date },
  mail: ResetMail,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      'insert into password_resets (tenant, token_hash, account_id, expires_at) values ($1, $2, $3, $4)',
      [tenant, tokenHash(reset.token), reset.accountId, reset.expiresAt],
    );
    await tx.query(
      'insert into outbox (tenant, recipient, subject, body, link) values ($1, $2, $3, $4, $5)',
      [tenant, mail.recipient, mail.subject, mail.body, mail.link],
    );
  });
}

/** The account of a link not used and not expired at `now`; undefined otherwise. */
export async function openResetAccount(
  db: Db,
  tenant: string,
  hash: string,
  now: Date,
): Promise<string | undefined> {
  const { rows } = await db.query<{ account_id: string }>(
    'select account_id::text as account_id from password_resets where tenant = $1 and token_hash = $2 and used_at is null and expires_at > $3',
    [tenant, hash, now],
  );
  return rows[0]?.account_id;
}

/**
 * Uses the link and sets the account's new password; false when the link was used meanwhile. A new password
 * ends every session and refresh token of the account.
 */
export async function consumeReset(
  db: Db,
  tenant: string,
  {
    hash,
    accountId,
    passwordHash,
    now,
  }: { hash: string; accountId: string; passwordHash: string; now: Date },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const used = await tx.query(
      'update password_resets set used_at = $3 where tenant = $1 and token_hash = $2 and used_at is null returning 1',
      [tenant, hash, now],
    );
    if (used.rows.length === 0) return false;
    await tx.query('update accounts set password_hash = $3 where tenant = $1 and id = $2', [
      tenant,
      accountId,
      passwordHash,
    ]);
    await tx.query("delete from oidc_payloads where tenant = $1 and payload->>'accountId' = $2", [
      tenant,
      accountId,
    ]);
    return true;
  });
}
