// Every authenticated API call: the bearer is a JWT of one of our tenants' issuers, verified against that
// tenant's keys; its tenant must equal the tenant-id header (403 otherwise); it must hold one of the permission
// strings the endpoint names (403 otherwise). No or a bad token is a 401.
import { type } from 'arktype';
import type { MiddlewareHandler } from 'hono';
import { createLocalJWKSet, decodeJwt, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { type AccessTokenClaims, accessTokenClaims } from '../../src/api/contract/access-token';
import type { Permission } from '../../src/api/contract/permissions';
import { getOrCreatePromise } from '../get-or-create';
import { HttpProblem } from '../problem';
import { API_RESOURCE, type IdentityProviders, REALMS_PREFIX } from './provider';

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

export function createTokenVerifier(idp: Pick<IdentityProviders, 'keysOf' | 'tenants' | 'isKnownIssuer'>) {
  const keySets = new Map<string, Promise<JWTVerifyGetKey>>();
  const keySetOf = (tenant: string) =>
    getOrCreatePromise(keySets, tenant, () =>
      idp.keysOf(tenant).then((keys) => createLocalJWKSet(keys.publicJwks)),
    );

  /** The verified claims of a bearer token, or a 401 problem. */
  return async function verify(authorization: string | undefined): Promise<AccessTokenClaims> {
    const match = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(authorization?.trim() ?? '');
    if (!match?.[1]) throw unauthorized('A bearer token is required.');
    const token = match[1];
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
    return claims;
  };
}

export function createApiAuth(idp: Pick<IdentityProviders, 'keysOf' | 'tenants' | 'isKnownIssuer'>): ApiAuth {
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
