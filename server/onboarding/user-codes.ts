// Short codes that carry a person's onboarding from the desktop to a phone (POST /user-code/generate).
import { randomInt } from 'node:crypto';

import { USER_CODE_ALPHABET, USER_CODE_LENGTH } from '../../contract/domain/user-code';

export { normaliseUserCode, USER_CODE_ALPHABET } from '../../contract/domain/user-code';
export const USER_CODE_TTL_MS = 10 * 60 * 1000;

export function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}
