import { randomUUID } from 'node:crypto';
import { type } from 'arktype';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../contract/api/problem';
import { addToWatchlist } from '../audit/watchlists';
import type { BiometricEngine, LivenessInput } from './engine';
import { basicEngine as referenceEngine } from './engine';
import { QR_VALIDITY_MS } from './options';
import { computeResultOnce } from './portrayal-result';
import type { OnboardingRuntime } from './runtime';
import { findPortrayalOf, imagesOf, refusalsOf } from './store/portrayals';
import {
  ASSISTANT_ROLES,
  confirm,
  fixture,
  type Harness,
  headersOf,
  makeHarness,
  type Person,
  payload,
  person,
  readyPortrayal,
  startOnboarding,
  upload,
} from './testing/harness';

let h: Harness;

beforeAll(async () => {
  h = await makeHarness();
});

afterAll(async () => {
  await h.close();
});

const someone = (tenant = 'gambling') => person(`acc-${randomUUID()}`, tenant);
const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

async function expectProblem(res: Response, status: number, code?: string): Promise<Record<string, unknown>> {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
  if (code) expect(body.code).toBe(code);
  // Every error body fits the shared problem contract the portal reads (contract/api/problem.ts).
  const checked = problem(body);
  expect(checked instanceof type.errors ? checked.summary : 'ok').toBe('ok');
  return body;
}

