import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, request as requests, test } from '@playwright/test';
import { SCREEN_CHECKS_DIR, SCREEN_CHECKS_FILE } from '../support/screen-checks.mjs';

export const port = Number(process.env.E2E_PORT ?? 8090);
export const demoUrl = `http://demo.localhost:${port}`;

// axe-core's own build, evaluated in the page as @axe-core/playwright does.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Resolves once the document has gone `quietMs` without a change to its elements or text (or after `capMs`, for
 * screens that never stop changing, like a countdown). A language switch or a navigation re-renders the screen
 * for a few frames after its heading shows; axe run inside that window judges a state nobody looks at.
 */
const settled = (page: Page, quietMs = 150, capMs = 2000) =>
  page.evaluate(
    ([quiet, cap]) =>
      new Promise<void>((resolve) => {
        const done = () => {
          observer.disconnect();
          clearTimeout(quietTimer);
          clearTimeout(capTimer);
          resolve();
        };
        let quietTimer = setTimeout(done, quiet);
        const capTimer = setTimeout(done, cap);
        const observer = new MutationObserver(() => {
          clearTimeout(quietTimer);
          quietTimer = setTimeout(done, quiet);
        });
        observer.observe(document.documentElement, {
          subtree: true,
          childList: true,
          characterData: true,
          attributes: true,
        });
      }),
    [quietMs, capMs] as const,
  );

