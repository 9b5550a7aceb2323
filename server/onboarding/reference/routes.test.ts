// The reference engine behind the onboarding API, through HTTP: the passport read into the result, another
// person's selfie scored below the threshold, and a document held up as the selfie refused as no_face_error.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirm, type Harness, makeHarness, payload, person, startOnboarding } from '../testing/harness';
import { SPECIMENS_DIR } from '../testing/make-specimens';
import { referenceEngine } from './engine';
import { closeOcr } from './mrz';

let h: Harness;

beforeAll(async () => {
  await referenceEngine.warmUp?.();
  h = await makeHarness({ engine: referenceEngine });
}, 120_000);

afterAll(async () => {
  await h.close();
  await closeOcr();
});

async function portrayalWith(selfie: string): Promise<Response> {
  return (await judged(selfie)).res;
}

/** An onboarding of a new person whose passport and `selfie` the engine has judged. */
async function judged(selfie: string, me = person(`acc-${randomUUID()}`)) {
  const started = await startOnboarding(
    h,
    me,
    { mode: 'auto' },
    {
      portrayal_type: 'document',
      document_type: 'passport',
    },
  );
  const { portrayalId } = started;
  for (const [kind, name] of [
    ['obverse', 'passport.jpg'],
    ['selfie', selfie],
  ] as const) {
    const bytes = new Uint8Array(readFileSync(join(SPECIMENS_DIR, name)));
    const res = await h.call('PUT', `/internal/portrayals/${portrayalId}/${kind}`, me, bytes, {
      contentType: 'image/jpeg',
    });
    expect(res.status, await res.clone().text()).toBe(200);
  }
  return { res: await h.call('GET', `/internal/portrayals/${portrayalId}`, me), started };
}

/** The checks the user record keeps of what the engine verified (the staff's security tab shows them). */
async function checksOf(userId: string) {
  const { rows } = await h.db.query<Record<string, string>>(
    `select ocr_integrity, identity_proofing_result, document_validity from users
      where tenant = 'gambling' and user_id = $1`,
    [userId],
  );
  return rows[0];
}

describe('the reference engine through the API', () => {
  it('reads the passport and matches its holder', async () => {
    const res = await portrayalWith('selfie.jpg');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      document_info: {
        first_name: 'CARMEN',
        last_name: 'ESPANOLA ESPANOLA',
        birth_date: '1980-01-01',
        document_number: 'PAA123456',
        expiry_date: '2031-01-01',
        nationality: 'ESP',
        expedition_country: 'ESP',
        document_type: 'passport',
      },
      data_validation: 'passing',
      score_biometry_valid: true,
      selfie_authenticity_valid: true,
    });
  }, 120_000);

  it('keeps what it verified on the user record: the read MRZ and the matching face are passing', async () => {
    const me = person(`acc-${randomUUID()}`);
    const { res, started } = await judged('selfie.jpg', me);
    expect(res.status).toBe(200);
    const confirmed = await confirm(
      h,
      me,
      started,
      payload({ document_type: 'passport', document_number: 'PAA123456', expedition_country: 'ES' }),
    );
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    const { user_id: userId } = (await confirmed.json()) as { user_id: string };
    expect(await checksOf(userId)).toEqual({
      ocr_integrity: 'passing',
      identity_proofing_result: 'passing',
      document_validity: 'passing',
    });
  }, 120_000);

  it('scores another person below the threshold', async () => {
    const res = await portrayalWith('selfie-other.jpg');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ score_biometry_valid: false });
  }, 120_000);

  it('refuses a document held up as the selfie with no_face_error, a 422 and never a 500', async () => {
    const res = await portrayalWith('camera-card.jpg');
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'no_face_error',
      reason: 'no_face_error',
      image: 'selfie',
    });
  }, 120_000);
});
