import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, request as requests } from '@playwright/test';

export const port = Number(process.env.E2E_PORT ?? 8090);
export const demoUrl = `http://demo.localhost:${port}`;

/**
 * No axe violations on the page once its screen is drawn: the address follows the machine before the screen's
 * lazy chunk has rendered, so the check waits for the screen's heading (every screen has one, and axe wants it).
 */
export async function expectAccessible(page: Page) {
  await expect(page.locator('h1').first()).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
}

export async function brandColourOf(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((el) => getComputedStyle(el).backgroundColor);
}

/**
 * An access token of a seeded account (the password is the username), by the real code flow with PKCE on the
 * server at `base`, without a browser page. The development fault switches need the admin's.
 */
export async function accessTokenOf(base: string, tenant: string, username = 'admin'): Promise<string> {
  // A context of its own: the provider's session cookie of an earlier sign-in must not answer for this one.
  const request = await requests.newContext();
  try {
    return await codeFlow(request, base, tenant, username);
  } finally {
    await request.dispose();
  }
}

async function codeFlow(
  request: APIRequestContext,
  base: string,
  tenant: string,
  username: string,
): Promise<string> {
  const realm = `${base}/auth/realms/${tenant}`;
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = `${base}/callback`;
  const query = new URLSearchParams({
    client_id: 'portal',
    response_type: 'code',
    scope: 'openid profile roles email',
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'e2e',
  });
  const started = await request.get(`${realm}/auth?${query}`, { maxRedirects: 0 });
  let res = await request.post(`${new URL(started.headers().location ?? '', base).toString()}/login`, {
    form: { username, password: username },
    maxRedirects: 0,
  });
  let location = res.headers().location ?? '';
  for (let hops = 0; !location.startsWith(`${redirectUri}?`); hops++) {
    if (hops > 5 || !location) throw new Error(`no code for ${username}: ${res.status()}`);
    res = await request.get(new URL(location, base).toString(), { maxRedirects: 0 });
    location = res.headers().location ?? '';
  }
  const token = await request.post(`${realm}/token`, {
    form: {
      grant_type: 'authorization_code',
      code: new URL(location).searchParams.get('code') ?? '',
      redirect_uri: redirectUri,
      client_id: 'portal',
      code_verifier: verifier,
    },
  });
  expect(token.ok()).toBe(true);
  return ((await token.json()) as { access_token: string }).access_token;
}

export type Lang = 'es' | 'en' | 'eu';

/** The portal's messages in each language, as the journeys compare what the screen says with them. */
const catalogue = Object.fromEntries(
  (['es', 'en', 'eu'] as const).map((lang) => [
    lang,
    JSON.parse(readFileSync(`src/i18n/messages/${lang}.json`, 'utf8')) as Record<string, string>,
  ]),
) as Record<Lang, Record<string, string>>;

/** A message of the catalogue of `lang`, by id. */
export const t = (lang: Lang, id: string) => catalogue[lang][id] as string;
