// Passwords are stored as scrypt hashes: scrypt$N$r$p$salt$hash (base64url), compared in constant time.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';

const N = 16_384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { N: n, r, p, maxmem: 64 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

// Hashed when an account has no usable hash, so an unknown username costs as much as a wrong password.
const DUMMY_SALT = randomBytes(16);

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = stored?.split('$') ?? [];
  const [scheme, n, r, p, salt, hash] = parts;
  if (parts.length !== 6 || scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) {
    await scrypt(password, DUMMY_SALT, N, R, P);
    return false;
  }
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The strength rules shown on the new-password page: at least 8 characters, a lower and an upper case letter, a digit. */
export type PasswordProblem = 'too_short' | 'no_lower' | 'no_upper' | 'no_digit';

export function passwordProblems(password: string): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  if ([...password].length < 8) problems.push('too_short');
  if (!/\p{Ll}/u.test(password)) problems.push('no_lower');
  if (!/\p{Lu}/u.test(password)) problems.push('no_upper');
  if (!/\p{Nd}/u.test(password)) problems.push('no_digit');
  return problems;
}