/** Shifts a YYYY-MM-DD date of the harness clock by whole years and days. */
function dayOffset(years: number, days = 0): string {
  const date = new Date(h.clock.now);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

describe('the auto enrolment flow, end to end', () => {
  it('creates, accepts terms, sends images, polls, confirms and issues a 15-day QR', async () => {
    const me = someone();
    const created = await h.call('POST', '/internal/onboardings', me, {
      mode: 'auto',
      location: 'Sala Bilbao',
    });
    expect(created.status).toBe(201);
    const onboarding = await json(created);
    expect(onboarding).toEqual({
      onboarding_id: expect.any(String),
      identity_proofing: true,
      life_proofing: false,
      biometric_qr: true,
      supported_docs: ['id_card', 'passport', 'driving_license'],
    });
    const id = onboarding.onboarding_id as string;

    const before = await json(await h.call('GET', `/internal/onboardings/${id}`, me));
    expect(before).toMatchObject({
      onboarding_id: id,
      mode: 'auto',
      portrayals: [],
      assisted_by: null,
      host: null,
    });

    // No portrayal before the legal terms.
    await expectProblem(
      await h.call('POST', '/internal/portrayals', me, {
        user_id: me.sub,
        portrayal_type: 'document',
        document_type: 'id_card',
        document_country: 'ES',
        onboarding_id: id,
      }),
      409,
      'legal_terms_not_accepted',
    );
    expect((await h.call('PUT', `/internal/onboardings/${id}/legal_terms`, me)).status).toBe(200);

    const portrayalRes = await h.call('POST', '/internal/portrayals', me, {
      user_id: me.sub,
      portrayal_type: 'document',
      document_type: 'id_card',
      document_country: 'es',
      onboarding_id: id,
    });
    expect(portrayalRes.status).toBe(201);
    const portrayal = await json(portrayalRes);
    expect(portrayal).toEqual({ portrayal_id: expect.any(String), life_proofing: false });
    const pid = portrayal.portrayal_id as string;

    await expectProblem(
      await h.call('GET', `/internal/portrayals/${pid}`, me),
      404,
      'portrayal_result_not_ready',
    );
    const obverse = await upload(h, me, pid, 'obverse', 'document.jpg');
    expect(obverse.status).toBe(200);
    expect(await json(obverse)).toMatchObject({ image: 'obverse', format: 'jpeg', width: 320, height: 240 });
    expect((await upload(h, me, pid, 'reverse', 'document.png')).status).toBe(200);
    // Still no selfie: still 404, the client keeps polling.
    await expectProblem(
      await h.call('GET', `/internal/portrayals/${pid}`, me),
      404,
      'portrayal_result_not_ready',
    );
    expect((await upload(h, me, pid, 'selfie', 'selfie.png')).status).toBe(200);

    const resultRes = await h.call('GET', `/internal/portrayals/${pid}`, me);
    expect(resultRes.status).toBe(200);
    expect(await json(resultRes)).toEqual({
      portrayal_id: pid,
      document_info: {
        first_name: null,
        last_name: null,
        birth_date: null,
        id_number: null,
        document_number: null,
        expiry_date: null,
        expedition_country: null,
        nationality: null,
        document_type: 'id_card',
      },
      document_validation: 'not_computed',
      score_document_valid: null,
      data_validation: 'not_computed',
      score_biometry: null,
      score_biometry_valid: null,
      selfie_authenticity_valid: true,
      life_proofing_result: null,
    });

    const data = payload({ document_number: 'BAA000589', email: 'carmen@example.test' });
    const confirmed = await confirm(h, me, { onboardingId: id, portrayalId: pid }, data);
    expect(confirmed.status).toBe(200);
    const outcome = await json(confirmed);
    expect(outcome).toEqual({
      result: { outcome: 'accepted', reason: null },
      user_id: expect.any(String),
      qr_sid: expect.any(String),
    });

    const { rows: credentials } = await h.db.query<Record<string, unknown>>(
      'select * from credentials where tenant = $1 and sid = $2',
      ['gambling', outcome.qr_sid],
    );
    const qr = credentials[0] as {
      user_id: string;
      credential_type: string;
      state: string;
      starts_at: Date;
      ends_at: Date;
    };
    expect(qr).toMatchObject({ user_id: outcome.user_id, credential_type: 'qr', state: 'active' });
    expect(qr.starts_at.toISOString()).toBe(h.clock.now.toISOString());
    expect(qr.ends_at.getTime() - qr.starts_at.getTime()).toBe(QR_VALIDITY_MS);
    expect(QR_VALIDITY_MS).toBe(15 * 24 * 3600 * 1000);

    const { rows: users } = await h.db.query<Record<string, unknown>>(
      `select account_id, first_name, email, document_number, onboarding_state, register_mode, active,
              life_proofing_result, identity_proofing_result, ocr_integrity, document_validity, selfie_authenticity,
              to_char(birth_date, 'YYYY-MM-DD') as birth_date, acs_id
         from users where tenant = 'gambling' and user_id = $1`,
      [outcome.user_id],
    );
    expect(users[0]).toMatchObject({
      account_id: me.sub,
      first_name: 'Carmen',
      email: 'carmen@example.test',
      document_number: 'BAA000589',
      onboarding_state: 'completed',
      register_mode: 'auto',
      active: true,
      life_proofing_result: 'not_computed',
      identity_proofing_result: 'not_computed',
      ocr_integrity: 'not_computed',
      document_validity: 'passing',
      selfie_authenticity: 'not_computed',
      birth_date: '1980-01-01',
      acs_id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const { rows: evidences } = await h.db.query<{ kind: string; bytes: Uint8Array }>(
      'select kind, bytes from user_evidences where tenant = $1 and user_id = $2 order by kind',
      ['gambling', outcome.user_id],
    );
    expect(evidences.map((e) => e.kind)).toEqual(['obverse', 'reverse', 'selfie']);
    expect(Buffer.from(evidences[0]?.bytes ?? []).equals(fixture('document.jpg'))).toBe(true);

    // The onboarding now shows the confirmed data as the OCR adaptations, and is completed.
    const after = await json(await h.call('GET', `/internal/onboardings/${id}`, me));
    const shown = (after.portrayals as Record<string, unknown>[])[0];
    expect(shown).toMatchObject({ portrayal_id: pid, document_type: 'id_card', document_country: 'ES' });
    expect((shown?.ocr_adaptations as Record<string, unknown> | undefined)?.document_number).toEqual({
      ocr_value: null,
      adapted_value: 'BAA000589',
      adapted: true,
    });
    const status = await json(await h.call('GET', `/internal/onboardings/${id}/status`, me));
    expect(status).toMatchObject({
      status: 'completed',
      outcome: 'accepted',
      user_id: outcome.user_id,
      qr_sid: outcome.qr_sid,
    });
  });

  it('keeps answering 404 until the configured delay after the last upload has passed', async () => {
    const slow = await makeHarness({ resultDelayMs: 2000 }, h);
    try {
      const me = person(`slow-${randomUUID()}`);
      const started = await startOnboarding(slow, me);
      await upload(slow, me, started.portrayalId, 'obverse', 'document.jpg');
      await upload(slow, me, started.portrayalId, 'selfie', 'selfie.jpg');
      await expectProblem(await slow.call('GET', `/internal/portrayals/${started.portrayalId}`, me), 404);
      slow.clock.advance(1999);
      await expectProblem(await slow.call('GET', `/internal/portrayals/${started.portrayalId}`, me), 404);
      slow.clock.advance(1);
      expect((await slow.call('GET', `/internal/portrayals/${started.portrayalId}`, me)).status).toBe(200);
      // A new picture makes the result stale again: 404 until the delay has passed once more.
      await upload(slow, me, started.portrayalId, 'selfie', 'selfie.png');
      await expectProblem(await slow.call('GET', `/internal/portrayals/${started.portrayalId}`, me), 404);
      slow.clock.advance(2000);
      expect((await slow.call('GET', `/internal/portrayals/${started.portrayalId}`, me)).status).toBe(200);
    } finally {
      await slow.close();
    }
  });

  it('refuses to confirm before the result is computed', async () => {
    const me = someone();
    const started = await startOnboarding(h, me);
    await upload(h, me, started.portrayalId, 'obverse', 'document.jpg');
    await expectProblem(await confirm(h, me, started), 409, 'portrayal_not_ready');
  });

  it('offers a selfie-only portrayal and the demo tenant settings (no identity proofing, no biometric QR)', async () => {
    const me = someone('demo');
    const created = await json(await h.call('POST', '/internal/onboardings', me, { mode: 'auto' }));
    expect(created).toMatchObject({ identity_proofing: false, biometric_qr: false, life_proofing: false });
    const id = created.onboarding_id as string;
    await h.call('PUT', `/internal/onboardings/${id}/legal_terms`, me);
    const made = await json(
      await h.call('POST', '/internal/portrayals', me, {
        user_id: me.sub,
        portrayal_type: 'selfie',
        onboarding_id: id,
      }),
    );
    const pid = made.portrayal_id as string;
    await expectProblem(await upload(h, me, pid, 'obverse', 'document.png'), 409, 'image_not_expected');
    await upload(h, me, pid, 'selfie', 'selfie.jpg');
    const result = await json(await h.call('GET', `/internal/portrayals/${pid}`, me));
    expect((result.document_info as Record<string, unknown>).document_type).toBe('others');
    const res = await confirm(
      h,
      me,
      { onboardingId: id, portrayalId: pid },
      payload({ document_type: 'none' }),
    );
    expect((await json(res)).result).toEqual({ outcome: 'accepted', reason: null });
  });
});

describe('registration outcomes from the confirmed data', () => {
  const reasonOf = async (res: Response) => {
    const body = await json(res);
    return { status: res.status, reason: (body.result as { reason: string } | undefined)?.reason, body };
  };

  it('underaged: one day short of 18; exactly 18 today is accepted', async () => {
    const young = someone();
    const res = await reasonOf(
      await confirm(h, young, await readyPortrayal(h, young), payload({ birth_date: dayOffset(-18, 1) })),
    );
    expect(res).toMatchObject({ status: 200, reason: 'underaged', body: { user_id: null, qr_sid: null } });
    const adult = someone();
    const ok = await reasonOf(
      await confirm(h, adult, await readyPortrayal(h, adult), payload({ birth_date: dayOffset(-18) })),
    );
    expect(ok).toMatchObject({ status: 200, body: { result: { outcome: 'accepted' } } });
  });

  it('document_expired: expired yesterday; expiring today is still valid', async () => {
    const a = someone();
    const res = await reasonOf(
      await confirm(h, a, await readyPortrayal(h, a), payload({ expiry_date: dayOffset(0, -1) })),
    );
    expect(res).toMatchObject({ status: 200, reason: 'document_expired' });
    const b = someone();
    const ok = await reasonOf(
      await confirm(h, b, await readyPortrayal(h, b), payload({ expiry_date: dayOffset(0) })),
    );
    expect(ok.body.result).toEqual({ outcome: 'accepted', reason: null });
  });

  it('user_interdicted: the seeded entry matches by document number, by id number, or by name and birth date', async () => {
    for (const data of [
      payload({ document_number: 'prohib001' }),
      payload({ id_number: '99999990S' }),
      payload({
        first_name: 'PROHIBIDA',
        last_name: 'ejemplo lista',
        birth_date: '1970-01-01',
        id_number: null,
      }),
    ]) {
      const who = someone();
      const res = await reasonOf(await confirm(h, who, await readyPortrayal(h, who), data));
      expect(res).toMatchObject({ status: 200, reason: 'user_interdicted' });
    }
    const status = await h.db.query<{ last_reason: string }>(
      "select last_reason from onboardings where tenant = 'gambling' and last_reason = 'user_interdicted'",
    );
    expect(status.rows.length).toBeGreaterThanOrEqual(3);
  });

  it("only the tenant's own legal domains apply", async () => {
    const listed = (document_number: string) => ({
      id_number: `${document_number}X`,
      birth_date: '1960-01-01',
      document_number,
      first_name: null,
      last_name: null,
    });
    await addToWatchlist(h.db, 'demo', 'es-demo', [listed('DEMOONLY1')]);
    await addToWatchlist(h.db, 'gambling', 'es-xx', [listed('OTHERDOM1')]);
    for (const number of ['DEMOONLY1', 'OTHERDOM1']) {
      const who = someone();
      const res = await reasonOf(
        await confirm(h, who, await readyPortrayal(h, who), payload({ document_number: number })),
      );
      expect(res.body.result).toEqual({ outcome: 'accepted', reason: null });
    }
  });

  it('user_already_registered: a second enrolment of the same account answers 409 with the reason', async () => {
    const me = someone();
    const first = await readyPortrayal(h, me);
    expect((await confirm(h, me, first)).status).toBe(200);
    // Confirming the completed onboarding again, and a fresh onboarding of the same account.
    const again = await expectProblem(await confirm(h, me, first), 409, 'user_already_registered');
    expect(again).toMatchObject({
      reason: 'user_already_registered',
      result: { outcome: 'rejected', reason: 'user_already_registered' },
    });
    const second = await readyPortrayal(h, me);
    const body = await expectProblem(await confirm(h, me, second), 409, 'user_already_registered');
    expect(body.reason).toBe('user_already_registered');
  });

  it('document_already_exists: the same document number for another person answers 409', async () => {
    const a = someone();
    expect(
      (await confirm(h, a, await readyPortrayal(h, a), payload({ document_number: 'SHARED123' }))).status,
    ).toBe(200);
    const b = someone();
    const body = await expectProblem(
      await confirm(h, b, await readyPortrayal(h, b), payload({ document_number: 'shared123' })),
      409,
      'document_already_exists',
    );
    expect(body.reason).toBe('document_already_exists');
  });

  it('enforcement_source_unavailable: 503 with the reason while the fault is on (dev endpoint), then accepted', async () => {
    const me = someone();
    const admin = person('admin-faults', 'gambling', ['delete_users_all']);
    const started = await readyPortrayal(h, me);
    const on = await h.call('POST', '/dev/faults/enforcement', admin, { on: true });
    expect(await json(on)).toEqual({ on: true });
    try {
      const body = await expectProblem(await confirm(h, me, started), 503, 'enforcement_source_unavailable');
      expect(body).toMatchObject({
        reason: 'enforcement_source_unavailable',
        result: { outcome: 'rejected' },
      });
    } finally {
      await h.call('POST', '/dev/faults/enforcement', admin, { on: false });
    }
    expect(h.faults.enforcement).toBe(false);
    expect((await json(await confirm(h, me, started))).result).toEqual({ outcome: 'accepted', reason: null });
  });

  it('checks e-mail and acs_id uniqueness as field errors, unless the e-mail check is skipped (assisted)', async () => {
    // Choosing an acs_id and skipping the e-mail check are for the assisted flow only (spec §5).
    const assistant = person(`assistant-${randomUUID()}`, 'gambling', ASSISTANT_ROLES);
    const assisted = (email: string) => ({
      mode: 'assisted',
      user_id: `acc-${randomUUID()}`,
      userData: { email },
      registerMode: 'Assisted',
    });
    await confirm(
      h,
      assistant,
      await readyPortrayal(h, assistant, assisted('dup@example.test')),
      payload({ email: 'dup@example.test', acs_id: 'ACS-DUP-1' }),
    );
    const b = someone();
    const mail = await expectProblem(
      await confirm(h, b, await readyPortrayal(h, b), payload({ email: 'DUP@example.test' })),
      409,
    );
    expect(mail.errors).toEqual([{ field: 'email', code: 'email_already_in_use' }]);
    const started = await readyPortrayal(h, assistant, assisted('other@example.test'));
    const acs = await expectProblem(
      await confirm(h, assistant, started, payload({ acs_id: 'ACS-DUP-1' })),
      409,
    );
    expect(acs.errors).toEqual([{ field: 'acs_id', code: 'acs_id_already_in_use' }]);
    const skipped = await confirm(
      h,
      assistant,
      started,
      payload({ email: 'dup@example.test', skip_email_check: true }),
    );
    expect((await json(skipped)).result).toEqual({ outcome: 'accepted', reason: null });
  });

  it('answers 422 with one { field, code } per wrong field', async () => {
    const me = someone();
    const started = await readyPortrayal(h, me);
    const body = await expectProblem(
      await confirm(h, me, started, {
        ...payload(),
        first_name: '',
        birth_date: '01/01/1980',
        expiry_date: '2031-02-30',
        document_type: 'card',
        email: 'not-an-email',
      }),
      422,
      'validation',
    );
    expect(body.detail).toBe('validation');
    const errors = body.errors as { field: string; code: string }[];
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'first_name', code: 'required' },
        { field: 'birth_date', code: 'wrong_format' },
        { field: 'expiry_date', code: 'wrong_format' },
        { field: 'document_type', code: 'wrong_value' },
        { field: 'email', code: 'wrong_format' },
      ]),
    );
    const missing = await expectProblem(await confirm(h, me, started, { first_name: 'A' }), 422);
    expect(missing.errors).toEqual(expect.arrayContaining([{ field: 'document_number', code: 'required' }]));
    const future = await expectProblem(
      await confirm(h, me, started, payload({ birth_date: dayOffset(1) })),
      422,
    );
    expect(future.errors).toEqual([{ field: 'birth_date', code: 'date_in_future' }]);
    const notJson = await h.app.request(
      `/api/internal/onboardings/${started.onboardingId}/portrayals/${started.portrayalId}`,
      {
        method: 'PUT',
        headers: { ...(await import('./testing/harness')).headersOf(me), 'content-type': 'application/json' },
        body: '{oops',
      },
    );
    await expectProblem(notJson, 400, 'invalid_json');
  });
});

