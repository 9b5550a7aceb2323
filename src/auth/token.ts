import { type } from 'arktype';
import { accessTokenClaims } from '../api/contract/access-token';
import { type Session, sessionFromClaims } from './access';
import { asClaims, jwtPayload } from './jwt';
import { brokerClaimsKey } from './oidc-config';
import { renewAt } from './renewal';

export { renewAt };

/**
 * The session carried by an access token. The signature is the server's business (it verifies every
 * call); the portal only reads the claims, and refuses a token whose claims do not match the contract.
 */
export function sessionFromAccessToken(
  accessToken: string,
  brokerClaims: Record<string, unknown> | null = null,
): Session {
  const claims = accessTokenClaims(jwtPayload(accessToken));
  if (claims instanceof type.errors) throw new Error(`access token claims: ${claims.summary}`);
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
