// Parallel heavy uploads from one person used to stall everyone: forty parallel selfies of 36 megapixels from one
// newcomer were all decoded at once, the slowest answered after 45 s and /health after seconds. Now each upload
// takes a place in the heavy-work queue before its body is read (heavy-work.ts): at most two of one person's at
// once, a third is answered 429 `busy` with a Retry-After at once, and everyone else is still served. On a real
// server, through the real sign-in. The engine's image check waits on a gate the test opens, so that "in flight"
// means the same on any machine, however busy: nothing here depends on how fast anything runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../main';
import { createSiteFixture, type SiteFixture, testServerOptions } from '../testing/fixtures';
import { apiCall, selfiePortrayal as portrayalOf, signIn } from '../testing/oidc';
import { type BiometricEngine, basicEngine } from './engine';
import { fixture } from './testing/harness';

/** The basic engine, whose image check waits until the test opens the gate; it counts the checks begun. */
function gatedEngine() {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let begun = 0;
  const engine: BiometricEngine = {
    ...basicEngine,
    name: 'gated',
    async checkImage(bytes, bounds) {
      begun += 1;
      await gate;
      return basicEngine.checkImage(bytes, bounds);
    },
  };
  return { engine, open: () => open(), begun: () => begun };
}

const gated = gatedEngine();
let site: SiteFixture;
let server: RunningServer;
let base: string;

beforeAll(async () => {
  site = createSiteFixture();
  server = await startServer(
    testServerOptions(
      { distDir: site.distDir },
      { onboarding: { engine: gated.engine, heavyWork: { slots: 3, perPerson: 2, waiting: 8 } } },
    ),
  );
  base = `http://localhost:${server.port}`;
}, 120_000);

afterAll(async () => {
  gated.open();
  await server?.close();
  site?.remove();
});

const json = (token: string, method: string, path: string, body?: unknown) =>
  apiCall(base, path, 'gambling', token, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

const selfiePortrayal = (token: string) => portrayalOf(base, 'gambling', token);

const selfie = (token: string, portrayalId: string) =>
  apiCall(base, `/internal/portrayals/${portrayalId}/selfie`, 'gambling', token, {
    method: 'PUT',
    headers: { 'content-type': 'image/png' },
    body: new Uint8Array(fixture('selfie.png')),
  });

/** Waits (without a clock) until the condition holds: each turn lets the server's work go on. */
async function until(condition: () => boolean) {
  for (let turn = 0; !condition(); turn++) {
    if (turn > 20_000) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('parallel uploads of one person', () => {
  it('admits two at once, answers a third 429 busy with Retry-After, and still serves everyone else', async () => {
    const newcomer = (await signIn(base, 'gambling', 'newcomer')).access_token;
    const other = (await signIn(base, 'gambling', 'user')).access_token;
    const mine = await selfiePortrayal(newcomer);
    const theirs = await selfiePortrayal(other);

    // Two of the newcomer's uploads in flight: both are being checked (and held there by the gate).
    const inFlight = [selfie(newcomer, mine), selfie(newcomer, mine)];
    await until(() => gated.begun() === 2);

    // A third at once: refused before its body is read, with when to come back (not taken in to be checked).
    const thirdCall = selfie(newcomer, mine);
    const third = await Promise.race([thirdCall, until(() => gated.begun() === 3).then(() => undefined)]);
    if (!third) throw new Error('the third upload was taken in and checked beside the other two');
    expect(third.status).toBe(429);
    const retryAfter = Number(third.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
    expect(await third.json()).toMatchObject({ status: 429, code: 'busy', retry_after: retryAfter });

    // Everyone else is still served: the health probe, another person's calls, and their own upload, which is
    // being checked beside the newcomer's two.
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await json(other, 'GET', `/internal/portrayals/${theirs}`)).status).not.toBe(429);
    const theirUpload = selfie(other, theirs);
    await until(() => gated.begun() === 3);

    gated.open();
    const answers = await Promise.all([...inFlight, theirUpload]);
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(gated.begun()).toBe(3);

    // Once a place is free again, the picture that was refused goes through.
    expect((await selfie(newcomer, mine)).status).toBe(200);
  });
});

describe('the development busy switch', () => {
  const subOf = (token: string) =>
    (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string }).sub;
  const register = (token: string, n: string) =>
    json(token, 'POST', '/public/singles', {
      mode: 'image',
      username: `busy.${n}`,
      acs_id: `BUSY-${n}`,
      email: `busy-${n}@example.test`,
      image: fixture('selfie.png').toString('base64'),
    });

  it("answers the named account's next image upload 429 busy, once, and only the admin may switch it", async () => {
    gated.open();
    const admin = (await signIn(base, 'gambling', 'admin')).access_token;
    const staff = (await signIn(base, 'gambling', 'usermanager')).access_token;
    const account = subOf(staff);
    expect((await json(staff, 'POST', '/dev/faults/busy', { account })).status).toBe(403);
    const switched = await json(admin, 'POST', '/dev/faults/busy', { account, retry_after: 3 });
    expect(switched.status).toBe(200);

    const busy = await register(staff, `${Date.now().toString(36)}a`);
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe('3');
    expect(await busy.json()).toMatchObject({ code: 'busy', retry_after: 3 });
    const again = await register(staff, `${Date.now().toString(36)}b`);
    expect(again.status, await again.clone().text()).toBe(201);
  });
});