describe('image checks', () => {
  let me: Person;
  let pid: string;

  beforeAll(async () => {
    me = someone();
    pid = (await startOnboarding(h, me)).portrayalId;
  });

  it('refuses a file that is not JPEG or PNG by its bytes, even sent as image/jpeg', async () => {
    const body = await expectProblem(
      await upload(h, me, pid, 'obverse', 'not-an-image.gif'),
      415,
      'image_wrong_type',
    );
    expect(body.errors).toEqual([{ field: 'image', code: 'image_wrong_type' }]);
    const res = await h.call(
      'PUT',
      `/internal/portrayals/${pid}/obverse`,
      me,
      new Uint8Array(fixture('document.jpg')),
      {
        contentType: 'text/plain',
      },
    );
    await expectProblem(res, 415, 'unsupported_media_type');
  });

  it('refuses images under 5 kB and over 5 MB', async () => {
    await expectProblem(await upload(h, me, pid, 'obverse', 'tiny.jpg'), 422, 'image_too_small');
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(fixture('document.jpg'));
    const res = await h.call('PUT', `/internal/portrayals/${pid}/obverse`, me, big, {
      contentType: 'image/jpeg',
    });
    await expectProblem(res, 413, 'image_too_large');
  });

  it('refuses a pixel flood (header claiming more than 40 megapixels) in PNG and JPEG', async () => {
    await expectProblem(await upload(h, me, pid, 'obverse', 'flood.png'), 422, 'image_too_many_pixels');
    await expectProblem(await upload(h, me, pid, 'obverse', 'flood.jpg'), 422, 'image_too_many_pixels');
  });

  it('refuses a PNG whose data cannot be decoded', async () => {
    const broken = Buffer.from(fixture('document.png'));
    broken.fill(0x55, 60, 2000);
    const res = await h.call('PUT', `/internal/portrayals/${pid}/obverse`, me, new Uint8Array(broken), {
      contentType: 'image/png',
    });
    await expectProblem(res, 422, 'image_unreadable');
  });

  it.each([
    ['obverse', 'document-blurred.jpg'],
    ['obverse', 'document-blurred.png'],
    ['selfie', 'document-blurred.png'],
  ])('a blurred %s (%s) is stored, then the result is blurred_image_error', async (kind, name) => {
    const who = someone();
    const started = await startOnboarding(h, who);
    await upload(h, who, started.portrayalId, 'obverse', kind === 'obverse' ? name : 'document.jpg');
    await upload(h, who, started.portrayalId, 'selfie', kind === 'selfie' ? name : 'selfie.png');
    const body = await expectProblem(
      await h.call('GET', `/internal/portrayals/${started.portrayalId}`, who),
      422,
      'blurred_image_error',
    );
    expect(body).toMatchObject({ reason: 'blurred_image_error', image: kind });
    // The failed portrayal cannot be confirmed; a sharp retake clears the error.
    await expectProblem(await confirm(h, who, started), 409, 'portrayal_failed');
    await upload(h, who, started.portrayalId, kind, kind === 'obverse' ? 'document.jpg' : 'selfie.jpg');
    expect((await h.call('GET', `/internal/portrayals/${started.portrayalId}`, who)).status).toBe(200);
  });

  it('spoofed_image_error when the selfie is a document picture; classification error when both sides match', async () => {
    const a = someone();
    const sa = await startOnboarding(h, a);
    await upload(h, a, sa.portrayalId, 'obverse', 'document.jpg');
    await upload(h, a, sa.portrayalId, 'selfie', 'document.jpg');
    await expectProblem(
      await h.call('GET', `/internal/portrayals/${sa.portrayalId}`, a),
      422,
      'spoofed_image_error',
    );
    const b = someone();
    const sb = await startOnboarding(h, b);
    await upload(h, b, sb.portrayalId, 'obverse', 'document.png');
    await upload(h, b, sb.portrayalId, 'reverse', 'document.png');
    await upload(h, b, sb.portrayalId, 'selfie', 'selfie.png');
    await expectProblem(
      await h.call('GET', `/internal/portrayals/${sb.portrayalId}`, b),
      422,
      'document_classification_error',
    );
  });

  it('validas_error when the engine fails', async () => {
    const failing: BiometricEngine = {
      ...referenceEngine,
      analyseDocument: () => Promise.reject(new Error('engine down')),
    };
    const other = await makeHarness({ engine: failing }, h);
    try {
      const who = person(`validas-${randomUUID()}`);
      const started = await startOnboarding(other, who);
      await upload(other, who, started.portrayalId, 'obverse', 'document.jpg');
      await upload(other, who, started.portrayalId, 'selfie', 'selfie.jpg');
      const body = await expectProblem(
        await other.call('GET', `/internal/portrayals/${started.portrayalId}`, who),
        422,
      );
      expect(body).toMatchObject({ code: 'validas_error', reason: 'validas_error' });
    } finally {
      await other.close();
    }
  });
});

