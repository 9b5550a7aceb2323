import { readFileSync } from 'node:fs';
import { type Browser, type BrowserContext, devices, expect, type Page, test } from '@playwright/test';
import { demoUrl, logIn, port, signInFromWelcome, t } from './support';

// Welcome and Landing paint from the HTML (server/shell.ts draws them with the app's own components); the app
// renders beside them, hidden, and takes their place without moving anything (src/app/shell-release.ts). To look at
// the paint alone, the app's entry script is held back until the test lets it go.

async function holdTheApp(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  // Every layout shift of the page, and the largest-contentful-paint candidates, from the first paint on.
  await page.addInitScript(() => {
    const w = window as unknown as {
      __shifts: number[];
      __lcp: { at: number; tag: string }[];
      __shellGoneAt?: number;
    };
    w.__shifts = [];
    w.__lcp = [];
    // When the server's paint left the page (the app's render took its place).
    let seen = false;
    new MutationObserver(() => {
      const shell = document.getElementById('shell');
      if (shell) seen = true;
      else if (seen && w.__shellGoneAt === undefined) w.__shellGoneAt = performance.now();
    }).observe(document, { childList: true, subtree: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
        w.__shifts.push(entry.value);
    }).observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { element: Element | null })[]) {
        w.__lcp.push({ at: entry.startTime, tag: entry.element?.tagName ?? '' });
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  return release;
}

/**
 * Holds back every script whose text holds `marker` (a test id only one screen's code has, a name only one library
 * has) until the test lets it go; the rest of the page loads as usual.
 */
async function holdScriptsWith(
  page: Page,
  marker: string,
  /** Files never held (a worker's script, whose requests the page's routes see too). */
  except?: RegExp,
): Promise<{ release: () => void; held: () => number }> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  await page.route(/\/assets\/[\w.-]+\.js$/, async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    if (body.toString('utf8').includes(marker) && !except?.test(route.request().url())) {
      held += 1;
      await released;
    }
    await route.fulfill({ status: response.status(), contentType: 'text/javascript', body });
  });
  return { release, held: () => held };
}

type Box = { x: number; y: number; width: number; height: number };

async function boxesOf(page: Page, root: string, selectors: readonly string[]): Promise<Box[]> {
  const boxes: Box[] = [];
  for (const selector of selectors) {
    const box = await page.locator(`${root} ${selector}`).first().boundingBox();
    if (!box) throw new Error(`${root} ${selector} is not on the page`);
    boxes.push(box);
  }
  return boxes;
}

const round = (boxes: Box[]) =>
  boxes.map((b) => [b.x, b.y, b.width, b.height].map((n) => Math.round(n * 10) / 10));

async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(() =>
    (window as unknown as { __shifts: number[] }).__shifts.reduce((sum, value) => sum + value, 0),
  );
}

/** Every largest-contentful-paint candidate came before the app's render: nothing the app drew was larger. */
async function expectLargestPaintFromTheHtml(page: Page) {
  const { lcp, goneAt } = await page.evaluate(() => {
    const w = window as unknown as { __lcp: { at: number; tag: string }[]; __shellGoneAt?: number };
    return { lcp: w.__lcp, goneAt: w.__shellGoneAt ?? -1 };
  });
  expect(goneAt).toBeGreaterThan(0);
  expect(lcp.length).toBeGreaterThan(0);
  for (const entry of lcp) expect(entry.at).toBeLessThan(goneAt);
}

/**
 * Signs a demo account in (its password is its name), waits for its home, and opens a page in a new context with
 * the same storage: the session, and an empty HTTP cache. `paintCookie: false`: without the cookie by which the
 * server paints a data screen with the person's data (src/auth/paint-cookie.ts), as right after signing in, so the
 * app asks for the screen's data itself.
 */
