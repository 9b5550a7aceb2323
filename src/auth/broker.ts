// The identity provider's broker token endpoint (Keycloak's /broker/{provider}/token): the token of the external
// identity provider the person signed in with, whose claims are copied into enrolment data (spec §6). Spec §7,
// §9: up to 3 attempts, waiting 300 ms × the attempt number in between.
import { BROKER_TOKEN_ATTEMPTS, BROKER_TOKEN_BASE_DELAY_MS } from '../../contract/domain/constants';
import { asClaims, jwtPayload } from './jwt';

export interface BrokerRequest {
  /** The realm's issuer, e.g. https://host/auth/realms/gambling. */
  authority: string;
  /** The external identity provider's alias in the realm. */
  provider: string;
  accessToken: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function claimsOfJwt(token: unknown): Record<string, unknown> | null {
  if (typeof token !== 'string') return null;
  try {
    return asClaims(jwtPayload(token));
  } catch {
    return null;
  }
}

/**
 * The external identity's claims (from its id_token, else its access token), or null when the endpoint still
 * refuses after the last attempt or its answer carries no readable token.
 */
export async function brokerClaims(request: BrokerRequest): Promise<Record<string, unknown> | null> {
  const doFetch = request.fetch ?? fetch;
  const sleep = request.sleep ?? wait;
  const url = `${request.authority}/broker/${encodeURIComponent(request.provider)}/token`;
  for (let attempt = 1; attempt <= BROKER_TOKEN_ATTEMPTS; attempt++) {
    try {
      const response = await doFetch(url, {
        headers: { authorization: `Bearer ${request.accessToken}`, accept: 'application/json' },
        cache: 'no-store',
      });
      if (response.ok) {
        const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
        return claimsOfJwt(body?.id_token) ?? claimsOfJwt(body?.access_token);
      }
    } catch {
      // A network failure is one more attempt spent, like a refusal.
    }
    if (attempt < BROKER_TOKEN_ATTEMPTS) await sleep(BROKER_TOKEN_BASE_DELAY_MS * attempt);
  }
  return null;
}