/** The document (front JPEG, back PNG) and the selfie, each accepted. */
async function sendImages(harness: Harness, who: Person, portrayalId: string) {
  for (const [kind, name] of [
    ['obverse', 'document.jpg'],
    ['reverse', 'document.png'],
    ['selfie', 'selfie.png'],
  ] as const) {
    expect((await upload(harness, who, portrayalId, kind, name)).status).toBe(200);
  }
}

describe('a refused document', () => {
  it('names the check that failed, is kept when a retry replaces it, and the retry is judged anew', async () => {
    let calls = 0;
    const strict: BiometricEngine = {
      ...referenceEngine,
      async analyseDocument(input) {
        calls += 1;
        if (calls === 1) {
          return {
            ok: false,
            error: 'validas_error',
            image: 'reverse',
            detail: 'The document number check digit fails.',
            check: { field: 'document_number', rule: 'check_digit' },
          };
        }
        return referenceEngine.analyseDocument(input);
      },
    };
    const other = await makeHarness({ engine: strict }, h);
    try {
      const who = person(`refused-${randomUUID()}`);
      const started = await startOnboarding(other, who);
      await sendImages(other, who, started.portrayalId);
      const body = await expectProblem(
        await other.call('GET', `/internal/portrayals/${started.portrayalId}`, who),
        422,
        'validas_error',
      );
      expect(body).toMatchObject({
        reason: 'validas_error',
        image: 'reverse',
        check: { field: 'document_number', rule: 'check_digit' },
      });
      // Asked again, the stored answer says the same.
      expect(
        await expectProblem(await other.call('GET', `/internal/portrayals/${started.portrayalId}`, who), 422),
      ).toMatchObject({ check: { field: 'document_number', rule: 'check_digit' } });
      // The scan failure screen's retry: new pictures of the same portrayal, judged anew.
      expect((await upload(other, who, started.portrayalId, 'reverse', 'document.png')).status).toBe(200);
      expect((await other.call('GET', `/internal/portrayals/${started.portrayalId}`, who)).status).toBe(200);
      expect(await refusalsOf(other.db, 'gambling', started.portrayalId)).toEqual([
        {
          error_code: 'validas_error',
          check: { field: 'document_number', rule: 'check_digit' },
          at: expect.any(String),
        },
      ]);
    } finally {
      await other.close();
    }
  });
});

