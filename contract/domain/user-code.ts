// Short codes that carry an onboarding from a computer to a phone (spec §7 POST /user-code/generate): the
// server draws them from this alphabet, and both ends read a typed code the same way.

/** No 0/O, 1/I/L, so a code read aloud or typed on a phone is not mistaken. */
export const USER_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const USER_CODE_LENGTH = 8;

/** A code as typed: any case, with spaces or dashes between the groups. */
export const compactUserCode = (input: string): string => input.replace(/[\s-]/g, '').toUpperCase();

/** Whether a compacted code has the length and letters of a code the server issues. */
export function isUserCode(code: string): boolean {
  return code.length === USER_CODE_LENGTH && [...code].every((char) => USER_CODE_ALPHABET.includes(char));
}

/** The typed code, compacted; undefined when it cannot be one. */
export function normaliseUserCode(input: string): string | undefined {
  const code = compactUserCode(input);
  return isUserCode(code) ? code : undefined;
}
