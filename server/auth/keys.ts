// Each tenant's provider signs with its own key and protects its cookies with its own secrets, made on first
// start and kept in the database so tokens and sessions survive a restart.
import { randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/db';

export interface TenantKeys {
  /** Private signing keys, for oidc-provider's `jwks`. */
  jwks: { keys: JWK[] };
  /** The same keys without their private parts, for verifying access tokens. */
  publicJwks: { keys: JWK[] };
  cookieKeys: string[];
}

const PRIVATE_PARTS = ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const;

function publicOf(jwk: JWK): JWK {
  const copy: JWK = { ...jwk };
  for (const part of PRIVATE_PARTS) delete copy[part];
  return copy;
}

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  return { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

/** Loads the tenant's keys, making them once (concurrent starts agree on whichever row was written first). */
export async function loadTenantKeys(db: Db, tenant: string): Promise<TenantKeys> {
  const read = async () =>
    (
      await db.query<{ jwks: { keys: JWK[] }; cookie_keys: string[] }>(
        'select jwks, cookie_keys from idp_keys where tenant = $1',
        [tenant],
      )
    ).rows[0];
  let row = await read();
  if (!row) {
    const jwks = { keys: [await newSigningKey()] };
    const cookieKeys = [randomBytes(32).toString('base64url')];
    await db.query(
      'insert into idp_keys (tenant, jwks, cookie_keys) values ($1, $2, $3) on conflict (tenant) do nothing',
      [tenant, JSON.stringify(jwks), JSON.stringify(cookieKeys)],
    );
    row = await read();
    if (!row) throw new Error(`no identity provider keys for ${tenant}`);
  }
  return { jwks: row.jwks, publicJwks: { keys: row.jwks.keys.map(publicOf) }, cookieKeys: row.cookie_keys };
}