describe('a result asked for by a caller that read the portrayal before the engine finished', () => {
  it('is the stored answer: the engine does not judge the same images twice', async () => {
    let calls = 0;
    const counting: BiometricEngine = {
      ...referenceEngine,
      async analyseDocument() {
        calls += 1;
        return {
          ok: false,
          error: 'validas_error',
          image: 'obverse',
          detail: 'The birth date check digit fails.',
          check: { field: 'birth_date', rule: 'check_digit' },
        };
      },
    };
    const other = await makeHarness({ engine: counting }, h);
    try {
      const who = person(`stale-${randomUUID()}`);
      const started = await startOnboarding(other, who);
      await sendImages(other, who, started.portrayalId);
      await expectProblem(
        await other.call('GET', `/internal/portrayals/${started.portrayalId}`, who),
        422,
        'validas_error',
      );
      expect(calls).toBe(1);
      // The portrayal as a poll read it while the job ran: same images version, and the job has left inFlight.
      const stale = await findPortrayalOf(other.db, 'gambling', started.onboardingId, started.portrayalId);
      if (!stale) throw new Error('portrayal gone');
      const rt = {
        db: other.db,
        engine: async () => counting,
        heavy: { run: <T>(job: () => Promise<T>) => job() },
        logger: { log: () => {} },
        now: () => other.clock.now,
      } as unknown as OnboardingRuntime;
      const again = await computeResultOnce(
        rt,
        'gambling',
        stale,
        await imagesOf(other.db, 'gambling', started.portrayalId),
      );
      expect(again).toEqual({
        result: null,
        error: {
          code: 'validas_error',
          image: 'obverse',
          check: { field: 'birth_date', rule: 'check_digit' },
        },
      });
      expect(calls).toBe(1);
    } finally {
      await other.close();
    }
  });
});

