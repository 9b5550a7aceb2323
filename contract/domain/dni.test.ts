import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAlphanumeric, nationalIdProblem, normaliseNationalId } from './dni';

const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

describe('national id (DNI / NIE)', () => {
  it('accepts a DNI or NIE with the right uppercase letter', () => {
    expect(nationalIdProblem('12345678Z')).toBeNull();
    expect(nationalIdProblem('00000001R')).toBeNull();
    expect(nationalIdProblem('X1234567L')).toBeNull();
    expect(nationalIdProblem('Y 1234567-X')).toBeNull();
  });

  it('names what is wrong', () => {
    expect(nationalIdProblem('12345678A')).toBe('wrong_letter');
    expect(nationalIdProblem('12345678z')).toBe('letter_not_uppercase');
    expect(nationalIdProblem('x1234567L')).toBe('letter_not_uppercase');
    expect(nationalIdProblem('1234567Z')).toBe('wrong_format');
    expect(nationalIdProblem('X12345678L')).toBe('wrong_format');
    expect(nationalIdProblem('ABC')).toBe('wrong_format');
  });

  it('accepts every DNI whose letter is its number modulo 23, and no other letter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 0, max: 22 }), (n, other) => {
        const digits = String(n).padStart(8, '0');
        const right = LETTERS[n % 23] ?? '';
        expect(nationalIdProblem(`${digits}${right}`)).toBeNull();
        const wrong = LETTERS[other] ?? '';
        if (wrong !== right) expect(nationalIdProblem(`${digits}${wrong}`)).toBe('wrong_letter');
      }),
    );
  });

  it('knows alphanumeric text', () => {
    expect(isAlphanumeric('CAA000000')).toBe(true);
    expect(isAlphanumeric('CAA-0000')).toBe(false);
    expect(isAlphanumeric('')).toBe(false);
  });
});

describe('normaliseNationalId', () => {
  it('makes a typed value and a stored one comparable: upper case, no spaces or dashes, any shape kept', () => {
    expect(normaliseNationalId(' 1234 5678-z ')).toBe('12345678Z');
    expect(normaliseNationalId('x-1234567-l')).toBe('X1234567L');
    // A stored value that is not a DNI/NIE is compared as it is, never rejected here.
    expect(normaliseNationalId('3163 8100 5')).toBe('316381005');
  });
});
