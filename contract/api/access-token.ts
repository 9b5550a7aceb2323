import { type } from 'arktype';

/**
 * The claims of the portal's access token (a JWT from the tenant's issuer, /auth/realms/{tenant}).
 * The server verifies them on every API call; the portal reads them into the session (spec §3 Session).
 * Unknown permission strings are kept (a newer server may send more) but grant nothing here.
 */
export const accessTokenClaims = type({
  iss: 'string',
  sub: 'string',
  exp: 'number',
  'iat?': 'number',
  /** The tenant the token belongs to; must equal the tenant-id header of the call. */
  tenant: 'string',
  roles: 'string[]',
  'email?': 'string',
  'name?': 'string',
  'preferred_username?': 'string',
  /** The person's access-control id, once enrolled. */
  'acs_id?': 'string | null',
  enrolled: 'boolean',
  /** The person's location (spec §3 Session: profile), when the account has one. */
  'location?': 'string | null',
  'locale?': 'string',
  /** Identity data from an external identity provider, copied into enrolment data (spec §6). */
  'claims?': 'Record<string, unknown> | null',
});

export type AccessTokenClaims = typeof accessTokenClaims.infer;