describe('permissions and ownership', () => {
  it('needs a token, and post_onboardings_auto for auto mode', async () => {
    await expectProblem(await h.call('POST', '/internal/onboardings', undefined, { mode: 'auto' }), 401);
    const assistant = person('assistant-only', 'gambling', ASSISTANT_ROLES);
    await expectProblem(
      await h.call('POST', '/internal/onboardings', assistant, { mode: 'auto' }),
      403,
      'forbidden',
    );
    const user = someone();
    await expectProblem(
      await h.call('POST', '/internal/onboardings', user, {
        mode: 'assisted',
        userData: { email: 'x@example.test' },
      }),
      403,
      'forbidden',
    );
    const visitor = person('visitor', 'gambling', ['post_visits_me']);
    await expectProblem(await h.call('POST', '/internal/challenges', visitor, {}), 403);
    await expectProblem(
      await h.call('POST', '/internal/onboardings', user, { mode: 'later' }),
      422,
      'validation',
    );
  });

  it("hides another person's onboarding and portrayal (404) for every call", async () => {
    const owner = someone();
    const started = await readyPortrayal(h, owner);
    const stranger = someone();
    const o = started.onboardingId;
    const p = started.portrayalId;
    for (const [method, path] of [
      ['GET', `/internal/onboardings/${o}`],
      ['GET', `/internal/onboardings/${o}/status`],
      ['PUT', `/internal/onboardings/${o}/legal_terms`],
      ['DELETE', `/internal/onboardings/${o}`],
      ['GET', `/internal/portrayals/${p}`],
      ['DELETE', `/internal/portrayals/${p}`],
    ] as const) {
      await expectProblem(await h.call(method, path, stranger), 404, 'not_found');
    }
    await expectProblem(await upload(h, stranger, p, 'selfie', 'selfie.jpg'), 404);
    await expectProblem(await confirm(h, stranger, started), 404);
    await expectProblem(
      await h.call('POST', '/internal/portrayals', stranger, { portrayal_type: 'selfie', onboarding_id: o }),
      404,
    );
    await expectProblem(await h.call('GET', '/internal/onboardings/not-a-uuid', stranger), 404);
    // The owner still has everything.
    expect((await h.call('GET', `/internal/portrayals/${p}`, owner)).status).toBe(200);
  });

  it('keeps tenants apart: the same account id under another tenant sees nothing', async () => {
    const owner = someone();
    const started = await readyPortrayal(h, owner);
    const twin: Person = { ...owner, tenant: 'demo' };
    await expectProblem(await h.call('GET', `/internal/onboardings/${started.onboardingId}`, twin), 404);
    await expectProblem(await h.call('GET', `/internal/portrayals/${started.portrayalId}`, twin), 404);
    // A token of one tenant with the other tenant's header is refused by the auth middleware.
    await expectProblem(
      await h.call('GET', `/internal/onboardings/${started.onboardingId}`, owner, undefined, {
        tenant: 'demo',
      }),
      401,
    );
  });

  it('lets an assistant run an assisted onboarding for a person; the user is assisted and linked', async () => {
    const assistant = person(`assistant-${randomUUID()}`, 'gambling', ASSISTANT_ROLES);
    const assisted = `acc-${randomUUID()}`;
    const started = await startOnboarding(h, assistant, {
      mode: 'assisted',
      user_id: assisted,
      userData: { email: 'assisted@example.test', first_name: 'Ana' },
      registerMode: 'Assisted',
      visit_date: '2025-06-02',
      host: 'host@example.test',
    });
    const view = await json(await h.call('GET', `/internal/onboardings/${started.onboardingId}`, assistant));
    expect(view).toMatchObject({
      mode: 'assisted',
      assisted_by: assistant.sub,
      visit_date: '2025-06-02',
      host: 'host@example.test',
    });
    // The assisted person (own account) can follow the same onboarding; a second assistant cannot.
    expect(
      (await h.call('GET', `/internal/onboardings/${started.onboardingId}`, person(assisted))).status,
    ).toBe(200);
    const otherAssistant = person('assistant-2', 'gambling', ASSISTANT_ROLES);
    await expectProblem(
      await h.call('GET', `/internal/onboardings/${started.onboardingId}`, otherAssistant),
      404,
    );
    await upload(h, assistant, started.portrayalId, 'obverse', 'document.jpg');
    await upload(h, assistant, started.portrayalId, 'selfie', 'selfie.jpg');
    expect((await h.call('GET', `/internal/portrayals/${started.portrayalId}`, assistant)).status).toBe(200);
    const res = await confirm(h, assistant, started, payload({ skip_email_check: true }));
    const outcome = await json(res);
    expect(outcome.result).toEqual({ outcome: 'accepted', reason: null });
    const { rows } = await h.db.query<Record<string, unknown>>(
      'select account_id, register_mode, assisted_by, email from users where tenant = $1 and user_id = $2',
      ['gambling', outcome.user_id],
    );
    expect(rows[0]).toEqual({
      account_id: assisted,
      register_mode: 'assisted',
      assisted_by: assistant.sub,
      email: 'assisted@example.test',
    });
  });

  it('requires userData or user_id for assisted mode', async () => {
    const assistant = person('assistant-3', 'gambling', ASSISTANT_ROLES);
    const body = await expectProblem(
      await h.call('POST', '/internal/onboardings', assistant, { mode: 'assisted' }),
      422,
    );
    expect(body.errors).toEqual([{ field: 'userData', code: 'required' }]);
  });

  it('deletes an onboarding with its portrayals, and a portrayal on its own', async () => {
    const me = someone();
    const started = await readyPortrayal(h, me);
    const second = await h.call('POST', '/internal/portrayals', me, {
      portrayal_type: 'selfie',
      onboarding_id: started.onboardingId,
    });
    const secondId = (await json(second)).portrayal_id as string;
    expect((await h.call('DELETE', `/internal/portrayals/${secondId}`, me)).status).toBe(204);
    await expectProblem(await h.call('GET', `/internal/portrayals/${secondId}`, me), 404, 'not_found');
    expect((await h.call('DELETE', `/internal/onboardings/${started.onboardingId}`, me)).status).toBe(204);
    await expectProblem(await h.call('GET', `/internal/onboardings/${started.onboardingId}`, me), 404);
    await expectProblem(await h.call('GET', `/internal/portrayals/${started.portrayalId}`, me), 404);
    const { rows } = await h.db.query(
      'select 1 from portrayal_images where tenant = $1 and portrayal_id = $2',
      ['gambling', started.portrayalId],
    );
    expect(rows).toEqual([]);
  });

  it('validates portrayal bodies against the onboarding', async () => {
    const me = someone();
    const { onboardingId } = await startOnboarding(h, me);
    const base = { onboarding_id: onboardingId, portrayal_type: 'document' };
    const noType = await expectProblem(await h.call('POST', '/internal/portrayals', me, base), 422);
    expect(noType.errors).toEqual([{ field: 'document_type', code: 'required' }]);
    const others = await expectProblem(
      await h.call('POST', '/internal/portrayals', me, { ...base, document_type: 'others' }),
      422,
    );
    expect(others.errors).toEqual([{ field: 'document_type', code: 'unsupported_document' }]);
    const passport = await json(
      await h.call('POST', '/internal/portrayals', me, { ...base, document_type: 'passport' }),
    );
    const { rows } = await h.db.query<{ document_country: string }>(
      'select document_country from portrayals where tenant = $1 and portrayal_id = $2',
      ['gambling', passport.portrayal_id],
    );
    expect(rows[0]?.document_country).toBe('XX');
  });
});

