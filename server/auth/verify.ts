// Every authenticated API call: the bearer is a JWT of one of our tenants' issuers, verified against that
// tenant's keys; its tenant must equal the tenant-id header (403 otherwise); it must hold one of the permission
// strings the endpoint names (403 otherwise). No or a bad token is a 401, and so is the token of a grant that
// has ended (sign-out, a reused authorization or refresh token, a password reset).
import { type } from 'arktype';
import type { MiddlewareHandler } from 'hono';
import { createLocalJWKSet, decodeJwt, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { type AccessTokenClaims, accessTokenClaims } from '../../contract/api/access-token';
import type { Permission } from '../../contract/api/permissions';
import { getOrCreatePromise } from '../get-or-create';
import { HttpProblem } from '../http/problem';
import { API_RESOURCE, GRANT_ID_CLAIM, type IdentityProviders, REALMS_PREFIX } from './provider';

export type AuthEnv = {
  Variables: {
    tenant: string;
    reqId: string;
    /** The verified access-token claims, set by requireAuth. */
    auth: AccessTokenClaims;
  };
};

export interface ApiAuth {
  /** Lets the call through when the token holds any of the permissions (none named: any valid token). */
  requireAuth: (...anyOf: Permission[]) => MiddlewareHandler<AuthEnv>;
}

const ISSUER = new RegExp(`^https?://[^/]+${REALMS_PREFIX}/([a-z0-9][a-z0-9-]*)$`);

const unauthorized = (detail: string) => new HttpProblem(401, detail, 'unauthorized');

// The auth scheme is case-insensitive (RFC 7235 §2.1, RFC 6750 §2.1): `bearer` and `BEARER` are `Bearer`.
const BEARER = /^Bearer +([\w-]+\.[\w-]+\.[\w-]+)$/i;

/**
 * How long a grant found alive is believed alive. Every API call checks the token's grant, and the portal makes
 * calls in bursts (a screen's loads, a result polled every 2 s): a few seconds spare the database most of those
 * lookups, and are the longest a token outlives its revoked grant, against the minutes of its own lifetime.
 */
// Per process and safe to lose: each process believes a grant for at most this long after it last read it, so
// behind a load balancer a revoked grant is refused by every process within the same 3 s as by one.
export const GRANT_CHECK_CACHE_MS = 3_000;
const GRANT_CACHE_LIMIT = 10_000;

type GrantSource = Pick<IdentityProviders, 'keysOf' | 'tenants' | 'db' | 'isKnownIssuer'>;

/** Whether the grant a token was issued under still exists (oidc-provider destroys it when it revokes it). */
function grantChecker(db: GrantSource['db'], now: () => number) {
  const checked = new Map<string, { alive: boolean; until: number }>();
  return async function grantAlive(tenant: string, grantId: string): Promise<boolean> {
    const key = `${tenant}|${grantId}`;
    const cached = checked.get(key);
    if (cached && cached.until > now()) return cached.alive;
    const { rows } = await db.query<{ expires_at: Date | null }>(
      `select expires_at from oidc_payloads where tenant = $1 and model = 'Grant' and id = $2`,
      [tenant, grantId],
    );
    const row = rows[0];
    const alive = Boolean(row && (!row.expires_at || new Date(row.expires_at).getTime() > now()));
    checked.delete(key);
    if (checked.size >= GRANT_CACHE_LIMIT) {
      const oldest = checked.keys().next().value;
      if (oldest !== undefined) checked.delete(oldest);
    }
    checked.set(key, { alive, until: now() + GRANT_CHECK_CACHE_MS });
    return alive;
  };
}

/**
 * The tokens whose signature and claims were verified, until they expire. A phone calls with the same token for
 * its whole lifetime, and the RSA check was about a tenth of the server's time on a credential read: a token is
 * immutable, so its verdict stays true until its `exp`; the grant is still checked on every call (grantChecker).
 * Bounded like the grant cache; the keys were never read again after the first token of a tenant either.
 */
function verifiedTokens(now: () => number) {
  const verified = new Map<
    string,
    { claims: AccessTokenClaims; tenant: string; grantId: string; expMs: number }
  >();
  return {
    get(token: string) {
      const hit = verified.get(token);
      // Past its exp (by the clock jose judges by): verified again, which refuses it.
      if (hit && hit.expMs > Date.now() && hit.expMs > now()) return hit;
      if (hit) verified.delete(token);
      return undefined;
    },
    set(token: string, entry: { claims: AccessTokenClaims; tenant: string; grantId: string; exp: unknown }) {
      if (typeof entry.exp !== 'number') return;
      if (verified.size >= GRANT_CACHE_LIMIT) {
        const oldest = verified.keys().next().value;
        if (oldest !== undefined) verified.delete(oldest);
      }
      verified.set(token, { ...entry, expMs: entry.exp * 1000 });
    },
  };
}

export function createTokenVerifier(idp: GrantSource, now: () => number = Date.now) {
  const keySets = new Map<string, Promise<JWTVerifyGetKey>>();
  const keySetOf = (tenant: string) =>
    getOrCreatePromise(keySets, tenant, () =>
      idp.keysOf(tenant).then((keys) => createLocalJWKSet(keys.publicJwks)),
    );
  const grantAlive = grantChecker(idp.db, now);
  const memo = verifiedTokens(now);

  /** The claims of a token whose signature, issuer, audience, lifetime and portal claims hold, or a 401 problem. */
  async function verifyToken(token: string) {
    let issuer: string | undefined;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw unauthorized('The bearer token cannot be read.');
    }
    const issuerTenant = issuer ? ISSUER.exec(issuer)?.[1] : undefined;
    // The issuer of a known origin only (PUBLIC_URL): never one a made-up Host header would have named.
    if (!issuer || !issuerTenant || !idp.tenants.includes(issuerTenant) || !idp.isKnownIssuer(issuer)) {
      throw unauthorized('The bearer token comes from an unknown issuer.');
    }
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, await keySetOf(issuerTenant), {
        issuer,
        audience: API_RESOURCE,
        algorithms: ['RS256'],
      }));
    } catch {
      throw unauthorized('The bearer token is invalid or has expired.');
    }
    const claims = accessTokenClaims(payload);
    if (claims instanceof type.errors || claims.tenant !== issuerTenant) {
      throw unauthorized('The bearer token does not carry the portal claims.');
    }
    const grantId = (payload as { [GRANT_ID_CLAIM]?: unknown })[GRANT_ID_CLAIM];
    if (typeof grantId !== 'string') throw unauthorized('The sign-in this token belongs to has ended.');
    const entry = { claims, tenant: issuerTenant, grantId };
    memo.set(token, { ...entry, exp: (payload as { exp?: unknown }).exp });
    return entry;
  }

  /** The verified claims of a bearer token, or a 401 problem. */
  return async function verify(authorization: string | undefined): Promise<AccessTokenClaims> {
    const match = BEARER.exec(authorization?.trim() ?? '');
    if (!match?.[1]) throw unauthorized('A bearer token is required.');
    const token = match[1];
    const { claims, tenant, grantId } = memo.get(token) ?? (await verifyToken(token));
    if (!(await grantAlive(tenant, grantId))) {
      throw unauthorized('The sign-in this token belongs to has ended.');
    }
    return claims;
  };
}

export function createApiAuth(idp: GrantSource): ApiAuth {
  const verify = createTokenVerifier(idp);
  return {
    requireAuth:
      (...anyOf) =>
      async (c, next) => {
        const claims = await verify(c.req.header('authorization'));
        if (claims.tenant !== c.get('tenant')) {
          throw new HttpProblem(403, 'The token belongs to another tenant.', 'tenant_mismatch');
        }
        if (anyOf.length > 0 && !anyOf.some((permission) => claims.roles.includes(permission))) {
          throw new HttpProblem(403, 'You do not have the permission this call needs.', 'forbidden');
        }
        c.set('auth', claims);
        await next();
      },
  };
}
