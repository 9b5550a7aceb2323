import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../app';
import type { Db } from '../db/db';
import { JSON_MAX_BYTES } from '../http/validation';
import { createSiteFixture, type SiteFixture, testDeps } from '../testing/fixtures';
import { basicEngine as referenceEngine } from './engine';
import { onboardingRoutes } from './routes';
import { fakeAuth, headersOf, PUBLIC_DIR, person } from './testing/harness';

// JSON bodies are refused unread above JSON_MAX_BYTES (image uploads have limits of their own). The database
// throws when touched: a refusal must come before any query.

const untouchable: Db = new Proxy({} as Db, {
  get: (_target, name) => () => {
    throw new Error(`the database was used (${String(name)})`);
  },
});

let site: SiteFixture;
let app: App;

beforeAll(() => {
  site = createSiteFixture();
  const deps = testDeps(untouchable, site, { publicDir: PUBLIC_DIR });
  app = createApp(deps);
  app.route('/api', onboardingRoutes(deps, fakeAuth, { engine: referenceEngine, production: true }));
});

afterAll(() => site.remove());

const me = person('acc-body-limits');
const send = (method: string, path: string, body: unknown) =>
  app.request(`/api${path}`, {
    method,
    headers: { ...headersOf(me), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const padding = (bytes: number) => 'x'.repeat(bytes);
const someId = '00000000-0000-4000-8000-000000000000';

describe('JSON body limits', () => {
  it.each([
    ['POST', '/internal/onboardings', { mode: 'auto', location: padding(JSON_MAX_BYTES) }],
    ['POST', '/internal/portrayals', { portrayal_type: 'selfie', process: padding(JSON_MAX_BYTES) }],
    [
      'PUT',
      `/internal/onboardings/${someId}/portrayals/${someId}`,
      { extra_fields: { note: padding(JSON_MAX_BYTES) } },
    ],
    ['POST', '/internal/challenges', { padding: padding(JSON_MAX_BYTES) }],
    ['POST', '/user-code/redeem', { code: padding(JSON_MAX_BYTES) }],
  ])('%s %s over the limit: 413 payload_too_large', async (method, path, body) => {
    const res = await send(method, path, body);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('lets the schema judge a body under the limit', async () => {
    const res = await send('POST', '/internal/onboardings', { mode: 'auto', location: padding(1000) });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ errors: [{ field: 'location', code: 'too_long' }] });
  });
});
