// The session values of spec §3, as the portal holds them once the access token is validated.
export type UserType = 'visitor' | 'user' | 'staff';

/** Session (spec §3): accessToken, roles, email, userName, profile, userId, enrolled, acsId, userType, locale, claims. */
export interface Session {
  accessToken: string;
  /** Seconds since the epoch at which the access token was issued and at which it expires. */
  issuedAt: number;
  expiresAt: number;
  roles: readonly string[];
  email: string;
  userName: string;
  /** The person's location (spec: profile). */
  profile: string | null;
  userId: string;
  enrolled: boolean;
  acsId: string | null;
  userType: UserType;
  locale: string | null;
  /** Identity data from an external provider; copied into enrolment data (spec §6). */
  claims: Record<string, unknown> | null;
  firstName: string;
  /**
   * The person's full name as their account holds it (the token's name), else their username: what the server
   * records as the visitor of a visit they request.
   */
  name: string;
}
