/**
 * A JWT of these claims whose signature is a stand-in: the portal reads a token's claims and never checks its
 * signature (the server does, on every call), so this is what a test gives it for a signed-in person.
 */
export function unsignedJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
}
