import { describe, expect, it } from 'vitest';
import { loadingWords } from './loading-words';
import en from './messages/en.json';
import es from './messages/es.json';
import eu from './messages/eu.json';

describe('loadingWords', () => {
  it.each([
    ['es', es],
    ['en', en],
    ['eu', eu],
  ] as const)('says in %s what the catalogue says for common.loading', (locale, catalogue) => {
    expect(loadingWords(locale)).toBe(catalogue['common.loading']);
    expect(loadingWords(locale)).not.toBe('…');
  });
});
