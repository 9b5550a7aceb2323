// Spanish national ids (spec §5 "wrong ID-card letter; letter must be uppercase; wrong format"): a DNI is
// eight digits and a control letter, a NIE is X, Y or Z, seven digits and a control letter; the letter is
// the number modulo 23 in this table (with X=0, Y=1, Z=2 in front for a NIE).
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const SHAPE = /^([XYZxyz]?)(\d{7,8})([A-Za-z])$/;

export type NationalIdProblem = 'wrong_format' | 'letter_not_uppercase' | 'wrong_letter';

/**
 * A DNI/NIE as people type it and as it is stored, made comparable: upper case, without spaces or dashes. The
 * portal and the server normalise both sides of a comparison with this one function.
 */
export const normaliseNationalId = (value: string): string => value.replace(/[\s-]/g, '').toUpperCase();

/** What is wrong with a DNI or NIE as typed (spaces and dashes allowed), or null when it is right. */
export function nationalIdProblem(value: string): NationalIdProblem | null {
  const compact = value.replace(/[\s-]/g, '');
  const match = SHAPE.exec(compact);
  if (!match) return 'wrong_format';
  const [, prefix = '', digits = '', letter = ''] = match;
  if (prefix === '' ? digits.length !== 8 : digits.length !== 7) return 'wrong_format';
  if (letter !== letter.toUpperCase() || prefix !== prefix.toUpperCase()) return 'letter_not_uppercase';
  const niePrefix = prefix === '' ? '' : String('XYZ'.indexOf(prefix.toUpperCase()));
  const number = Number(`${niePrefix}${digits}`);
  return LETTERS[number % 23] === letter ? null : 'wrong_letter';
}

/** Letters and digits only (spec §5 "alphanumeric-only characters"). */
export const isAlphanumeric = (value: string): boolean => /^[A-Za-z0-9]+$/.test(value);
