import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, makeHarness, person, readyPortrayal } from './testing/harness';
import { JSON_MAX_BYTES } from './validation';

// JSON bodies are refused unread above JSON_MAX_BYTES (image uploads have limits of their own).

let h: Harness;

beforeAll(async () => {
  h = await makeHarness();
});

afterAll(async () => {
  await h.close();
});

describe('JSON body limits', () => {
  it('refuses an oversized body with 413 payload_too_large, and lets the schema judge a smaller one', async () => {
    const me = person('acc-body-limits');
    const padding = (bytes: number) => 'x'.repeat(bytes);
    const big = await h.call('POST', '/internal/onboardings', me, {
      mode: 'auto',
      location: padding(JSON_MAX_BYTES),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ status: 413, code: 'payload_too_large' });

    const started = await readyPortrayal(h, me);
    const confirm = await h.call(
      'PUT',
      `/internal/onboardings/${started.onboardingId}/portrayals/${started.portrayalId}`,
      me,
      { extra_fields: { note: padding(JSON_MAX_BYTES) } },
    );
    expect(confirm.status).toBe(413);

    // Under the limit the schema decides (location is at most 200 characters).
    const long = await h.call('POST', '/internal/onboardings', me, { mode: 'auto', location: padding(1000) });
    expect(long.status).toBe(422);
    expect(await long.json()).toMatchObject({ errors: [{ field: 'location', code: 'too_long' }] });
  });
});
