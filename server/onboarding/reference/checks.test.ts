// The reference engine's verdict on documents it has never been tuned on (tests/fixtures/specimens/checks/, built
// by server/onboarding/testing/make-check-specimens.ts: another person, other numbers): a document is verified
// or refused, never half-read. Each case asserts the engine's answer and the portrayal's outcome.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineImage } from '../engine';
import { CHECK_SPECIMENS_DIR, PERSON_C, td1LinesOf, td3LinesOf } from '../testing/make-check-specimens';
import { FACE_MATCH_THRESHOLD, referenceEngine } from './engine';
import { closeOcr, failedCheckOf, parseMrz } from './mrz';

const image = (kind: EngineImage['kind'], name: string): EngineImage => ({
  kind,
  bytes: new Uint8Array(readFileSync(join(CHECK_SPECIMENS_DIR, name))),
  sharpness: { score: 100, blurred: false },
});

beforeAll(async () => {
  await referenceEngine.warmUp?.();
}, 120_000);
afterAll(closeOcr);

const passport = (name: string) =>
  referenceEngine.analyseDocument({
    documentType: 'passport',
    documentCountry: 'XX',
    obverse: image('obverse', name),
    reverse: undefined,
  });

describe('the zones as drawn (no OCR)', () => {
  it('breaks exactly the check it names, and the DNI rule catches what check digits cannot', () => {
    const check = (lines: string[]) => {
      const reading = parseMrz(lines.length === 2 ? 'TD3' : 'TD1', lines);
      if (!reading) throw new Error('not parsed');
      return failedCheckOf(reading, 'ES');
    };
    expect(check(td3LinesOf())).toBeNull();
    expect(check(td1LinesOf())).toBeNull();
    for (const field of ['document_number', 'birth_date', 'expiry_date', 'id_number', 'composite'] as const) {
      expect(check(td3LinesOf(field))).toEqual({ field, rule: 'check_digit' });
    }
    expect(check(td3LinesOf(null, '316381005'))).toEqual({ field: 'id_number', rule: 'dni_nie' });
    expect(check(td1LinesOf('31638100K'))).toEqual({ field: 'id_number', rule: 'dni_nie' });
  });
});

describe('the documents (OCR)', () => {
  it('a good passport is verified and read whole', async () => {
    expect(await passport('passport.jpg')).toMatchObject({
      ok: true,
      data_validation: 'passing',
      document_info: {
        first_name: PERSON_C.firstName,
        last_name: PERSON_C.lastName,
        birth_date: PERSON_C.birthDate,
        expiry_date: PERSON_C.expiryDate,
        document_number: PERSON_C.passportNumber,
        id_number: PERSON_C.idNumber,
        nationality: 'ESP',
        document_type: 'passport',
      },
    });
  }, 60_000);

  it('a good ID card is verified and read whole', async () => {
    const result = await referenceEngine.analyseDocument({
      documentType: 'id_card',
      documentCountry: 'ES',
      obverse: image('obverse', 'id-card-front.jpg'),
      reverse: image('reverse', 'id-card-back.jpg'),
    });
    expect(result).toMatchObject({
      ok: true,
      data_validation: 'passing',
      document_info: { document_number: PERSON_C.cardNumber, id_number: PERSON_C.idNumber },
    });
  }, 60_000);

  for (const [file, field] of [
    ['passport-bad-document-number.jpg', 'document_number'],
    ['passport-bad-birth-date.jpg', 'birth_date'],
    ['passport-bad-expiry-date.jpg', 'expiry_date'],
    ['passport-bad-personal-number.jpg', 'id_number'],
    ['passport-bad-composite.jpg', 'composite'],
  ] as const) {
    it(`a wrong ${field} check digit is a validas_error naming it, and nothing is read`, async () => {
      const result = await passport(file);
      expect(result).toMatchObject({
        ok: false,
        error: 'validas_error',
        check: { field, rule: 'check_digit' },
      });
      expect(result).not.toHaveProperty('document_info');
    }, 60_000);
  }

  it('a DNI letter misread (J as 5) with its check digits holding is a validas_error by the DNI rule', async () => {
    expect(await passport('passport-dni-misread.jpg')).toMatchObject({
      ok: false,
      error: 'validas_error',
      check: { field: 'id_number', rule: 'dni_nie' },
    });
  }, 60_000);

  it('a DNI card whose letter does not match its number is a validas_error by the DNI rule', async () => {
    const result = await referenceEngine.analyseDocument({
      documentType: 'id_card',
      documentCountry: 'ES',
      obverse: image('obverse', 'id-card-front.jpg'),
      reverse: image('reverse', 'id-card-back-dni-letter.jpg'),
    });
    expect(result).toMatchObject({
      ok: false,
      error: 'validas_error',
      image: 'reverse',
      check: { field: 'id_number', rule: 'dni_nie' },
    });
  }, 60_000);

  it('a passport or ID card whose MRZ is not found is refused; a driving licence is left to the person', async () => {
    expect(
      await referenceEngine.analyseDocument({
        documentType: 'id_card',
        documentCountry: 'ES',
        obverse: image('obverse', 'id-card-front.jpg'),
        reverse: image('reverse', 'selfie.jpg'),
      }),
    ).toMatchObject({ ok: false, error: 'validas_error', check: { field: 'mrz', rule: 'found' } });
    expect(
      await referenceEngine.analyseDocument({
        documentType: 'driving_license',
        documentCountry: 'ES',
        obverse: image('obverse', 'id-card-front.jpg'),
        reverse: image('reverse', 'selfie.jpg'),
      }),
    ).toMatchObject({ ok: true, data_validation: 'not_computed', document_info: { first_name: null } });
  }, 60_000);
});

describe('the portrait', () => {
  const compare = (document: string, documentType: string) =>
    referenceEngine.compareFaces({
      selfie: image('selfie', 'selfie.jpg'),
      document: [image('obverse', document)],
      documentType,
    });

  it('the good passport matches its holder', async () => {
    const result = await compare('passport.jpg', 'passport');
    expect(result).toMatchObject({ ok: true, score_biometry_valid: true });
    if (result.ok) expect(result.score_biometry).toBeGreaterThanOrEqual(FACE_MATCH_THRESHOLD);
  }, 60_000);

  it('a passport whose portrait area holds no face is a document_classification_error', async () => {
    // Its MRZ is good: the document is read, the missing face refuses it.
    expect(await passport('passport-no-face.jpg')).toMatchObject({ ok: true, data_validation: 'passing' });
    expect(await compare('passport-no-face.jpg', 'passport')).toMatchObject({
      ok: false,
      error: 'document_classification_error',
      check: { field: 'portrait', rule: 'face' },
    });
    // A document of the "others" type need not carry a portrait: nothing to compare with.
    expect(await compare('passport-no-face.jpg', 'others')).toMatchObject({ ok: true, score_biometry: null });
  }, 60_000);
});
