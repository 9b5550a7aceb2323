import { describe, expect, it } from 'vitest';
import { ageOn, isExpired } from './outcome';
import { normaliseDocumentCountry, parseOnboardingSettings, supportedDocs } from './settings';
import { generateUserCode, normaliseUserCode, USER_CODE_ALPHABET } from './user-codes';

describe('registration rules', () => {
  it('counts whole years, a birthday counting from its day', () => {
    expect(ageOn('2007-06-01', '2025-06-01')).toBe(18);
    expect(ageOn('2007-06-02', '2025-06-01')).toBe(17);
    expect(ageOn('2007-05-31', '2025-06-01')).toBe(18);
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(ageOn('2008-02-29', '2026-03-01')).toBe(18);
  });

  it('expires a document the day after its expiry date', () => {
    expect(isExpired('2025-05-31', '2025-06-01')).toBe(true);
    expect(isExpired('2025-06-01', '2025-06-01')).toBe(false);
    expect(isExpired(null, '2025-06-01')).toBe(false);
  });
});

describe('tenant settings for onboarding', () => {
  it('derives supported documents and legal domains', () => {
    const gambling = parseOnboardingSettings('gambling', {
      domain: 'gambling',
      registerTypes: ['Auto', 'Assisted', 'WithIdentityProofing', 'AssistedOtherDocuments'],
      watchlistDomains: ['es-an', 'es-ct'],
      exclusiveDoc: null,
    });
    expect(supportedDocs(gambling, 'auto')).toEqual(['id_card', 'passport', 'driving_license']);
    expect(supportedDocs(gambling, 'assisted')).toEqual(['id_card', 'passport', 'driving_license', 'others']);
    expect(gambling.legalDomains).toEqual(['es-an', 'es-ct']);
    const exclusive = parseOnboardingSettings('x', { exclusiveDoc: 'passport', registerTypes: ['none'] });
    expect(supportedDocs(exclusive, 'auto')).toEqual(['passport']);
    expect(exclusive.legalDomains).toEqual(['x']);
    expect(supportedDocs(parseOnboardingSettings('y', { registerTypes: ['none'] }), 'auto')).toContain(
      'none',
    );
  });

  it('uses XX for passports and others, and uppercases other countries (spec §5)', () => {
    expect(normaliseDocumentCountry('passport', 'es')).toBe('XX');
    expect(normaliseDocumentCountry('others', null)).toBe('XX');
    expect(normaliseDocumentCountry('id_card', 'fr')).toBe('FR');
  });
});

describe('user codes', () => {
  it('are 8 unambiguous characters, typed in any case with separators', () => {
    const code = generateUserCode();
    expect(code).toHaveLength(8);
    for (const char of code) expect(USER_CODE_ALPHABET).toContain(char);
    expect(normaliseUserCode(` ${code.slice(0, 4).toLowerCase()}-${code.slice(4)} `)).toBe(code);
    expect(normaliseUserCode('ABCD-EFG0')).toBeUndefined();
    expect(normaliseUserCode('ABC')).toBeUndefined();
  });
});
