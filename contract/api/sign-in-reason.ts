// Why the portal asks the identity provider for the password again (the authorization request's `portal_reason`,
// which the provider's sign-in page says above its form): the page the person opened needs rights their account does
// not hold (spec §2 guards: sent to login), or their session has ended.
export const SIGN_IN_REASONS = ['rights', 'expired'] as const;
export type SignInReason = (typeof SIGN_IN_REASONS)[number];

/** The authorization request's parameter that carries it. */
export const SIGN_IN_REASON_PARAM = 'portal_reason';

export const signInReasonOf = (value: unknown): SignInReason | undefined =>
  SIGN_IN_REASONS.find((reason) => reason === value);
