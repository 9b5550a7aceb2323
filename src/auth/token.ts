import { type } from 'arktype';
import { accessTokenClaims } from '../api/contract/access-token';
import { type Session, sessionFromClaims } from './access';
import { brokerClaimsKey } from './oidc-config';
import { renewAt } from './renewal';

export { renewAt };

function decodeBase64Url(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) =>
    c.charCodeAt(0),
  );
  return new TextDecoder().decode(bytes);
}

/**
 * The session carried by an access token. The signature is the server's business (it verifies every
 * call); the portal only reads the claims, and refuses a token whose claims do not match the contract.
 */
export function sessionFromAccessToken(
  accessToken: string,
  brokerClaims: Record<string, unknown> | null = null,
): Session {
  const payload = accessToken.split('.')[1];
  if (!payload) throw new Error('the access token is not a JWT');
  const claims = accessTokenClaims(JSON.parse(decodeBase64Url(payload)));
  if (claims instanceof type.errors) throw new Error(`access token claims: ${claims.summary}`);
  const session = sessionFromClaims(claims, accessToken);
  return brokerClaims ? { ...session, claims: { ...session.claims, ...brokerClaims } } : session;
}

/** The brokered identity's claims kept beside the stored user, if any. */
export function readBrokerClaims(storage: Storage, userKey: string): Record<string, unknown> | null {
  try {
    const raw = storage.getItem(brokerClaimsKey(userKey));
    const claims: unknown = raw ? JSON.parse(raw) : null;
    return claims && typeof claims === 'object' && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : null;
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
