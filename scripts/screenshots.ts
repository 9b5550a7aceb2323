// npm run screenshots: phone-sized pictures of the main screens for the README (docs/screenshots/), taken from the
// built portal with its seeded demo data, each screen reached as a person reaches it: the enrolment with the fake
// camera filming the specimen card (as the journeys do), the other screens signed in as the demo account whose
// home they are. Starts `npm start` on a new temporary data folder (so the seed is fresh and `newcomer` not yet
// enrolled) unless --url names a running portal.
//
//   npm run screenshots                        # English, into docs/screenshots/<Screen>.png
//   npm run screenshots -- --lang es           # Spanish, into docs/screenshots/es/
//   npm run screenshots -- --url http://localhost:8080 --newcomer newcomer-01
//   SCREENSHOTS_PORT=8097 npm run screenshots  # the port of the portal it starts (default 8096)
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Browser, chromium, devices, expect, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { seededUser } from '../server/db/seed-users';
import { chromiumWithCamera } from '../tests/e2e/camera';
import { untilDocumentScan } from '../tests/e2e/selfie-steps';
import { fixture, type Lang, openSignedIn, t } from '../tests/e2e/support';
import { type ScreenshotScreen, screenshotPath } from './screenshot-list';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.SCREENSHOTS_URL },
    lang: { type: 'string', default: 'en' },
    newcomer: { type: 'string', default: 'newcomer' },
  },
});
const lang = args.lang as Lang;
if (!['es', 'en', 'eu'].includes(lang)) throw new Error(`--lang: es, en or eu, not ${args.lang}`);

// The phone: 390 × 844 CSS pixels (a common phone's size, between the 360 the portal is made for and the
// journeys' Pixel 7) drawn at twice the density, then scaled down to 390 pixels wide: sharp text at a README
// picture's size, and small files.
const PHONE = { ...devices['Pixel 7'], viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 };
const WIDTH = 390;
/** A picture over this many bytes is said, so that the README stays light. */
const BUDGET = 70 * 1024;
const TIME_ZONE = 'Europe/Madrid';

/**
 * Today in Madrid at 10:30: the server's visit clock (CLOCK_AT) starts there, so the seeded week of visits has the
 * same statuses and hours at whatever time the pictures are taken (only the dates follow the day).
 */
function clockAt(now = new Date()) {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(now);
  const offset =
    new Intl.DateTimeFormat('en', { timeZone: TIME_ZONE, timeZoneName: 'longOffset' })
      .formatToParts(now)
      .find((part) => part.type === 'timeZoneName')
      ?.value.replace('GMT', '') || '+00:00';
  return `${day}T10:30:00${offset}`;
}

/** `npm start` on its own port and a new data folder, resolved once /health says it is ready. */
async function startPortal(port: number) {
  const folder = mkdtempSync(join(tmpdir(), 'portal-screenshots-'));
  // NODE_ENV stays unset: production would seed nothing, and development would build React's development bundle.
  const { NODE_ENV: _, ...env } = process.env;
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...env,
      PORT: String(port),
      DATA_DIR: join(folder, 'data'),
      LOG_LEVEL: 'warn',
      CLOCK_AT: clockAt(),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the portal ended while starting (exit ${code})`))),
  );
  const stop = async () => {
    if (child.exitCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await Promise.race([untilHealthy(port, child), exited]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin: `http://localhost:${port}`, stop };
}

async function untilHealthy(port: number, child: ChildProcess) {
  // A hang guard: building the SPA and loading the engine's models take a few minutes at most on a busy machine.
  const deadline = Date.now() + 10 * 60_000;
  while (child.exitCode === null && Date.now() < deadline) {
    const healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`the portal on port ${port} did not become ready`);
}

/** The screen is drawn: its heading shows, no spinner turns, pictures and fonts are loaded. */
async function drawn(page: Page, screen: ScreenshotScreen) {
  await expect(page.locator(`main[data-route="${screen}"]`)).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('h1').first()).toBeVisible();
  await expect(page.locator('.animate-spin:visible')).toHaveCount(0, { timeout: 30_000 });
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all(
      [...document.images].map((image) =>
        image.complete ? undefined : new Promise((resolve) => image.addEventListener('load', resolve)),
      ),
    );
  });
}

/** The viewport of the page as a PNG of WIDTH pixels with a palette (a screen has few colours). */
async function shoot(page: Page, screen: ScreenshotScreen) {
  await drawn(page, screen);
  const taken = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  const path = screenshotPath(screen, lang);
  mkdirSync(dirname(path), { recursive: true });
  const { size } = await sharp(taken)
    .resize({ width: WIDTH })
    .png({ palette: true, quality: 85, effort: 10, compressionLevel: 9 })
    .toFile(path);
  console.log(`${path} ${(size / 1024).toFixed(0)} KB${size > BUDGET ? ' (over the 70 KB budget)' : ''}`);
}

/** A phone signed in as a seeded account, on `path` of the portal. */
async function phoneAs(browser: Browser, origin: string, username: string, path: string) {
  const context = await browser.newContext({
    ...PHONE,
    locale: lang === 'en' ? 'en-GB' : lang,
    timezoneId: TIME_ZONE,
    permissions: ['camera'],
  });
  const page = await context.newPage();
  // A refused call often shows as an error state in the picture: say which, to find why (not a 404, which the
  // enrolment's polls of a judgement not yet made answer).
  page.on('response', (res) => {
    if (res.status() >= 400 && res.status() !== 404 && new URL(res.url()).pathname.startsWith('/api/'))
      console.warn(`${username}: ${res.request().method()} ${res.url()} answered ${res.status()}`);
  });
  await openSignedIn(page, username, path, { lang, origin });
  return page;
}

