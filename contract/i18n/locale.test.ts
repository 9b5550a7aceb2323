import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LocaleCode } from '../api/settings';
import { resolveLocale } from './locale';

const all: LocaleCode[] = ['es', 'en', 'eu'];

describe('resolveLocale', () => {
  it('prefers the stored locale', () => {
    expect(resolveLocale({ stored: 'eu', browser: ['en-GB'], available: all })).toBe('eu');
  });

  it('falls back to es before the browser language', () => {
    expect(resolveLocale({ stored: null, browser: ['en-GB'], available: all })).toBe('es');
  });

  it('uses the browser language when es is not offered', () => {
    expect(resolveLocale({ stored: null, browser: ['fr-FR', 'eu-ES'], available: ['en', 'eu'] })).toBe('eu');
  });

  it('ends with en, and ignores a stored locale the tenant does not offer', () => {
    expect(resolveLocale({ stored: 'eu', browser: ['fr'], available: ['en'] })).toBe('en');
    expect(resolveLocale({ stored: 'eu', browser: [], available: ['es', 'en'] })).toBe('es');
  });

  it('property: the result is always one of the offered locales', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string()),
        fc.array(fc.string()),
        fc.subarray(all, { minLength: 1 }),
        (stored, browser, available) => {
          expect(available).toContain(resolveLocale({ stored, browser, available }));
        },
      ),
    );
  });
});
