// The host's confirmation token (spec §2 VisitConfirmation, §7 POST /public/visits/{id}/confirmation with the
// token as bearer): base64url(JSON {v: visit id, e: expiry in ms}) "." base64url(HMAC-SHA256), keyed per tenant
// (visit_token_keys, made on first use). Signed rather than stored, so that a leaked database row does not
// leak a usable link; it works once because the visit leaves 'requested' when it is answered.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/db';

export const DEFAULT_VISIT_TOKEN_TTL_MS = 48 * 60 * 60 * 1000;

/** VISIT_TOKEN_TTL (seconds) shortens the link's life in tests; 48 h otherwise. */
export function visitTokenTtlMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.VISIT_TOKEN_TTL);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_VISIT_TOKEN_TTL_MS;
}

async function tenantKey(db: Queryable, tenant: string): Promise<Buffer> {
  await db.query(
    'insert into visit_token_keys (tenant, secret) values ($1, $2) on conflict (tenant) do nothing',
    [tenant, randomBytes(32).toString('base64url')],
  );
  const { rows } = await db.query<{ secret: string }>(
    'select secret from visit_token_keys where tenant = $1',
    [tenant],
  );
  return Buffer.from(rows[0]?.secret ?? '', 'base64url');
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

export async function makeVisitToken(
  db: Queryable,
  tenant: string,
  visitId: string,
  expiresAt: Date,
): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ v: visitId, e: expiresAt.getTime() })).toString('base64url');
  return `${payload}.${sign(await tenantKey(db, tenant), payload).toString('base64url')}`;
}

export type TokenCheck = { ok: true; visitId: string; expiresAt: Date } | { ok: false };

/** The visit a token names and its expiry, when the tenant's key signed it; expiry is the caller's to judge. */
export async function readVisitToken(db: Queryable, tenant: string, token: string): Promise<TokenCheck> {
  const match = /^([\w-]{10,400})\.([\w-]{43})$/.exec(token);
  if (!match?.[1] || !match[2]) return { ok: false };
  const expected = sign(await tenantKey(db, tenant), match[1]);
  const given = Buffer.from(match[2], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false };
  try {
    const body = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8')) as {
      v?: unknown;
      e?: unknown;
    };
    if (typeof body.v !== 'string' || typeof body.e !== 'number') return { ok: false };
    return { ok: true, visitId: body.v, expiresAt: new Date(body.e) };
  } catch {
    return { ok: false };
  }
}