describe('challenges and liveness', () => {
  it('issues a challenge of the requested length and expiry', async () => {
    const me = someone();
    const res = await h.call('POST', '/internal/challenges', me, { length: 5, expiration: 30 });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toEqual({
      challenge_id: expect.any(String),
      actions: expect.any(Array),
      expiration: 30,
      expires_at: new Date(h.clock.now.getTime() + 30_000).toISOString(),
    });
    const actions = body.actions as string[];
    expect(actions).toHaveLength(5);
    for (const [i, action] of actions.entries()) {
      expect(['turn_left', 'turn_right', 'blink', 'smile', 'look_up', 'look_down']).toContain(action);
      if (i > 0) expect(action).not.toBe(actions[i - 1]);
    }
    const defaults = await json(await h.call('POST', '/internal/challenges', me));
    expect(defaults).toMatchObject({ expiration: 60 });
    expect(defaults.actions).toHaveLength(3);
    const bad = await expectProblem(
      await h.call('POST', '/internal/challenges', me, { length: 0, expiration: 'soon' }),
      422,
    );
    expect(bad.errors).toEqual(
      expect.arrayContaining([
        { field: 'length', code: 'out_of_range' },
        { field: 'expiration', code: 'wrong_type' },
      ]),
    );
  });

  it('starts every challenge with the face to the camera (blink or smile) when the actions allow it', async () => {
    const me = someone();
    for (let i = 0; i < 10; i++) {
      const body = await json(await h.call('POST', '/internal/challenges', me, { length: 3 }));
      const actions = body.actions as string[];
      expect(['blink', 'smile']).toContain(actions[0]);
      expect(actions).toHaveLength(3);
      expect(actions[1]).not.toBe(actions[0]);
    }
  });

  it('draws challenges only from the configured actions (LIVENESS_ACTIONS)', async () => {
    const turns = await makeHarness({ livenessActions: ['turn_left', 'turn_right'] }, h);
    try {
      const me = someone();
      const body = await json(await turns.call('POST', '/internal/challenges', me, { length: 6 }));
      // Two actions, never the same twice in a row: they alternate.
      const actions = body.actions as string[];
      expect(actions).toHaveLength(6);
      expect(actions.filter((_, i) => i % 2 === 0).every((a) => a === actions[0])).toBe(true);
      expect(new Set(actions)).toEqual(new Set(['turn_left', 'turn_right']));
    } finally {
      await turns.close();
    }
  });

  describe('with a tenant that requires liveness', () => {
    let live: Harness;
    beforeAll(async () => {
      live = await makeHarness({ lifeProofing: (tenant) => tenant === 'gambling' }, h);
    });
    afterAll(async () => {
      await live.close();
    });

    const proof = (challengeId: string | null, frames: string[]) => {
      const form = new FormData();
      form.append('life_proofing', JSON.stringify({ sdk: 'test', frames: frames.length }));
      if (challengeId) form.append('challenge', challengeId);
      for (const name of frames) {
        form.append('frames', new Blob([new Uint8Array(fixture(name))], { type: 'image/jpeg' }), name);
      }
      return form;
    };

    async function livePortrayal(who: Person) {
      const started = await startOnboarding(live, who);
      await upload(live, who, started.portrayalId, 'obverse', 'document.jpg');
      return started;
    }

    it('waits for the proof, then accepts a proof answering a live challenge (liveness not computed)', async () => {
      const me = person(`live-${randomUUID()}`);
      const created = await live.call('POST', '/internal/onboardings', me, { mode: 'auto' });
      expect((await json(created)).life_proofing).toBe(true);
      const started = await livePortrayal(me);
      await upload(live, me, started.portrayalId, 'selfie', 'selfie.jpg');
      // The proof is required: no result without it.
      await expectProblem(await live.call('GET', `/internal/portrayals/${started.portrayalId}`, me), 404);
      const challenge = await json(
        await live.call('POST', '/internal/challenges', me, { length: 3, expiration: 60 }),
      );
      live.clock.advance(10_000);
      const res = await live.call(
        'PUT',
        `/internal/portrayals/${started.portrayalId}/lifeproof`,
        me,
        proof(challenge.challenge_id as string, ['selfie.jpg', 'selfie.png']),
      );
      expect(res.status).toBe(200);
      expect(await json(res)).toMatchObject({ frames: 2, life_proofing: 'not_computed' });
      const result = await json(await live.call('GET', `/internal/portrayals/${started.portrayalId}`, me));
      expect(result.life_proofing_result).toBe('not_computed');
      expect((await json(await confirm(live, me, started))).result).toEqual({
        outcome: 'accepted',
        reason: null,
      });
    });

    it("gives the engine the selfie with the proof, in either order, and stores a proof that is not the selfie's person as failing", async () => {
      // An engine that records what it is given, and fails a proof judged against a selfie.
      const given: LivenessInput[] = [];
      const recording: BiometricEngine = {
        ...referenceEngine,
        async checkLiveness(input) {
          given.push(input);
          return input.selfie
            ? { result: 'failing', detail: 'Another person than the selfie.' }
            : { result: 'passing', detail: 'One person.' };
        },
      };
      const judged = await makeHarness(
        { engine: recording, lifeProofing: (tenant) => tenant === 'gambling' },
        h,
      );
      try {
        // A document portrayal of a new person, and the one-frame proof it may send.
        const portrayal = async () => {
          const who = person(`live-${randomUUID()}`);
          const { portrayalId } = await startOnboarding(judged, who);
          await upload(judged, who, portrayalId, 'obverse', 'document.jpg');
          const sendProof = async () =>
            json(
              await judged.call(
                'PUT',
                `/internal/portrayals/${portrayalId}/lifeproof`,
                who,
                proof(null, ['selfie.png']),
              ),
            );
          return { who, portrayalId, sendProof };
        };

        // The selfie first, then the proof: the stored selfie goes with the proof.
        const a = await portrayal();
        await upload(judged, a.who, a.portrayalId, 'selfie', 'selfie.jpg');
        expect(await a.sendProof()).toMatchObject({ life_proofing: 'failing' });
        expect(given).toHaveLength(1);
        expect(Buffer.from(given[0]?.selfie?.bytes ?? [])).toEqual(fixture('selfie.jpg'));
        expect(given[0]?.frames).toHaveLength(1);

        // The proof first (passing, no selfie yet), then the selfie: the proof is judged again against it.
        const b = await portrayal();
        expect(await b.sendProof()).toMatchObject({ life_proofing: 'passing' });
        expect(given[1]?.selfie).toBeUndefined();
        await upload(judged, b.who, b.portrayalId, 'selfie', 'selfie.jpg');
        expect(given).toHaveLength(3);
        expect(Buffer.from(given[2]?.selfie?.bytes ?? [])).toEqual(fixture('selfie.jpg'));
        const result = await json(await judged.call('GET', `/internal/portrayals/${b.portrayalId}`, b.who));
        expect(result.life_proofing_result).toBe('failing');
      } finally {
        await judged.close();
      }
    });

    it('uses the first still frame as the selfie when no selfie was sent', async () => {
      const me = person(`live-${randomUUID()}`);
      const started = await livePortrayal(me);
      await live.call(
        'PUT',
        `/internal/portrayals/${started.portrayalId}/lifeproof`,
        me,
        proof(null, ['selfie.png']),
      );
      expect((await live.call('GET', `/internal/portrayals/${started.portrayalId}`, me)).status).toBe(200);
      const outcome = await json(await confirm(live, me, started));
      const { rows } = await live.db.query<{ kind: string }>(
        'select kind from user_evidences where tenant = $1 and user_id = $2 order by kind',
        ['gambling', outcome.user_id],
      );
      expect(rows.map((r) => r.kind)).toEqual(['obverse', 'selfie']);
    });

    it('life_proofing_failed when the proof came after the challenge expired, or every frame is blurred', async () => {
      const late = person(`live-${randomUUID()}`);
      const started = await livePortrayal(late);
      await upload(live, late, started.portrayalId, 'selfie', 'selfie.jpg');
      const challenge = await json(
        await live.call('POST', '/internal/challenges', late, { length: 2, expiration: 5 }),
      );
      live.clock.advance(6_000);
      const res = await live.call(
        'PUT',
        `/internal/portrayals/${started.portrayalId}/lifeproof`,
        late,
        proof(challenge.challenge_id as string, ['selfie.jpg']),
      );
      expect(await json(res)).toMatchObject({ life_proofing: 'failing' });
      expect(
        (await json(await live.call('GET', `/internal/portrayals/${started.portrayalId}`, late)))
          .life_proofing_result,
      ).toBe('failing');
      expect((await json(await confirm(live, late, started))).result).toEqual({
        outcome: 'rejected',
        reason: 'life_proofing_failed',
      });

      const blurry = person(`live-${randomUUID()}`);
      const other = await livePortrayal(blurry);
      await upload(live, blurry, other.portrayalId, 'selfie', 'selfie.jpg');
      await live.call(
        'PUT',
        `/internal/portrayals/${other.portrayalId}/lifeproof`,
        blurry,
        proof(null, ['document-blurred.jpg']),
      );
      expect((await live.call('GET', `/internal/portrayals/${other.portrayalId}`, blurry)).status).toBe(200);
      expect((await json(await confirm(live, blurry, other, payload()))).result).toEqual({
        outcome: 'rejected',
        reason: 'life_proofing_failed',
      });
    });

    it("refuses bad proofs: no frames, a wrong file, another person's challenge", async () => {
      const me = person(`live-${randomUUID()}`);
      const started = await livePortrayal(me);
      const path = `/internal/portrayals/${started.portrayalId}/lifeproof`;
      const empty = await expectProblem(await live.call('PUT', path, me, proof(null, [])), 422);
      expect(empty.errors).toEqual([{ field: 'frames', code: 'required' }]);
      await expectProblem(
        await live.call('PUT', path, me, proof(null, ['not-an-image.gif'])),
        415,
        'image_wrong_type',
      );
      const theirs = await json(await live.call('POST', '/internal/challenges', person('someone-else'), {}));
      const wrong = await expectProblem(
        await live.call('PUT', path, me, proof(theirs.challenge_id as string, ['selfie.jpg'])),
        422,
      );
      expect(wrong.errors).toEqual([{ field: 'challenge', code: 'unknown_challenge' }]);
      await expectProblem(
        await live.call('PUT', path, me, { not: 'multipart' }),
        415,
        'unsupported_media_type',
      );
    });
  });
});

