// The reference engine on the specimen fixtures (tests/fixtures/specimens/, built by
// server/onboarding/testing/make-specimens.ts): the models and the OCR worker load once for the whole file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineImage } from '../engine';
import { SPECIMENS_DIR, td1Lines, td3Lines } from '../testing/make-specimens';
import { FACE_MATCH_THRESHOLD, referenceEngine, showsAction } from './engine';
import { facesIn } from './faces';
import { closeOcr, parseMrz } from './mrz';

const bytes = (name: string) => new Uint8Array(readFileSync(join(SPECIMENS_DIR, name)));
const image = (kind: EngineImage['kind'], name: string): EngineImage => ({
  kind,
  bytes: bytes(name),
  sharpness: { score: 100, blurred: false },
});

let warmUpLine = '';
beforeAll(async () => {
  warmUpLine = (await referenceEngine.warmUp?.()) ?? '';
}, 120_000);
afterAll(closeOcr);

const CARMEN = {
  first_name: 'CARMEN',
  last_name: 'ESPANOLA ESPANOLA',
  birth_date: '1980-01-01',
  id_number: '99999999R',
  expiry_date: '2031-01-01',
  expedition_country: 'ESP',
  nationality: 'ESP',
};

describe('the warm-up', () => {
  // A whole document + selfie judgement at start-up (warm-up.ts), so the first person's is not the slow one.
  it('reads the MRZ and compares the faces of a document + selfie of its own', async () => {
    expect(warmUpLine).toMatch(
      /^reference engine ready: .* loaded in \d+ ms, a document \+ selfie judged in \d+ ms/,
    );
    expect(warmUpLine).toContain('MRZ read');
    const score = Number(/faces compared \(([\d.]+)\)/.exec(warmUpLine)?.[1]);
    expect(score).toBeGreaterThanOrEqual(FACE_MATCH_THRESHOLD);
  });
});

describe('MRZ parsing', () => {
  it('parses a TD3 zone field by field', () => {
    const reading = parseMrz('TD3', td3Lines());
    expect(reading?.valid).toBe(true);
    expect(reading?.fields).toMatchObject({
      documentCode: 'P',
      issuingState: 'ESP',
      lastName: 'ESPANOLA ESPANOLA',
      firstName: 'CARMEN',
      documentNumber: 'PAA123456',
      nationality: 'ESP',
      birthDate: '800101',
      sex: 'female',
      expirationDate: '310101',
      personalNumber: '99999999R',
    });
  });

  it('parses a TD1 zone field by field', () => {
    const reading = parseMrz('TD1', td1Lines());
    expect(reading?.valid).toBe(true);
    expect(reading?.fields).toMatchObject({
      documentCode: 'I',
      issuingState: 'ESP',
      documentNumber: 'BAA000589',
      optional1: '99999999R',
      birthDate: '800101',
      expirationDate: '310101',
      nationality: 'ESP',
      lastName: 'ESPANOLA ESPANOLA',
      firstName: 'CARMEN',
    });
  });
});

describe('document reading (OCR)', () => {
  it('reads the passport page into document_info, every check digit holding', async () => {
    const result = await referenceEngine.analyseDocument({
      documentType: 'passport',
      documentCountry: 'XX',
      obverse: image('obverse', 'passport.jpg'),
      reverse: undefined,
    });
    expect(result).toMatchObject({
      ok: true,
      data_validation: 'passing',
      document_info: { ...CARMEN, document_number: 'PAA123456', document_type: 'passport' },
    });
  }, 60_000);

  it('reads the back of the ID card', async () => {
    const result = await referenceEngine.analyseDocument({
      documentType: 'id_card',
      documentCountry: 'ES',
      obverse: image('obverse', 'id-card-front.jpg'),
      reverse: image('reverse', 'id-card-back.jpg'),
    });
    expect(result).toMatchObject({
      ok: true,
      data_validation: 'passing',
      document_info: { ...CARMEN, document_number: 'BAA000589', document_type: 'id_card' },
    });
  }, 60_000);

  it('refuses a broken check digit as a validas_error naming it, reading nothing', async () => {
    const result = await referenceEngine.analyseDocument({
      documentType: 'passport',
      documentCountry: 'XX',
      obverse: image('obverse', 'passport-broken-check.jpg'),
      reverse: undefined,
    });
    expect(result).toMatchObject({
      ok: false,
      error: 'validas_error',
      check: { field: 'birth_date', rule: 'check_digit' },
    });
  }, 60_000);

  it('refuses a passport MRZ under "ID card" as a classification error', async () => {
    const result = await referenceEngine.analyseDocument({
      documentType: 'id_card',
      documentCountry: 'ES',
      obverse: image('obverse', 'passport.jpg'),
      reverse: image('reverse', 'id-card-front.jpg'),
    });
    expect(result).toMatchObject({ ok: false, error: 'document_classification_error' });
  }, 60_000);

  it('leaves the fields of a document without MRZ to the person', async () => {
    const result = await referenceEngine.analyseDocument({
      documentType: 'driving_license',
      documentCountry: 'ES',
      obverse: image('obverse', 'id-card-front.jpg'),
      reverse: undefined,
    });
    expect(result).toMatchObject({
      ok: true,
      data_validation: 'not_computed',
      document_info: { first_name: null, document_number: null },
    });
  }, 60_000);
});

