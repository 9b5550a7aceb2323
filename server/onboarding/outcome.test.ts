import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RegistrationReason, Verification } from '../../contract/api/onboarding';
import { normaliseDocumentCountry } from '../../contract/domain/documents';
import { REGISTRATION_REASONS } from '../../contract/domain/enrolment';
import {
  ageOn,
  type EnforcementAnswer,
  isExpired,
  type RegistrationDecision,
  type RegistrationFacts,
  registrationOutcome,
} from './outcome';
import { parseOnboardingSettings, supportedDocs } from './settings';
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

describe('registrationOutcome (spec §8 registration failure reasons)', () => {
  const now = new Date('2025-06-01T10:00:00.000Z');
  const adult: { birth_date: string; expiry_date?: string | null } = {
    birth_date: '1980-01-01',
    expiry_date: '2031-01-01',
  };
  const clear: RegistrationFacts = {
    lifeProofing: false,
    liveness: null,
    alreadyRegistered: false,
    documentInUse: false,
    enforcement: 'clear',
  };

  const table: [string, Partial<typeof adult>, Partial<RegistrationFacts>, RegistrationDecision][] = [
    ['everything in order', {}, {}, 'accepted'],
    ['no expiry date at all', { expiry_date: null }, {}, 'accepted'],
    ['18 today', { birth_date: '2007-06-01' }, {}, 'accepted'],
    ['18 tomorrow', { birth_date: '2007-06-02' }, {}, 'underaged'],
    ['expiring today', { expiry_date: '2025-06-01' }, {}, 'accepted'],
    ['expired yesterday', { expiry_date: '2025-05-31' }, {}, 'document_expired'],
    ['liveness required, failing', {}, { lifeProofing: true, liveness: 'failing' }, 'life_proofing_failed'],
    ['liveness required, never judged', {}, { lifeProofing: true, liveness: null }, 'life_proofing_failed'],
    ['liveness required, passing', {}, { lifeProofing: true, liveness: 'passing' }, 'accepted'],
    ['liveness required, not computed', {}, { lifeProofing: true, liveness: 'not_computed' }, 'accepted'],
    ['liveness failing but not required', {}, { liveness: 'failing' }, 'accepted'],
    ['account already enrolled', {}, { alreadyRegistered: true }, 'user_already_registered'],
    ['document held by another user', {}, { documentInUse: true }, 'document_already_exists'],
    ['on a prohibited list', {}, { enforcement: 'match' }, 'user_interdicted'],
    ['prohibited list unavailable', {}, { enforcement: 'unavailable' }, 'enforcement_source_unavailable'],
  ];

  it.each(table)('%s', (_name, data, facts, expected) => {
    expect(registrationOutcome({ ...adult, ...data }, { ...clear, ...facts }, now)).toBe(expected);
  });

  it('covers every reason of the catalogue', () => {
    const produced = new Set(table.map(([, , , decision]) => decision));
    for (const reason of REGISTRATION_REASONS) expect(produced, reason).toContain(reason);
  });

  // The refusals in the order the rules apply them, each with the facts that trigger it.
  const ORDER: [RegistrationReason, (f: Draw) => boolean][] = [
    ['underaged', (f) => f.underage],
    ['document_expired', (f) => f.expired],
    [
      'life_proofing_failed',
      (f) => f.lifeProofing && f.liveness !== 'passing' && f.liveness !== 'not_computed',
    ],
    ['user_already_registered', (f) => f.alreadyRegistered],
    ['document_already_exists', (f) => f.documentInUse],
    ['user_interdicted', (f) => f.enforcement === 'match'],
    ['enforcement_source_unavailable', (f) => f.enforcement === 'unavailable'],
  ];
  type Draw = RegistrationFacts & { underage: boolean; expired: boolean };

  const draws = fc.record({
    underage: fc.boolean(),
    expired: fc.boolean(),
    lifeProofing: fc.boolean(),
    liveness: fc.constantFrom<Verification | null>('passing', 'failing', 'not_computed', null),
    alreadyRegistered: fc.boolean(),
    documentInUse: fc.boolean(),
    enforcement: fc.constantFrom<EnforcementAnswer>('clear', 'match', 'unavailable'),
  });
  const decide = (f: Draw) =>
    registrationOutcome(
      {
        birth_date: f.underage ? '2010-01-01' : '1980-01-01',
        expiry_date: f.expired ? '2020-01-01' : '2031-01-01',
      },
      f,
      now,
    );

  it('property: the first refusal in catalogue order wins; accepted only when none applies', () => {
    fc.assert(
      fc.property(draws, (f) => {
        const first = ORDER.find(([, applies]) => applies(f))?.[0] ?? 'accepted';
        expect(decide(f)).toBe(first);
      }),
    );
  });

  it('property: one more adverse fact never turns a refusal into an acceptance', () => {
    fc.assert(
      fc.property(
        draws,
        fc.constantFrom('underage', 'expired', 'alreadyRegistered', 'documentInUse'),
        (f, key) => {
          if (decide(f) !== 'accepted') expect(decide({ ...f, [key]: true })).not.toBe('accepted');
        },
      ),
    );
  });

  it('property: age is whole years on the day of `now`, whatever the hour', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 86_399_999 }), (ms) => {
        const at = new Date(Date.UTC(2025, 5, 1) + ms);
        expect(registrationOutcome({ birth_date: '2007-06-01' }, clear, at)).toBe('accepted');
        expect(registrationOutcome({ birth_date: '2007-06-02' }, clear, at)).toBe('underaged');
      }),
    );
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
