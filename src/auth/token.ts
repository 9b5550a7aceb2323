import type { AccessTokenClaims } from '../../contract/api/access-token';
import {
  anyObject,
  arrayOf,
  boolean,
  number,
  object,
  orNull,
  problemsOf,
  string,
} from '../domain/shape-check';
import { type Session, sessionFromClaims } from './access';
import { asClaims, jwtPayload } from './jwt';
import { brokerClaimsKey } from './oidc-config';
import { renewAt } from './renewal';

export { renewAt };

// The contract's accessTokenClaims (contract/api/access-token.ts) checked by hand: a signed-in first screen
// reads the stored token before it draws, without arktype (token.test.ts proves both agree).
const accessTokenClaims = object({
  iss: string,
  sub: string,
  exp: number,
  'iat?': number,
  tenant: string,
  roles: arrayOf(string),
  'email?': string,
  'name?': string,
  'preferred_username?': string,
  'acs_id?': orNull(string),
  enrolled: boolean,
  'location?': orNull(string),
  'locale?': string,
  'claims?': orNull(anyObject),
});

/** The claims of an access token's payload, or the problems that make them break the contract. */
export function readClaims(payload: unknown): AccessTokenClaims {
  const problems = problemsOf(accessTokenClaims, payload);
  if (problems.length > 0) throw new Error(`access token claims: ${problems.join('; ')}`);
  return payload as AccessTokenClaims;
}

/**
 * The session carried by an access token. The signature is the server's business (it verifies every
 * call); the portal only reads the claims, and refuses a token whose claims do not match the contract.
 */
export function sessionFromAccessToken(
  accessToken: string,
  brokerClaims: Record<string, unknown> | null = null,
): Session {
  const claims = readClaims(jwtPayload(accessToken));
  const session = sessionFromClaims(claims, accessToken);
  return brokerClaims ? { ...session, claims: { ...session.claims, ...brokerClaims } } : session;
}

/** The brokered identity's claims kept beside the stored user, if any. */
export function readBrokerClaims(storage: Storage, userKey: string): Record<string, unknown> | null {
  try {
    const raw = storage.getItem(brokerClaimsKey(userKey));
    return asClaims(raw ? JSON.parse(raw) : null);
  } catch {
    return null;
  }
}

/** The oidc-client-ts user record as stored in localStorage, read without loading oidc-client-ts. */
export function readStoredUser(storage: Storage, key: string): { session: Session | null; expired: boolean } {
  const raw = storage.getItem(key);
  if (!raw) return { session: null, expired: false };
  try {
    const user = JSON.parse(raw) as { access_token?: string; expires_at?: number };
    if (!user.access_token) return { session: null, expired: false };
    const session = sessionFromAccessToken(user.access_token, readBrokerClaims(storage, key));
    return { session, expired: renewAt(session) <= Date.now() / 1000 };
  } catch {
    // A record this version cannot read is as good as none: the person signs in again.
    storage.removeItem(key);
    return { session: null, expired: false };
  }
}