async function signedInColdPage(
  page: Page,
  browser: Browser,
  account: string,
  atHome: () => Promise<void>,
  { paintCookie = true }: { paintCookie?: boolean } = {},
): Promise<{ context: BrowserContext; cold: Page }> {
  await page.goto('/');
  await page.getByTestId('login').click();
  await page.getByLabel(/^usuario/i).fill(account);
  await page.getByLabel(/^contraseña/i).fill(account);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await atHome();
  const state = await page.context().storageState();
  const context = await browser.newContext({
    ...devices['Pixel 7'],
    storageState: paintCookie
      ? state
      : { ...state, cookies: state.cookies.filter((cookie) => cookie.name !== 'portal_paint') },
  });
  return { context, cold: await context.newPage() };
}

/** The language the page holds for the app (the account's after a sign-in); Spanish when none is stored. */
const storedLocale = (page: Page) => page.evaluate(() => localStorage.getItem('portal.locale') ?? 'es');

test.describe('the first paint comes with the HTML', () => {
  test("the answer for / holds the tenant's Welcome in its language, and the app hides nothing else", async ({
    request,
  }) => {
    const gambling = await (await request.get('/', { headers: { Accept: 'text/html' } })).text();
    expect(gambling).toContain('data-paint="Welcome"');
    expect(gambling).toContain('Bienvenido a Portal de identidad');
    expect(gambling).toContain('<html lang="es"');
    expect(gambling).toContain('<div id="root" hidden></div>');
    // No test id nor id in the paint: those are the app's own elements.
    const shell = gambling.slice(gambling.indexOf('<div id="shell"'), gambling.indexOf('<div id="root"'));
    expect(shell).not.toContain('data-testid=');

    const demo = await (
      await request.get('/', {
        // The demo tenant's host (Node's resolver does not map *.localhost to the loopback address as browsers do).
        headers: { Accept: 'text/html', Host: new URL(demoUrl).host },
      })
    ).text();
    expect(demo).toContain('Bienvenido a Demo Access');
    // The demo tenant's own text override, its brand colour and its title.
    expect(demo).toContain('instalaciones de la demostración');
    expect(demo).toContain('--brand:#0f7b5f');
    expect(demo).toContain('<title>Demo Access</title>');

    // A public screen other than Welcome (its header depends on a session the server cannot see) gets index.html as
    // it is; the signed-in screens have their own paint (the phone journey of account.spec.ts).
    const other = await (
      await request.get('/reset-credentials', { headers: { Accept: 'text/html' } })
    ).text();
    expect(other).not.toContain('id="shell"');
    expect(other).toContain('<div id="root"></div>');
  });

  test("Welcome paints before the app's script has run, and the app's render takes its place without a shift", async ({
    page,
  }) => {
    const release = await holdTheApp(page);
    await page.goto('/', { waitUntil: 'commit' });
    await expect(page.locator('#shell h1')).toHaveText('Bienvenido a Portal de identidad');
    const parts = ['header', 'header img', 'h1', 'p', 'a[href="/landing"]', 'button:not([aria-haspopup])'];
    const before = await boxesOf(page, '#shell', parts);
    await expect(page.locator('#root')).toBeHidden();

    release();
    await expect(page.getByTestId('welcome-title')).toHaveText('Bienvenido a Portal de identidad');
    await expect(page.locator('#shell')).toHaveCount(0);
    expect(round(await boxesOf(page, '#root', parts))).toEqual(round(before));
    expect(await layoutShift(page)).toBeLessThan(0.01);
    await expectLargestPaintFromTheHtml(page);
    // And the app works: the login button is the app's.
    await page.getByTestId('login').click();
    await expect(page).toHaveURL(/\/auth\/realms\/gambling\//);
  });

  test("a language chosen before is this browser's: the paint in another one is dropped before it shows", async ({
    page,
  }) => {
    await page.addInitScript(() => localStorage.setItem('portal.locale', 'en'));
    const release = await holdTheApp(page);
    await page.goto('/', { waitUntil: 'commit' });
    // The inline script (allowed by its hash in the CSP) has taken the Spanish paint away.
    await expect(page.locator('#shell')).toHaveCount(0);
    await expect(page.locator('#root')).toBeAttached();
    release();
    await expect(page.getByTestId('welcome-title')).toHaveText('Welcome to Identity portal');
    await expect(page).toHaveTitle('Identity portal');
  });

  test('a language chosen in the app comes back painted in it: the server reads it from its cookie, and the paint stays', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByTestId('language-menu').selectOption('eu');
    await expect(page.locator('html')).toHaveAttribute('lang', 'eu');
    await expect(page.getByTestId('welcome-title')).toHaveText(/^Ongi etorri .+ webgunera$/);
    const welcome = (await page.getByTestId('welcome-title').textContent()) ?? '';
    expect((await page.context().cookies()).find((c) => c.name === 'portal_locale')?.value).toBe('eu');

    const cold = await page.context().newPage();
    const release = await holdTheApp(cold);
    await cold.goto('/', { waitUntil: 'commit' });
    // Before any of the app's code has run: the paint, in Basque, kept by the inline script.
    await expect(cold.locator('#shell h1')).toHaveText(welcome);
    await expect(cold.locator('html')).toHaveAttribute('lang', 'eu');
    const before = await boxesOf(cold, '#shell main', ['h1']);
    release();
    await expect(cold.locator('#shell')).toHaveCount(0);
    await expect(cold.getByTestId('welcome-title')).toHaveText(welcome);
    expect(round(await boxesOf(cold, '#root main', ['h1']))).toEqual(round(before));
    expect(await layoutShift(cold)).toBeLessThan(0.01);
    await cold.close();
  });

  test("Landing paints for a newcomer, and the app's Landing takes its place without a shift", async ({
    page,
    browser,
  }) => {
    const { context, cold } = await signedInColdPage(page, browser, 'newcomer', async () =>
      expect(page.getByTestId('enrolment-start')).toBeVisible(),
    );
    const release = await holdTheApp(cold);
    await cold.goto(`http://localhost:${port}/landing`, { waitUntil: 'commit' });
    await expect(cold.locator('#shell h1')).toBeVisible();
    const parts = ['img[width="240"]', 'h1', 'p', 'button:not([aria-haspopup])'];
    const before = await boxesOf(cold, '#shell main', parts);
    const header = await boxesOf(cold, '#shell', ['header']);

    release();
    await expect(cold.getByTestId('enrolment-start')).toBeVisible();
    await expect(cold.locator('#shell')).toHaveCount(0);
    expect(round(await boxesOf(cold, '#root main', parts))).toEqual(round(before));
    expect(round(await boxesOf(cold, '#root', ['header']))).toEqual(round(header));
    await expect(cold.locator('[data-screen="Landing"]')).toHaveAttribute('data-state', '"notEnrolled"');
    expect(await layoutShift(cold)).toBeLessThan(0.01);
    await expectLargestPaintFromTheHtml(cold);
    await context.close();
  });

  test("an assistant's Landing never shows the self-enrolment paint: the inline script reads the session and drops it", async ({
    page,
    browser,
  }) => {
    const { context, cold } = await signedInColdPage(page, browser, 'assistant', async () =>
      expect(page).toHaveURL(/\/portal-management$/),
    );
    // Every text the page ever held while it was being built: the self-enrolment title must never be one of them
    // once the inline script has run (the script follows the paint in the HTML, before any render of it).
    await cold.addInitScript(() => {
      const w = window as unknown as { __shellSeenAfterScript: boolean };
      w.__shellSeenAfterScript = false;
      document.addEventListener('readystatechange', () => {
        if (document.getElementById('shell')) w.__shellSeenAfterScript = true;
      });
    });
    const release = await holdTheApp(cold);
    const answer = await cold.goto(`http://localhost:${port}/landing`, { waitUntil: 'commit' });
    // The server sent the newcomer's paint (it cannot know who asks)...
    expect(await answer?.text()).toContain(t('es', 'landing.title'));
    // ...and the page never kept it: no #shell once the HTML is parsed, the app's #root shown instead.
    await cold.waitForFunction(() => document.readyState !== 'loading');
    await expect(cold.locator('#shell')).toHaveCount(0);
    await expect(cold.getByText(t('es', 'landing.title'))).toHaveCount(0);
    expect(
      await cold.evaluate(
        () => (window as unknown as { __shellSeenAfterScript: boolean }).__shellSeenAfterScript,
      ),
    ).toBe(false);
    release();
    await expect(cold.getByRole('heading', { name: t('es', 'landing.assisted.title') })).toBeVisible();
    await expect(cold.getByText(t('es', 'landing.title'))).toHaveCount(0);
    await context.close();
  });

  test("an enrolled person's home never runs the answers' validators on the page, and its texts come before the first call", async ({
    page,
    browser,
  }) => {
    const { context, cold } = await signedInColdPage(
      page,
      browser,
      'user',
      async () => expect(page.locator('[data-screen="UserHome"]')).toBeVisible(),
      { paintCookie: false },
    );
    const accountLocale = await storedLocale(page);
    const requested: string[] = [];
    cold.on('request', (request) => requested.push(new URL(request.url()).pathname));
    // The screen's own address (the root sends a signed-in person there once the session is read).
    // The page never runs arktype (~40 KB, its name `arkKind` is in no other file): the answers are checked in a
    // worker (src/api/answers.ts), which loads it off the main thread. A page script holding it would be held here.
    const validators = await holdScriptsWith(cold, 'arkKind', /\/answer-check\.worker-[\w-]+\.js$/);
    const workers: string[] = [];
    cold.on('worker', (worker) => workers.push(new URL(worker.url()).pathname));
    await cold.goto(`http://localhost:${port}/home`);
    await expect(cold.getByTestId('home-accreditations')).toBeVisible();
    await expect(cold.getByTestId('accreditation-qr')).toBeVisible();
    expect(validators.held()).toBe(0);
    expect(workers.filter((path) => /\/assets\/answer-check\.worker-[\w-]+\.js$/.test(path))).toHaveLength(1);
    validators.release();
    // The catalogue's parts the screen draws with are asked for once each, before the first API call (which waits for
    // the session): no text waits for another's answer. The tenant's settings and browsers.json come in the page
    // (server/shell.ts), and so do its overrides and the catalogue's first part in the page's language (Spanish:
    // gambling offers it), whose file is never asked for. In the account's language, whichever another journey left
    // it in: another language's overrides and first part are asked for once, before the first API call.
    const overrides = requested.flatMap((path, at) =>
      /^\/tenants\/gambling\/locales\/(es|en|eu)\.json$/.test(path) ? [at] : [],
    );
    const manifest = JSON.parse(
      readFileSync(`${process.env.DIST_DIR ?? 'dist'}/.vite/manifest.json`, 'utf8'),
    ) as Record<string, { file: string }>;
    const part = (locale: string, which: 'first' | 'rest') =>
      `/${manifest[`src/i18n/messages/${locale}.json?${which}`]?.file}`;
    const catalogueParts = requested.flatMap((path, at) =>
      /^\/assets\/(es|en|eu)-[\w-]+\.js$/.test(path) ? [at] : [],
    );
    const firstApi = requested.findIndex((path) => path.startsWith('/api/'));
    expect(requested.filter((path) => /\/(settings|browsers)\.json$/.test(path))).toEqual([]);
    expect(overrides).toHaveLength(accountLocale === 'es' ? 0 : 1);
    expect(requested).not.toContain(part('es', 'first'));
    expect(requested.filter((path) => path === part(accountLocale, 'rest'))).toHaveLength(1);
    if (accountLocale !== 'es')
      expect(requested.filter((path) => path === part(accountLocale, 'first'))).toHaveLength(1);
    for (const at of [...overrides, ...catalogueParts]) expect(at).toBeLessThan(firstApi);
    // The QR came from the credentials list and one QR call, not a credential call between them.
    expect(requested.filter((path) => path.startsWith('/api/')).length).toBe(2);
    await context.close();
  });

  test("an enrolled person's home asks for its data while its code is still on its way, and asks once", async ({
    page,
    browser,
  }) => {
    const { context, cold } = await signedInColdPage(
      page,
      browser,
      'user',
      async () => expect(page.locator('[data-screen="UserHome"]')).toBeVisible(),
      { paintCookie: false },
    );
    const api: string[] = [];
    cold.on('request', (request) => {
      const { pathname, search } = new URL(request.url());
      if (pathname.startsWith('/api/')) api.push(pathname + search);
    });
    // UserHome's code (its entries' test id is in no other file) is held back: its machine cannot have started.
    const screen = await holdScriptsWith(cold, 'home-accreditations');
    await cold.goto(`http://localhost:${port}/home`);
    // The person's credentials are asked for all the same, and then the QR, as the screen's machine would.
    await expect.poll(() => api.length).toBe(2);
    expect(screen.held()).toBe(1);
    await expect(cold.locator('[data-screen="UserHome"]')).toHaveCount(0);
    expect(api[0]).toMatch(/^\/api\/public\/credentials\/[\w-]+$/);
    expect(api[1]).toMatch(/^\/api\/public\/credentials\/[\w-]+\/sids\/[\w-]+\?format=png$/);
    screen.release();
    // The screen takes those answers: the QR shows, and nothing was asked twice.
    await expect(cold.getByTestId('accreditation-qr')).toBeVisible();
    await expect(cold.getByTestId('home-accreditations')).toBeVisible();
    expect(api).toHaveLength(2);
    await context.close();
  });

  test("an enrolled person's home comes painted with their QR, and the app takes its place with the page's answers, asking nothing again", async ({
    page,
    browser,
  }) => {
    const { context, cold } = await signedInColdPage(page, browser, 'user', async () =>
      expect(page.locator('[data-screen="UserHome"]')).toBeVisible(),
    );
    const api: string[] = [];
    cold.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/')) api.push(pathname);
    });
    const release = await holdTheApp(cold);
    await cold.goto(`http://localhost:${port}/home`, { waitUntil: 'commit' });
    // Before any of the app's code has run: the person's name, their QR and its validity, from the HTML.
    const paint = cold.locator('#shell[data-with-data]');
    await expect(paint.locator('h1')).toHaveText(/^Hola, \S+/);
    await expect(paint.locator('img[alt^="Código QR"][src^="data:image/png"]')).toBeVisible();
    await expect(paint.getByText(t('es', 'home.qr.show'))).toBeVisible();
    await expect(cold.locator('#root')).toBeHidden();
    const parts = ['h1', 'img[alt^="Código QR"]', 'a[href="/my-accreditations"]'];
    const before = await boxesOf(cold, '#shell main', parts);

    release();
    await expect(cold.locator('#shell')).toHaveCount(0);
    await expect(cold.getByTestId('accreditation-qr')).toBeVisible();
    await expect(cold.getByTestId('home-accreditations')).toBeVisible();
    expect(round(await boxesOf(cold, '#root main', parts))).toEqual(round(before));
    expect(await layoutShift(cold)).toBeLessThan(0.01);
    await expectLargestPaintFromTheHtml(cold);
    // The app drew its QR from the answers in the page: it asked the API nothing.
    expect(api).toEqual([]);
    await context.close();
  });

  test("a page painted with someone's data never shows it to a browser whose session is not that one", async ({
    page,
    browser,
  }) => {
    await signInFromWelcome(page, 'user');
    await expect(page.locator('[data-screen="UserHome"]')).toBeVisible();
    // Another browser holding that cookie and nothing else: no stored session, no sign-in at the provider (a
    // cookie left behind by a session that ended in a way the app did not see).
    const left = (await page.context().cookies()).filter((cookie) => cookie.name === 'portal_paint');
    expect(left).toHaveLength(1);
    const context = await browser.newContext({ ...devices['Pixel 7'] });
    await context.addCookies(left);
    const cold = await context.newPage();
    const shown: boolean[] = [];
    await cold.exposeFunction('__paintShown', (value: boolean) => shown.push(value));
    await cold.addInitScript(() => {
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive')
          (window as unknown as { __paintShown: (v: boolean) => void }).__paintShown(
            document.getElementById('shell') !== null,
          );
      });
    });
    const html = cold.waitForResponse((response) => new URL(response.url()).pathname === '/home');
    await cold.goto(`http://localhost:${port}/home`);
    expect(await (await html).text()).toMatch(/<div id="shell"[^>]* data-with-data/);
    await expect(cold).toHaveURL(/\/auth\/realms\/gambling\//);
    // The portal's page (the first one this browser loaded; the provider's sign-in page came after it).
    expect(shown[0]).toBe(false);
    // And the cookie is gone: the next page is the generic one.
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('portal_paint');
    await context.close();
  });

  test("a staff list asks for its first page before its code has arrived, with the tenant's settings from the page", async ({
    page,
    browser,
  }) => {
    const { context, cold } = await signedInColdPage(page, browser, 'usermanager', async () =>
      expect(page.locator('main h1').first()).toBeVisible(),
    );
    const accountLocale = await storedLocale(page);
    const requested: string[] = [];
    cold.on('request', (request) => {
      const { pathname, search } = new URL(request.url());
      requested.push(pathname + search);
    });
    // The tenant's settings, were they asked for, would fail: the screen works all the same, since the page carries
    // them (server/shell.ts).
    await cold.route(/\/tenants\/gambling\/settings\.json$/, (route) => route.abort());
    const screen = await holdScriptsWith(cold, 'users-search');
    await cold.goto(`http://localhost:${port}/users`);
    const firstPage = (path: string) => path.startsWith('/api/public/users?');
    await expect.poll(() => requested.some(firstPage)).toBe(true);
    expect(screen.held()).toBe(1);
    screen.release();
    await expect(cold.getByTestId('users-search')).toBeVisible();
    await expect(cold.locator('[data-testid="users"] tbody tr').first()).toBeVisible();
    expect(requested.filter(firstPage)).toHaveLength(1);
    expect(requested.filter((path) => /\/(settings|browsers)\.json$/.test(path))).toEqual([]);
    // The overrides: in the page in its language (Spanish), asked for once in another one the account has.
    expect(requested.filter((path) => /\/locales\/(es|en|eu)\.json$/.test(path))).toHaveLength(
      accountLocale === 'es' ? 0 : 1,
    );
    await context.close();
  });

  test("the access audit asks for its first page and its facilities before its code has arrived; the range it asked for is the screen's, its export's too", async ({
    page,
    browser,
  }) => {
    const { context, cold } = await signedInColdPage(
      page,
      browser,
      'auditor',
      async () => expect(page.locator('main h1').first()).toBeVisible(),
      { paintCookie: false },
    );
    const api: { path: string; url: URL; body: string | null }[] = [];
    cold.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) api.push({ path: url.pathname, url, body: request.postData() });
    });
    const screen = await holdScriptsWith(cold, 'audit-presets');
    await cold.goto(`http://localhost:${port}/audit-accesses`);
    const pages = () =>
      api.filter((call) => call.path === '/api/public/audit_accesses' && call.body === null);
    await expect.poll(() => pages().length).toBe(1);
    await expect.poll(() => api.filter((call) => call.path === '/api/internal/facilities').length).toBe(1);
    expect(screen.held()).toBe(1);
    screen.release();
    await expect(cold.getByTestId('audit-row').first()).toBeVisible();
    await expect(cold.locator('#audit-facility option').nth(1)).toBeAttached();
    expect(pages()).toHaveLength(1);
    expect(api.filter((call) => call.path === '/api/internal/facilities')).toHaveLength(1);
    // The export of what the list shows asks for the same range: up to the instant the screen opened.
    const to = pages()[0]?.url.searchParams.get('to');
    expect(to).toBeTruthy();
    await cold.getByTestId('audit-export').click();
    await expect(cold.getByTestId('audit-export-done')).toBeVisible({ timeout: 30_000 });
    const exported = api.find((call) => call.path === '/api/public/audit_accesses' && call.body !== null);
    expect(JSON.parse(exported?.body ?? '{}')).toMatchObject({ to });
    await context.close();
  });

  test("the access audit comes painted with the auditor's accesses; the app opens at the paint's instant, asks nothing again, and its export asks for the same range", async ({
    page,
    browser,
  }) => {
    const { context, cold } = await signedInColdPage(page, browser, 'auditor', async () =>
      expect(page.locator('main h1').first()).toBeVisible(),
    );
    const api: { path: string; body: string | null }[] = [];
    cold.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/')) api.push({ path: pathname, body: request.postData() });
    });
    const release = await holdTheApp(cold);
    const html = cold.waitForResponse((response) => new URL(response.url()).pathname === '/audit-accesses');
    await cold.goto(`http://localhost:${port}/audit-accesses`, { waitUntil: 'commit' });
    const boot = /<script type="application\/json" id="portal-boot">(.*?)<\/script>/s.exec(
      await (await html).text(),
    );
    const { answers = [] } = JSON.parse(boot?.[1] ?? '{}') as { answers?: { url: string }[] };
    const first = answers
      .map((a) => new URL(a.url, cold.url()))
      .find((u) => u.pathname === '/api/public/audit_accesses');
    const to = first?.searchParams.get('to');
    expect(to).toBeTruthy();
    const paint = cold.locator('#shell[data-with-data]');
    await expect(paint.locator('li').first()).toBeVisible();
    const rows = await paint.locator('ul.divide-y > li').count();
    expect(rows).toBeGreaterThan(0);
    await expect(cold.locator('#root')).toBeHidden();

    release();
    await expect(cold.locator('#shell')).toHaveCount(0);
    await expect(cold.getByTestId('audit-row')).toHaveCount(rows);
    expect(await layoutShift(cold)).toBeLessThan(0.01);
    expect(api).toEqual([]);
    // The export of what the list shows asks for the paint's range: up to the instant the screen opened.
    await cold.getByTestId('audit-export').click();
    await expect(cold.getByTestId('audit-export-done')).toBeVisible({ timeout: 30_000 });
    const exported = api.find((call) => call.path === '/api/public/audit_accesses' && call.body !== null);
    expect(JSON.parse(exported?.body ?? '{}')).toMatchObject({ to });
    await context.close();
  });

  test('the rules a page inlines style its paint as the whole stylesheet does, on a generic paint and on one with data', async ({
    page,
  }) => {
    // Each page as the server sends it, without its scripts and its template: the paint with the page's own rules
    // only (server/critical-css.ts), shown. Then the whole sheet is linked, and every element of the paint must
    // compute every property the same (custom properties aside: the whole sheet sets ones nothing reads).
    let wholeSheet = '';
    const painted = /^[^?]*\/(|home|profile|my-accreditations)$/;
    const bare = () =>
      page.route(painted, async (route) => {
        if (route.request().resourceType() !== 'document') return route.continue();
        const response = await route.fetch();
        const html = await response.text();
        wholeSheet = /<link rel="stylesheet" href="([^"]+)" data-full-sheet>/.exec(html)?.[1] ?? '';
        await route.fulfill({
          response,
          body: html
            .replace(/<script\b[\s\S]*?<\/script>/g, '')
            .replace(/<template\b[\s\S]*?<\/template>/g, '')
            .replace(' data-with-data hidden', ' data-with-data'),
        });
      });
    const computed = () =>
      page.evaluate(() => {
        // A spinner's turn at this instant is not the sheet's doing.
        for (const animation of document.getAnimations()) {
          animation.pause();
          animation.currentTime = 0;
        }
        return [...document.querySelectorAll('#shell, #shell *')].map((element) => {
          const style = getComputedStyle(element);
          const properties = [...style].filter((name) => !name.startsWith('--')).sort();
          return `${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''} ${properties
            .map((name) => `${name}:${style.getPropertyValue(name)}`)
            .join(';')}`;
        });
      });
    const expectTheSameWithTheWholeSheet = async (path: string) => {
      await page.goto(path);
      await expect(page.locator('#shell main')).toBeAttached();
      expect(wholeSheet, path).toMatch(/^\/assets\/index-[\w-]+\.css$/);
      const inlined = await page.locator('head style').first().textContent();
      const alone = await computed();
      await page.evaluate(
        (href) =>
          new Promise<void>((resolve, reject) => {
            const link = document.createElement('link');
            link.rel = 'stylesheet';
            link.href = href;
            link.onload = () => resolve();
            link.onerror = () => reject(new Error(`${href} did not load`));
            document.head.append(link);
          }),
        wholeSheet,
      );
      const whole = await computed();
      expect(whole.length, path).toBe(alone.length);
      const differing = alone.flatMap((line, i) => {
        if (line === whole[i]) return [];
        const a = line.split(';');
        const b = (whole[i] ?? '').split(';');
        return [
          `${line.split(' ')[0]}: ${a
            .filter((d, j) => d !== b[j])
            .slice(0, 3)
            .join('; ')} → ${b
            .filter((d, j) => d !== a[j])
            .slice(0, 3)
            .join('; ')}`,
        ];
      });
      expect(differing, path).toEqual([]);
      return inlined?.length ?? 0;
    };

    await bare();
    const welcome = await expectTheSameWithTheWholeSheet('/');
    await page.unroute(painted);
    await signInFromWelcome(page, 'user');
    await expect(page.locator('[data-screen="UserHome"]')).toBeVisible();
    await bare();
    for (const path of ['/home', '/profile', '/my-accreditations']) {
      await expectTheSameWithTheWholeSheet(path);
      // Painted with the person's data: the QR's picture, their profile, their accreditations.
      await expect(page.locator('#shell[data-with-data]')).toBeAttached();
    }
    // The page inlines a part of the sheet, not all of it.
    const sheet = await (await page.request.get(wholeSheet)).text();
    expect(welcome).toBeLessThan(sheet.length / 2);
  });

  test("a signed-in screen opened cold asks for none of the tenant's files, and the app speaks the tenant's words", async ({
    page,
    browser,
  }) => {
    // The demo tenant: its own overrides (Welcome's title and text), and a `user` no other journey changes.
    await page.goto(demoUrl);
    await page.getByTestId('login').click();
    await logIn(page, 'user');
    await expect(page.locator('[data-screen="UserHome"]')).toBeVisible();
    expect(await storedLocale(page)).toBe('es');
    const storageState = await page.context().storageState();
    const tenantFiles = /\/(settings|browsers)\.json$|\/tenants\/[\w-]+\/locales\//;

    for (const [path, signedIn] of [
      ['/home', true],
      ['/', false],
    ] as const) {
      const context = await browser.newContext({
        ...devices['Pixel 7'],
        ...(signedIn ? { storageState } : {}),
      });
      const cold = await context.newPage();
      const requested: string[] = [];
      cold.on('request', (request) => requested.push(new URL(request.url()).pathname));
      const errors: string[] = [];
      cold.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      cold.on('pageerror', (error) => errors.push(error.message));
      await cold.addInitScript(() => {
        const w = window as unknown as { __violations: string[] };
        w.__violations = [];
        document.addEventListener('securitypolicyviolation', (event) =>
          w.__violations.push(`${event.violatedDirective} ${event.blockedURI}`),
        );
      });
      await cold.goto(`${demoUrl}${path}`);
      if (signedIn) {
        await expect(cold.getByTestId('home-accreditations')).toBeVisible();
        await expect(cold.getByTestId('accreditation-qr')).toBeVisible();
      } else {
        // The app's own Welcome (its test ids are never in the paint), with the tenant's overrides.
        await expect(cold.getByTestId('welcome-title')).toHaveText('Bienvenido a Demo Access');
        await expect(cold.locator('#root').getByText('instalaciones de la demostración')).toBeVisible();
        await expect(cold.locator('#shell')).toHaveCount(0);
      }
      await expect(cold).toHaveTitle('Demo Access');
      expect(
        requested.filter((p) => tenantFiles.test(p)),
        path,
      ).toEqual([]);
      expect(await cold.locator('script#portal-boot').count(), path).toBe(1);
      expect(
        await cold.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
        path,
      ).toEqual([]);
      expect(errors, path).toEqual([]);
      await context.close();
    }
  });
});
