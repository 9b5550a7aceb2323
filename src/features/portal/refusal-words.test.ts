import { describe, expect, it } from 'vitest';
import { FAILED_CHECKS } from '../../../contract/api/onboarding';
import { PORTRAYAL_ERROR_CODES } from '../../../contract/domain/enrolment';
import en from '../../i18n/messages/en.json';
import es from '../../i18n/messages/es.json';
import eu from '../../i18n/messages/eu.json';

// PortalUserDetail's security tab says why a person's pictures were refused in words, never as a code: every
// refusal code and every (field, rule) the engine names has a non-empty message in each language.
describe('the words of a refusal', () => {
  const catalogues = { es, en, eu } as Record<string, Record<string, string>>;
  const ids = [
    'userDetail.refusals.title',
    'userDetail.refusals.none',
    'userDetail.refusal.code.unknown',
    'userDetail.refusal.check.other',
    ...PORTRAYAL_ERROR_CODES.map((code) => `userDetail.refusal.code.${code}`),
    ...FAILED_CHECKS.map(({ field, rule }) => `userDetail.refusal.check.${field}.${rule}`),
  ];
  for (const [locale, messages] of Object.entries(catalogues)) {
    it(`exist in ${locale}`, () => {
      for (const id of ids) expect(messages[id]?.trim(), `${locale} ${id}`).toBeTruthy();
    });
  }
  it('are distinct for each check', () => {
    const words = FAILED_CHECKS.map(
      ({ field, rule }) => en[`userDetail.refusal.check.${field}.${rule}` as keyof typeof en],
    );
    expect(new Set(words).size).toBe(FAILED_CHECKS.length);
  });
});
