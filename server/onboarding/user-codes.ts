// Short codes that carry a person's onboarding from the desktop to a phone (POST /user-code/generate).
import { randomInt } from 'node:crypto';

/** No 0/O, 1/I/L, so a code read aloud or typed on a phone is not mistaken. */
export const USER_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const USER_CODE_LENGTH = 8;
export const USER_CODE_TTL_MS = 10 * 60 * 1000;

export function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** Accepts the code as typed: any case, with spaces or dashes between groups. */
export function normaliseUserCode(input: string): string | undefined {
  const code = input.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== USER_CODE_LENGTH) return undefined;
  for (const char of code) if (!USER_CODE_ALPHABET.includes(char)) return undefined;
  return code;
}
