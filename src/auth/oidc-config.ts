// Where the tenant's identity provider is and where oidc-client-ts keeps the user: no oidc-client-ts here,
// so the first screen can read a stored session without loading it.
export interface OidcConfig {
  origin: string;
  realm: string;
  clientId: string;
  /** The external identity provider brokered by the realm (tenant settings identityProvider.broker). */
  broker?: string | undefined;
}

export const SCOPE = 'openid profile roles email';

export function authorityOf({ origin, realm }: Pick<OidcConfig, 'origin' | 'realm'>): string {
  return `${origin}/auth/realms/${realm}`;
}

/** Where oidc-client-ts keeps the user in localStorage (spec §3: auth state persists there). */
export function userStorageKey(config: Pick<OidcConfig, 'origin' | 'realm' | 'clientId'>): string {
  return `oidc.user:${authorityOf(config)}:${config.clientId}`;
}

/** Beside the user: the claims of the brokered external identity, read once at sign-in (src/auth/broker.ts). */
export const brokerClaimsKey = (userKey: string): string => `${userKey}:broker`;
