import { describe, expect, it } from 'vitest';
import { signedInAppForFile } from '../testing/signed-in-app';
import { settingsLoader } from './settings';
import { headersOf, PUBLIC_DIR, person } from './testing/harness';

// Spec §3 userRegisterEnabled / assistantRegisterEnabled: with either off, POST /internal/onboardings of that mode
// is refused (403) even when Landing is bypassed; the other mode still works.

const shipped = settingsLoader(PUBLIC_DIR);
const portal = signedInAppForFile({
  onboarding: {
    // gambling: self-registration closed; demo: assisted registration closed.
    settings: async (tenant) => ({
      ...(await shipped(tenant)),
      userRegisterEnabled: tenant !== 'gambling',
      assistantRegisterEnabled: tenant !== 'demo',
    }),
  },
});

const start = (who: ReturnType<typeof person>, body: unknown) =>
  portal.app.request('/api/internal/onboardings', {
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