describe('face comparison', () => {
  const compare = (selfie: string, document = 'passport.jpg') =>
    referenceEngine.compareFaces({
      selfie: image('selfie', selfie),
      document: [image('obverse', document)],
    });

  it('scores the same person above the threshold', async () => {
    const result = await compare('selfie.jpg');
    expect(result).toMatchObject({ ok: true, score_biometry_valid: true, selfie_authenticity_valid: true });
    if (result.ok) expect(result.score_biometry).toBeGreaterThanOrEqual(FACE_MATCH_THRESHOLD);
  }, 60_000);

  it('scores another person below the threshold', async () => {
    const result = await compare('selfie-other.jpg');
    expect(result).toMatchObject({ ok: true, score_biometry_valid: false });
    if (result.ok) expect(result.score_biometry).toBeLessThan(FACE_MATCH_THRESHOLD);
  }, 60_000);

  it('finds no face in a document held up as the selfie', async () => {
    expect(await compare('camera-card.jpg')).toMatchObject({ ok: false, error: 'no_face_error' });
  }, 60_000);

  it('refuses two faces in the selfie', async () => {
    expect(await compare('selfie-two-people.jpg')).toMatchObject({
      ok: false,
      error: 'multiple_faces_error',
    });
  }, 60_000);

  it('sees a re-encoded copy of a document image as a spoof', async () => {
    const copy = new Uint8Array(await sharp(bytes('selfie.jpg')).jpeg({ quality: 60 }).toBuffer());
    const result = await referenceEngine.compareFaces({
      selfie: { kind: 'selfie', bytes: copy, sharpness: { score: 100, blurred: false } },
      document: [image('obverse', 'selfie.jpg')],
    });
    expect(result).toMatchObject({ ok: false, error: 'spoofed_image_error' });
  }, 60_000);
});

describe('liveness', () => {
  it('sees a turned head as turned', async () => {
    const [neutral] = await facesIn(bytes('selfie.jpg'));
    const [left] = await facesIn(bytes('selfie-turned-left.jpg'));
    const [right] = await facesIn(bytes('selfie-turned-right.jpg'));
    if (!neutral || !left || !right) throw new Error('a face was not found');
    expect(showsAction('turn_left', left, neutral)).toBe(true);
    expect(showsAction('turn_right', left, neutral)).toBe(false);
    expect(showsAction('turn_right', right, neutral)).toBe(true);
    expect(showsAction('turn_left', neutral, neutral)).toBe(false);
  }, 60_000);

  const frames = (...names: string[]) => names.map((name) => image('lifeproof', name));
  const at = new Date('2026-01-01T10:00:00Z');
  const challenge = {
    actions: ['turn_left', 'blink', 'turn_right'],
    expiresAt: new Date(at.getTime() + 60_000),
  };

  it('passes frames that show the challenge, and fails frames that do not', async () => {
    const good = await referenceEngine.checkLiveness({
      frames: frames('selfie-turned-left.jpg', 'selfie.jpg', 'selfie-turned-right.jpg'),
      videos: 0,
      challenge,
      submittedAt: at,
    });
    expect(good.result).toBe('passing');
    const still = await referenceEngine.checkLiveness({
      frames: frames('selfie.jpg', 'selfie.jpg', 'selfie.jpg'),
      videos: 0,
      challenge,
      submittedAt: at,
    });
    expect(still).toMatchObject({ result: 'failing' });
    const other = await referenceEngine.checkLiveness({
      frames: frames('selfie.jpg', 'selfie-other.jpg'),
      videos: 0,
      challenge: null,
      submittedAt: at,
    });
    expect(other.result).toBe('failing');
    expect(other.detail).toMatch(/shows another person/);
    const noFace = await referenceEngine.checkLiveness({
      frames: frames('selfie.jpg', 'id-card-back.jpg'),
      videos: 0,
      challenge: null,
      submittedAt: at,
    });
    expect(noFace).toMatchObject({ result: 'failing', detail: 'No face in frame 2.' });
  }, 120_000);
});
