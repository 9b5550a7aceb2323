import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { withoutIds } from './catalogue';
import { errorMessageId, errorText, fallbackText, hasMessage, messageText } from './error-text';
import en from './messages/en.json';
import es from './messages/es.json';
import eu from './messages/eu.json';

// A code with no words of its own never shows as an empty text (react-intl is given an empty message for a missing
// id, catalogue.ts withoutIds), an id or the bare code.
const CATALOGUES = { es, en, eu } as Record<string, Record<string, string>>;
const intlOf = (locale: string, messages: Record<string, string> = CATALOGUES[locale] ?? {}) =>
  createIntl({ locale, messages: withoutIds(messages) as Record<string, string>, onError: () => {} });
const NOWHERE = 'zz_code_that_exists_nowhere';

describe('errorText', () => {
  it('gives the words of a code the catalogue has', () => {
    const intl = intlOf('es');
    expect(errorText(intl, 'onboarding_not_pending')).toBe(es['common.errors.onboarding_not_pending']);
    expect(errorText(intl, 'wiegand_range')).toBe(es['common.errors.wiegand_range']);
  });

  it.each(['es', 'en', 'eu'])(
    '%s: a code that exists nowhere shows the server text in the language’s sentence',
    (locale) => {
      const intl = intlOf(locale);
      expect(hasMessage(intl, errorMessageId(NOWHERE))).toBe(false);
      const text = errorText(intl, NOWHERE, { serverText: 'The frobnicator is locked.' });
      expect(text).toContain('The frobnicator is locked.');
      expect(text).not.toBe('The frobnicator is locked.');
      expect(text).not.toContain(NOWHERE);
      expect(text).not.toContain('common.');
      expect(text.startsWith(CATALOGUES[locale]?.['common.serverProblem']?.split('{')[0] ?? '?')).toBe(true);
    },
  );

  it('without any server text: the catalogue’s unknown problem', () => {
    const intl = intlOf('en');
    expect(errorText(intl, NOWHERE)).toBe(en['common.errors.unknown']);
    expect(errorText(intl, null, { serverText: '  ' })).toBe(en['common.errors.unknown']);
    // An odd code is not made into an id.
    expect(errorText(intl, 'a b {x}')).toBe(en['common.errors.unknown']);
  });

  it('is never empty, even with no catalogue at all', () => {
    const bare = intlOf('es', {});
    expect(errorText(bare, NOWHERE, { serverText: 'Detalle' })).toBe('Detalle');
    expect(errorText(bare, NOWHERE).trim()).not.toBe('');
    expect(fallbackText(bare).trim()).not.toBe('');
  });

  it('treats an empty message as no words', () => {
    const intl = intlOf('es', { 'common.errors.blank': '', 'common.errors.unknown': 'Desconocido' });
    expect(messageText(intl, 'common.errors.blank')).toBe('Desconocido');
    expect(messageText(intl, 'common.errors.missing', undefined, 'Del servidor')).toBe('Del servidor');
  });
});