describe('user codes (continue on a phone)', () => {
  it('generates an 8-character code for the caller’s onboarding and redeems it once', async () => {
    const me = someone();
    const { onboardingId } = await startOnboarding(h, me);
    const res = await h.call('POST', '/user-code/generate', me, {});
    expect(res.status).toBe(201);
    const generated = await json(res);
    expect(generated).toEqual({
      code: expect.stringMatching(/^[A-HJ-NP-Z2-9]{8}$/),
      onboarding_id: onboardingId,
      expires_at: new Date(h.clock.now.getTime() + 600_000).toISOString(),
      expires_in: 600,
      // No Host header here: the link is on the known origin of the call's tenant (gambling: localhost).
      link: `http://localhost:8080/device-detect?code=${generated.code}`,
      qr: expect.stringMatching(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/),
    });
    const code = generated.code as string;
    // Another person cannot redeem it; the owner can, typed in lower case with a dash.
    await expectProblem(
      await h.call('POST', '/user-code/redeem', someone(), { code }),
      404,
      'user_code_not_found',
    );
    const typed = `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`;
    const redeemed = await h.call('POST', '/user-code/redeem', me, { code: typed });
    expect(redeemed.status).toBe(200);
    expect(await json(redeemed)).toMatchObject({ onboarding_id: onboardingId });
    await expectProblem(await h.call('POST', '/user-code/redeem', me, { code }), 409, 'user_code_used');
    await expectProblem(await h.call('POST', '/user-code/redeem', me, { code: '12' }), 422);
    await expectProblem(await h.call('POST', '/user-code/redeem', me, { code: 'ABCDEFGH' }), 404);
  });

  it('links to the device detection page on the known origin of the call, with its QR code', async () => {
    const me = someone();
    const { onboardingId } = await startOnboarding(h, me);
    const generate = (host: string, tenant = 'gambling') =>
      h.app.request('/api/user-code/generate', {
        method: 'POST',
        headers: { ...headersOf(me, tenant), host, 'content-type': 'application/json' },
        body: JSON.stringify({ onboarding_id: onboardingId }),
      });
    const res = await generate('gambling.localhost:8080');
    expect(res.status).toBe(201);
    const { code, link, qr } = (await json(res)) as { code: string; link: string; qr: string };
    expect(link).toBe(`http://gambling.localhost:8080/device-detect?code=${code}`);
    const png = Buffer.from(qr.replace(/^data:image\/png;base64,/, ''), 'base64');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.length).toBeGreaterThan(500);
    // A Host that is no known origin, or a known one of another tenant, never makes the link: it is on the
    // first known origin of the call's tenant.
    for (const odd of [
      'evil.example',
      'evil.example:8080',
      'evil.example/phish?x=',
      'a b',
      'demo.localhost:8080',
    ]) {
      const answer = (await json(await generate(odd))) as { code: string; link: string };
      expect(answer.link).toBe(`http://localhost:8080/device-detect?code=${answer.code}`);
    }
  });

  it('expires after 10 minutes', async () => {
    const me = someone();
    const { onboardingId } = await startOnboarding(h, me);
    const { code } = (await json(
      await h.call('POST', '/user-code/generate', me, { onboarding_id: onboardingId }),
    )) as {
      code: string;
    };
    h.clock.advance(10 * 60 * 1000);
    try {
      await expectProblem(await h.call('POST', '/user-code/redeem', me, { code }), 410, 'user_code_expired');
    } finally {
      h.clock.advance(-10 * 60 * 1000);
    }
  });

  it('lets the desktop follow the progress made on the phone', async () => {
    const me = someone();
    const started = await startOnboarding(h, me);
    const status = async () =>
      json(await h.call('GET', `/internal/onboardings/${started.onboardingId}/status`, me));
    expect(await status()).toMatchObject({
      status: 'in_progress',
      legal_terms_accepted: true,
      outcome: null,
    });
    await upload(h, me, started.portrayalId, 'obverse', 'document.jpg');
    expect(((await status()).portrayals as unknown[])[0]).toMatchObject({
      images: ['obverse'],
      result: 'pending',
    });
    await upload(h, me, started.portrayalId, 'selfie', 'selfie.jpg');
    await h.call('GET', `/internal/portrayals/${started.portrayalId}`, me);
    expect(((await status()).portrayals as unknown[])[0]).toMatchObject({
      images: ['obverse', 'selfie'],
      result: 'ready',
    });
    await confirm(h, me, started);
    expect(await status()).toMatchObject({
      status: 'completed',
      outcome: 'accepted',
      user_id: expect.any(String),
    });
  });

  it('has nothing to continue without an onboarding in progress', async () => {
    await expectProblem(await h.call('POST', '/user-code/generate', someone(), {}), 404, 'not_found');
  });
});
