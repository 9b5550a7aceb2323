import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { PAINT_TOKEN_COOKIE } from '../contract/tenant/boot';
import { Browser, realmOf, signIn } from './testing/oidc';
import { startedServerForFile } from './testing/signed-in-app';

// A data screen's address, asked with the cookie the app keeps in step with its access token
// (src/auth/paint-cookie.ts): the server paints the screen with the person's data, drawn from its own API with
// that token (src/app/shell-data.tsx), or the generic paint when the token is not one the API takes. A real server
// on loopback, the shipped tenants, the seeded accounts.

const started = startedServerForFile({ publicDir: 'public' });

const page = (path: string, token?: string) =>
  fetch(`${started.base}${path}`, {
    headers: { accept: 'text/html', ...(token ? { cookie: `${PAINT_TOKEN_COOKIE}=${token}` } : {}) },
  });

/** Whether the page's paint is drawn with someone's data (the inline script names the attribute too). */
const withData = (html: string) => /<div id="shell"[^>]* data-with-data[ >]/.test(html);

const bootOf = (html: string) =>
  JSON.parse(
    /<script type="application\/json" id="portal-boot">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}',
  ) as {
    answers?: { url: string; status: number }[];
    texts?: { locale: string; first?: unknown };
  };

const answersOf = (html: string) => bootOf(html).answers ?? [];

describe('a data screen painted with the person’s data', () => {
  it('draws the profile of the token’s person, with the answers it came from, for them alone', async () => {
    const { access_token } = await signIn(started.base, 'gambling', 'user');
    const sub = decodeJwt(access_token).sub ?? '';
    const res = await page('/profile', access_token);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.includes('data-paint="UserProfile"')).toBe(true);
    expect(withData(html)).toBe(true);
    const answers = answersOf(html);
    expect(answers.map((a) => a.url)).toContain(`/api/internal/accounts/${sub}/profile`);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // The person's own data is in the paint, not only in the answers.
    const profile = await (
      await fetch(`${started.base}/api/internal/accounts/${sub}/profile`, {
        headers: { authorization: `Bearer ${access_token}`, 'tenant-id': 'gambling' },
      })
    ).json();
    const email = (profile as { email?: string }).email ?? '';
    expect(email).not.toBe('');
    expect(html.split('id="root"')[0]?.includes(email)).toBe(true);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('vary')).toContain('Cookie');
    expect(res.headers.get('etag')).toBeNull();
    // The first screens' texts are left to their file (the data fills the first round trip); the generic page of
    // the same screen carries them.
    const textsOf = (page: string) => bootOf(page).texts;
    expect(textsOf(html)).toMatchObject({ locale: 'es' });
    expect(textsOf(html)?.first).toBeUndefined();
    expect(textsOf(await (await page('/profile')).text())?.first).toBeDefined();
  });

  it('paints the generic screen for a token the API does not take: made up, another tenant’s, a signed-out one', async () => {
    const generic = async (token: string | undefined, label: string, path = '/profile') => {
      const res = await page(path, token);
      const html = await res.text();
      expect(html.includes('<div id="shell"'), label).toBe(true);
      expect(withData(html), label).toBe(false);
      expect(answersOf(html), label).toEqual([]);
      return res;
    };
    const plain = await generic(undefined, 'no cookie');
    expect(plain.headers.get('vary')).toContain('Cookie');
    expect(plain.headers.get('cache-control')).toBe('no-cache');
    await generic('not.a.token', 'made up');
    await generic('x'.repeat(5000), 'long');
    const demo = await signIn(started.base, 'demo', 'user');
    await generic(demo.access_token, 'demo');
    // A sign-in that has ended (its grant revoked) before its token was used; the same person's other sign-in is
    // painted with data.
    const other = await signIn(started.base, 'gambling', 'visitor');
    const visitor = await signIn(started.base, 'gambling', 'visitor');
    const revoked = await new Browser().post(`${realmOf(started.base, 'gambling')}/token/revocation`, {
      token: visitor.refresh_token,
      client_id: 'portal',
    });
    expect(revoked.status).toBe(200);
    await generic(visitor.access_token, 'revoked', '/my-visits');
    expect(withData(await (await page('/my-visits', other.access_token)).text())).toBe(true);
  });

  it('paints with data only the plain address of a data screen the person may open', async () => {
    const { access_token } = await signIn(started.base, 'gambling', 'user');
    // A visitor's token on reception's list: their calls might answer, but the screen is not theirs to open.
    const visitor = await signIn(started.base, 'gambling', 'visitor');
    expect(withData(await (await page('/visits', visitor.access_token)).text())).toBe(false);
    for (const path of ['/home?saloon=Norte', '/new-visit', '/']) {
      const html = await (await page(path, access_token)).text();
      expect(withData(html), path).toBe(false);
    }
    expect(withData(await (await page('/home', access_token)).text())).toBe(true);
    // A HEAD gets the generic page's headers, and makes no calls.
    const head = await fetch(`${started.base}/home`, {
      method: 'HEAD',
      headers: { accept: 'text/html', cookie: `${PAINT_TOKEN_COOKIE}=${access_token}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toBe('no-cache');
  });

  it('draws the access audit as opening at the instant the page tells the app, its first page asked up to it', async () => {
    const { access_token } = await signIn(started.base, 'gambling', 'auditor');
    const html = await (await page('/audit-accesses', access_token)).text();
    expect(withData(html)).toBe(true);
    const block =
      /<script type="application\/json" id="portal-boot">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}';
    const { openedAt, answers = [] } = JSON.parse(block) as {
      openedAt?: string;
      answers?: { url: string }[];
    };
    expect(Number.isNaN(Date.parse(openedAt ?? ''))).toBe(false);
    const accesses = answers.map((a) => new URL(a.url, started.base)).find((u) => /\/audit/.test(u.pathname));
    expect(accesses, answers.map((a) => a.url).join(' ')).toBeDefined();
    // The range of the first page ends when the screen opened: the page's instant (the API's `to` is exclusive,
    // src/domain/audit.ts: one millisecond on).
    expect(Date.parse(accesses?.searchParams.get('to') ?? '')).toBe(Date.parse(openedAt ?? '') + 1);
  });

  it('never takes the cookie as a credential of the API', async () => {
    const { access_token } = await signIn(started.base, 'gambling', 'user');
    const sub = decodeJwt(access_token).sub ?? '';
    const res = await fetch(`${started.base}/api/internal/accounts/${sub}/profile`, {
      headers: { 'tenant-id': 'gambling', cookie: `${PAINT_TOKEN_COOKIE}=${access_token}` },
    });
    expect(res.status).toBe(401);
  });
});