/** Landing to FinishRegisterWithQr, an ID card filmed front and back and a selfie from a file. */
async function enrolment(browser: Browser, origin: string) {
  const page = await phoneAs(browser, origin, args.newcomer, '/landing');
  await shoot(page, 'Landing');
  await untilDocumentScan(page, 'id_card');
  // The camera's picture once it plays (the view may take the photo by itself as soon as frames are sharp).
  await expect(page.locator('video')).toBeVisible({ timeout: 15_000 });
  await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2);
  await shoot(page, 'DocumentScan');
  for (const side of ['front', 'back']) {
    const take = page.getByTestId('capture-take');
    const use = page.getByTestId('capture-use');
    await expect(take.or(use), `the ${side} of the card`).toBeVisible({ timeout: 15_000 });
    if (await take.isVisible()) await take.click({ timeout: 2_000 }).catch(() => undefined);
    await use.click();
  }
  await expect(page).toHaveURL(/\/take-selfie$/, { timeout: 30_000 });
  // A file: the fake camera would film the card again, not a face.
  await page.getByTestId('capture-file').setInputFiles(fixture('selfie.jpg'));
  await page.getByTestId('capture-use').click();
  await expect(page).toHaveURL(/\/review-register$/, { timeout: 30_000 });
  await expect(page.locator('form input').first()).toBeVisible({ timeout: 60_000 });
  await shoot(page, 'ReviewRegister');
  // What the engine could not read is typed, as the person would (a document valid for years to come).
  const typed: [string, string][] = [
    ['first_name', 'Carmen'],
    ['last_name', 'Española Española'],
    ['birth_date', '01/01/1980'],
    ['expiry_date', '01/01/2031'],
    ['document_number', `SHOT${Date.now().toString(36).toUpperCase()}`],
  ];
  for (const [name, value] of typed) {
    const label = t(lang, `review.field.${name}`).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const field = page.getByLabel(new RegExp(`^${label}`));
    if ((await field.inputValue()) === '') await field.fill(value);
  }
  await page.getByTestId('review-confirm').click();
  await expect(page).toHaveURL(/\/register-form$/, { timeout: 30_000 });
  await page.getByTestId('form-submit').click();
  await expect(page).toHaveURL(/\/finish-register\/[\w-]+\/[\w-]+$/, { timeout: 60_000 });
  await expect(page.getByRole('img', { name: /QR/i })).toBeVisible();
  await shoot(page, 'FinishRegisterWithQr');
  await page.context().close();
}

/** A phone signed in as `username` on the list at `path`, photographed once its first row shows. */
async function list(
  browser: Browser,
  origin: string,
  [username, path, screen]: [string, string, ScreenshotScreen],
  rows: (page: Page) => Locator,
) {
  const page = await phoneAs(browser, origin, username, path);
  await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });
  await shoot(page, screen);
  return page;
}

async function userHome(browser: Browser, origin: string) {
  const page = await phoneAs(browser, origin, 'user', '/home');
  await shoot(page, 'UserHome');
  await page.context().close();
}

/** MyVisits, then the detail of its first visit (today's). */
async function visits(browser: Browser, origin: string) {
  const row = (page: Page) => page.getByTestId('visit-row');
  const page = await list(browser, origin, ['visitor', '/my-visits', 'MyVisits'], row);
  await row(page).first().getByRole('link').first().click();
  await expect(page.getByTestId('visit-status')).toBeVisible({ timeout: 30_000 });
  await shoot(page, 'VisitDetail');
  await page.context().close();
}

/** PortalUsers as the user manager, then one person's detail. */
async function users(browser: Browser, origin: string) {
  const rows = (page: Page) => page.getByTestId('users').locator('tbody tr');
  const page = await list(browser, origin, ['usermanager', '/users', 'PortalUsers'], rows);
  // One seeded person, found by email as staff would: the list's order among people of the same surname follows
  // their random ids, the detail of one person does not.
  const person = seededUser('gambling', 10);
  await page.getByTestId('users-search').fill(person.email);
  await page.getByTestId('users-search').press('Enter');
  await expect(rows(page)).toHaveCount(1);
  await page.getByRole('link', { name: `${person.last_name}, ${person.first_name}` }).click();
  await expect(page.getByTestId('user-personal')).toBeVisible({ timeout: 30_000 });
  await shoot(page, 'PortalUserDetail');
  await page.context().close();
}

async function audit(browser: Browser, origin: string) {
  const rows = (page: Page) => page.getByTestId('audit-row');
  const page = await list(browser, origin, ['auditor', '/audit-accesses', 'AuditAccesses'], rows);
  await page.context().close();
}

const portal = args.url
  ? { origin: args.url.replace(/\/$/, ''), stop: async () => undefined }
  : await startPortal(Number(process.env.SCREENSHOTS_PORT ?? 8096));
try {
  const browser = await chromium.launch(chromiumWithCamera('document.y4m'));
  try {
    for (const take of [enrolment, userHome, visits, users, audit]) await take(browser, portal.origin);
  } finally {
    await browser.close();
  }
} finally {
  await portal.stop();
}
