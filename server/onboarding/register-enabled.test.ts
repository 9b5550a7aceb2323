import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../app';
import type { Db } from '../db/db';
import { createSiteFixture, createTestDb, type SiteFixture, testDeps } from '../testing/fixtures';
import { basicEngine } from './engine';
import { settingsLoader } from './settings';
import { fakeAuth, headersOf, PUBLIC_DIR, person } from './testing/harness';

// Spec §3 userRegisterEnabled / assistantRegisterEnabled: with either off, POST /internal/onboardings of that mode
// is refused (403) even when Landing is bypassed; the other mode still works.

let db: Db;
let site: SiteFixture;
let app: App;

beforeAll(async () => {
  db = await createTestDb();
  site = createSiteFixture();
  const shipped = settingsLoader(PUBLIC_DIR);
  app = createApp({
    ...testDeps(db, site, { publicDir: PUBLIC_DIR }),
    auth: fakeAuth,
    onboarding: {
      engine: basicEngine,
      production: false,
      // gambling: self-registration closed; demo: assisted registration closed.
      settings: async (tenant) => ({
        ...(await shipped(tenant)),
        userRegisterEnabled: tenant !== 'gambling',
        assistantRegisterEnabled: tenant !== 'demo',
      }),
    },
  });
});

afterAll(async () => {
  await db.close();
  site.remove();
});

const start = (who: ReturnType<typeof person>, body: unknown) =>
  app.request('/api/internal/onboardings', {
    method: 'POST',
    headers: { ...headersOf(who), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('register switches of the tenant', () => {
  it('refuses an auto onboarding where userRegisterEnabled is false, and allows it elsewhere', async () => {
    const closed = await start(person('self-1', 'gambling', ['post_onboardings_auto']), { mode: 'auto' });
    expect(closed.status).toBe(403);
    expect(await closed.json()).toMatchObject({ code: 'user_register_disabled' });
    const open = await start(person('self-2', 'demo', ['post_onboardings_auto']), { mode: 'auto' });
    expect(open.status).toBe(201);
  });

  it('refuses an assisted onboarding where assistantRegisterEnabled is false, and allows it elsewhere', async () => {
    const body = { mode: 'assisted', userData: { email: 'helped@example.test' } };
    const closed = await start(person('assistant-1', 'demo', ['post_onboardings_assisted']), body);
    expect(closed.status).toBe(403);
    expect(await closed.json()).toMatchObject({ code: 'assistant_register_disabled' });
    const open = await start(person('assistant-2', 'gambling', ['post_onboardings_assisted']), body);
    expect(open.status).toBe(201);
  });
});
