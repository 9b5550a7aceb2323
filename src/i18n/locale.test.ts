// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { readStoredLocale, storeLocale } from './locale';

describe('stored locale', () => {
  it('survives between reads', () => {
    storeLocale('eu');
    expect(readStoredLocale()).toBe('eu');
  });
});
