// Reading a JWT's payload in the browser (its signature is the server's business) without any library.

/** The decoded payload of a JWT; throws when the token is not one. */
export function jwtPayload(token: string): unknown {
  const payload = token.split('.')[1];
  if (!payload) throw new Error('the token is not a JWT');
  const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) =>
    c.charCodeAt(0),
  );
  return JSON.parse(new TextDecoder().decode(bytes));
}

/** A plain object of claims, or null for anything else (a list, a string, nothing). */
export function asClaims(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