/** The violations axe finds in the page's document, or null when axe is not in this document yet. */
const axeViolations = (page: Page) =>
  page.evaluate(async () => {
    const axe = (window as { axe?: typeof import('axe-core') }).axe;
    if (!axe) return null;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`);
  });

/**
 * No axe violations on the page once its screen is drawn and settled: the address follows the machine before the
 * screen's lazy chunk has rendered, so the check waits for the screen's heading (every screen has one, and axe
 * wants it), then for the document to stop changing. axe is put into a document once and run there with every
 * rule: @axe-core/playwright's analyze() sends the 550 KB source again on every call and opens a blank page to
 * merge the frames' results, about 3 s of CPU a check on two cores. A page that holds frames still goes through
 * the builder, which checks inside them.
 */
export async function expectAccessible(page: Page) {
  await expect(page.locator('h1').first()).toBeVisible();
  await settled(page);
  if (page.frames().length > 1) {
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
    return;
  }
  let violations = await axeViolations(page);
  if (violations === null) {
    await page.evaluate(AXE_SOURCE);
    violations = await axeViolations(page);
  }
  expect(violations).toEqual([]);
  await expectNoOverflowAt360(page);
}

/** The narrowest phone the portal is made for, in CSS pixels. */
export const NARROWEST = 360;

/**
 * The screen fits a 360-px-wide phone: the document is no wider than the viewport (a table may scroll inside its
 * own box, the page may not), and nothing reaches past the edge of the card it is in. The journeys' phone is wider (Pixel 7, 412 px), so the page is narrowed for the
 * measure and given back its size after. Each check is written down (screen, language, width) for the
 * coverage report of scripts/screen-checks.ts.
 */
async function expectNoOverflowAt360(page: Page) {
  const size = page.viewportSize();
  if (size && size.width !== NARROWEST) await page.setViewportSize({ width: NARROWEST, height: size.height });
  try {
    const seen = await page.evaluate(() => ({
      route: document.querySelector('main[data-route]')?.getAttribute('data-route') ?? null,
      lang: document.documentElement.lang,
      // The layout viewport: a phone's innerWidth grows to the content when it overflows, clientWidth does not.
      width: document.documentElement.clientWidth,
      scrollWidth: document.documentElement.scrollWidth,
      // The widest element past the right edge, to say what overflows.
      culprit: (() => {
        let worst: { selector: string; right: number } | null = null;
        const edge = document.documentElement.clientWidth;
        for (const element of document.body.querySelectorAll('*')) {
          // A fixed element spans the layout viewport, which a phone widens to the content: a symptom, not a cause.
          if (getComputedStyle(element).position === 'fixed') continue;
          const right = element.getBoundingClientRect().right;
          if (right > edge + 0.5 && (!worst || right > worst.right)) {
            const classes =
              typeof element.className === 'string' ? element.className.split(' ').slice(0, 3) : [];
            worst = {
              selector: [element.tagName.toLowerCase(), ...classes].join('.'),
              right: Math.round(right),
            };
          }
        }
        return worst;
      })(),
      // What reaches past the right edge of the card it is drawn in (beyond the page's edge or not): a button pushed
      // out of its form's card. What scrolls inside its own box (a table) is that box's, not the card's.
      outOfCard: (() => {
        const out: string[] = [];
        for (const card of document.querySelectorAll('[data-slot="card"]')) {
          const edge = card.getBoundingClientRect().right;
          for (const element of card.querySelectorAll('*')) {
            let scrolls = false;
            for (let box = element.parentElement; box && box !== card; box = box.parentElement) {
              if (getComputedStyle(box).overflowX !== 'visible') scrolls = true;
            }
            const { right, width } = element.getBoundingClientRect();
            if (scrolls || width === 0 || right <= edge + 0.5) continue;
            const classes =
              typeof element.className === 'string' ? element.className.split(' ').slice(0, 3) : [];
            out.push(
              `${[element.tagName.toLowerCase(), ...classes].join('.')} by ${Math.round(right - edge)} px`,
            );
          }
        }
        return out;
      })(),
    }));
    recordScreenCheck({ route: seen.route, lang: seen.lang, overflow: seen.scrollWidth - seen.width });
    const culprit = seen.culprit ? `; ${seen.culprit.selector} reaches ${seen.culprit.right} px` : '';
    expect(
      seen.scrollWidth - seen.width,
      `the ${seen.route ?? 'page'} screen (${seen.lang}) is wider than a ${NARROWEST}-px phone${culprit}`,
    ).toBe(0);
    expect(
      seen.outOfCard,
      `on the ${seen.route ?? 'page'} screen (${seen.lang}) at ${NARROWEST} px, past the edge of its card`,
    ).toEqual([]);
  } finally {
    if (size && size.width !== NARROWEST) await page.setViewportSize(size);
  }
}

/** One line per accessibility check, for scripts/screen-checks.ts (Playwright empties test-results at each run). */
function recordScreenCheck(check: { route: string | null; lang: string; overflow: number }) {
  mkdirSync(SCREEN_CHECKS_DIR, { recursive: true });
  appendFileSync(
    SCREEN_CHECKS_FILE,
    `${JSON.stringify({ ...check, journey: test.info().titlePath.slice(1).join(' › ') })}\n`,
  );
}

export async function brandColourOf(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((el) => getComputedStyle(el).backgroundColor);
}

/**
 * An access token of a seeded account (the password is the username), by the real code flow with PKCE on the
 * server at `base`, without a browser page. The development fault switches need the admin's.
 */
export async function accessTokenOf(base: string, tenant: string, username = 'admin'): Promise<string> {
  return (await tokensOf(base, tenant, username)).access_token;
}

/** The claims of a JWT (not verified: the journeys read what the server gave them). */
export const jwtPayload = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString());

interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  token_type: string;
  scope: string;
  expires_in: number;
}

/** The token response of the code flow for a seeded account (the password is the username). */
async function tokensOf(base: string, tenant: string, username: string): Promise<Tokens> {
  // A context of its own: the provider's session cookie of an earlier sign-in must not answer for this one.
  const request = await requests.newContext();
  try {
    return await codeFlow(request, base, tenant, username);
  } finally {
    await request.dispose();
  }
}

/**
 * Opens `path` of the portal at `origin` already signed in as a seeded account of `tenant`, in `lang` when given:
 * the code flow runs from Node (as accessTokenOf), and its tokens go where oidc-client-ts keeps the user
 * (src/auth/oidc-config.ts userStorageKey), so the journey starts on its screen without the three page loads of
 * the sign-in pages. For journeys about what comes after sign-in; the sign-in pages, the return to the asked
 * screen and renewal have journeys of their own (session.spec.ts, accreditations.spec.ts). Node resolves only
 * localhost, so this is for the tenant served there (gambling); demo's journeys sign in through the pages.
 */
export async function openSignedIn(
  page: Page,
  username: string,
  path: string,
  options: { lang?: Lang; origin?: string; tenant?: string } = {},
) {
  const origin = options.origin ?? `http://localhost:${port}`;
  const tenant = options.tenant ?? 'gambling';
  const tokens = await tokensOf(origin, tenant, username);
  const user = {
    id_token: tokens.id_token,
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    token_type: tokens.token_type,
    scope: tokens.scope,
    profile: jwtPayload(tokens.id_token),
    expires_at: Math.floor(Date.now() / 1000) + tokens.expires_in,
  };
  // Any page of the origin gives its storage; the health probe is the lightest.
  await page.goto(`${origin}/health`);
  await page.evaluate(
    ([key, value, lang]) => {
      localStorage.setItem(key, value);
      if (lang) localStorage.setItem('portal.locale', lang);
    },
    [`oidc.user:${origin}/auth/realms/${tenant}:portal`, JSON.stringify(user), options.lang ?? ''] as const,
  );
  await page.goto(`${origin}${path}`);
}

/**
 * Fills the provider's sign-in page (any of the portal's languages) with a seeded account's username and password
 * (the seeded passwords are the usernames).
 */
export async function logIn(page: Page, username: string, password = username) {
  await expect(page).toHaveURL(/\/auth\/realms\/\w+\//, { timeout: 30_000 });
  await page.getByLabel(/^(usuario|username|erabiltzailea)/i).fill(username);
  await page.getByLabel(/^(contraseña|password|pasahitza)/i).fill(password);
  await page
    .getByRole('button', { name: /^(entrar|iniciar sesión|log in|sign in|sartu|hasi saioa)$/i })
    .click();
}

/** A picture or video made by `npm run fixtures`. */
export const fixture = (name: string) => `tests/fixtures/generated/${name}`;

/** A seeded account that has not enrolled yet; each journey that enrols takes one of its own (SEED_NEWCOMERS). */
export const newcomer = (n: number) => `newcomer-${String(n).padStart(2, '0')}`;

/** Signs in as a person does: from Welcome (or `from`), the sign-in button, then the provider's page. */
export async function signInFromWelcome(page: Page, username: string, from = '/') {
  await page.goto(from);
  await page.getByTestId('login').click();
  await logIn(page, username);
}

/**
 * From Landing (signed in, in Spanish): Start, accept the terms, choose the document (a passport by default: one
 * page, no back), on DocumentScan.
 */
export async function startEnrolment(
  page: Page,
  document: 'Pasaporte' | 'DNI o tarjeta de identidad' = 'Pasaporte',
) {
  await page.getByTestId('enrolment-start').click();
  await page.getByLabel(/acepto las condiciones/i).check();
  await page.getByTestId('privacy-accept').click();
  await page.getByLabel(document).check();
  await page.getByTestId('documents-continue').click();
  await expect(page).toHaveURL(/\/document-scan$/);
}

/**
 * Opens `path` as `username` in `lang` and waits for the address to be it. On the journeys' main server this is
 * openSignedIn; on another origin (demo.localhost, which Node does not resolve) the person signs in through the
 * provider's page, which brings them back to `path`.
 */
export async function openAs(page: Page, username: string, path: string, lang: Lang = 'es', base = '') {
  if (base === '' || base === `http://localhost:${port}`) {
    await openSignedIn(page, username, path, { lang });
  } else {
    await page.goto(`${base}/`);
    await page.evaluate((locale) => localStorage.setItem('portal.locale', locale), lang);
    await page.goto(`${base}${path}`);
    await logIn(page, username);
  }
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`));
}

async function codeFlow(
  request: APIRequestContext,
  base: string,
  tenant: string,
  username: string,
): Promise<Tokens> {
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
  return (await token.json()) as Tokens;
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

/**
 * Records the layout shifts of every document the page opens from now on (PerformanceObserver, buffered, so the
 * shifts before the script's observer existed count too); layoutShiftOf reads their sum.
 */
export async function watchLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const shifts = { total: 0 };
    (window as { __layoutShift?: typeof shifts }).__layoutShift = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) shifts.total += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/**
 * The sum of the layout shifts of the page's document so far that no input caused (a stricter figure than
 * Lighthouse's CLS, which takes the worst window of them), once two more frames have been drawn and their shifts
 * reported.
 */
export async function layoutShiftOf(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            setTimeout(() =>
              resolve((window as { __layoutShift?: { total: number } }).__layoutShift?.total ?? -1),
            ),
          ),
        ),
      ),
  );
}

/**
 * From now on, every document the page opens notes, once parsed and before its deferred module scripts have run (so
 * only the server's paint, server/shell.ts, can be on screen), the paint's heading, whether the app's root is hidden,
 * and where the first element of each of `selectors` stands in the paint (null where there is none).
 * `expectPaintGaveWay` compares them with the app's.
 */
export async function watchPaint(page: Page, selectors: readonly string[]) {
  await page.addInitScript((watched) => {
    const boxes = (root: Element | null) =>
      Object.fromEntries(
        watched.map((selector) => {
          const box = root?.querySelector(selector)?.getBoundingClientRect();
          // The logo's width is its picture's once loaded (the same with or without the paint): its place only.
          const size = box && selector === 'header img' ? [box.height] : box ? [box.width, box.height] : [];
          return [selector, box ? [box.x, box.y, ...size].map(Math.round) : null];
        }),
      );
    const seen = window as { __painted?: unknown; __boxes?: typeof boxes };
    seen.__boxes = boxes;
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      const shell = document.getElementById('shell');
      seen.__painted = {
        heading: shell?.querySelector('h1')?.textContent ?? null,
        rootHidden: document.getElementById('root')?.hidden,
        boxes: boxes(shell),
      };
    });
  }, selectors);
}

/**
 * Once the app's screen is drawn: the page came painted with `heading` (the app's root hidden meanwhile), the paint
 * is gone, and the elements of `selectors` (watched by watchPaint) were in the paint and stand in the app where they
 * stood in it.
 */
export async function expectPaintGaveWay(
  page: Page,
  { heading, selectors, label }: { heading: RegExp; selectors: readonly string[]; label: string },
) {
  const painted = (await page.evaluate(() => (window as { __painted?: unknown }).__painted)) as {
    heading: string | null;
    rootHidden: boolean;
    boxes: Record<string, number[] | null>;
  };
  expect(painted.heading, label).toMatch(heading);
  expect(painted.rootHidden, label).toBe(true);
  await expect(page.locator('#shell')).toHaveCount(0);
  await expect(page.locator('#root')).toBeVisible();
  const app = (await page.evaluate(() =>
    (window as { __boxes?: (root: Element | null) => unknown }).__boxes?.(document.getElementById('root')),
  )) as Record<string, number[] | null>;
  const only = (boxes: Record<string, number[] | null>) =>
    Object.fromEntries(selectors.map((selector) => [selector, boxes[selector] ?? null]));
  expect(only(app), label).toEqual(only(painted.boxes));
  expect(
    selectors.every((selector) => painted.boxes[selector]),
    label,
  ).toBe(true);
}

type Settings = Record<string, unknown>;

/**
 * The tenant's settings as `change` makes them, from now on in this page: settings.json when the app asks for it,
 * and the copy the server's pages carry (server/shell.ts `#portal-boot`), which the app takes instead of asking.
 */
export async function withTenantSettings(page: Page, change: (settings: Settings) => Settings) {
  await page.route(/\/tenants\/[\w-]+\/settings\.json$/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: change((await response.json()) as Settings) });
  });
  // A document's address has no file extension and is not the API's.
  await page.route(
    (url) => !url.pathname.startsWith('/api/') && !/\.\w+$/.test(url.pathname),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const response = await route.fetch();
      const html = (await response.text()).replace(
        /(<script type="application\/json" id="portal-boot">)([^<]*)(<\/script>)/,
        (_, open: string, json: string, close: string) => {
          const boot = JSON.parse(json) as { settings: Settings };
          return (
            open +
            JSON.stringify({ ...boot, settings: change(boot.settings) }).replace(/</g, '\\u003c') +
            close
          );
        },
      );
      const headers = { ...response.headers() };
      delete headers['content-encoding'];
      delete headers['content-length'];
      await route.fulfill({ status: response.status(), headers, body: html });
    },
  );
}
