import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, type Page, type Route, test } from '@playwright/test';
import { apiCalls } from '../support/api-calls';
import {
  type Cell,
  FAULTS,
  type Fault,
  RESULTS_DIR,
  type ScreenResult,
  screenTable,
} from '../support/fault-matrix';
import { MATRIX_ROWS, rowDrivers } from '../support/fault-matrix-rows';
import type { Driver } from './fault-matrix/driver';
import { DRIVERS as FIRST_DRIVERS } from './fault-matrix/drivers';
import { ENROLMENT_DRIVERS } from './fault-matrix/enrolment';
import { PERSON_DRIVERS } from './fault-matrix/person';
import { STAFF_DRIVERS } from './fault-matrix/staff';
import { DESK_DRIVERS } from './fault-matrix/staff-desk';
import { type Lang, openAs, t } from './support';

// The polls of a cell look often: a cell waits on the page, not on a server, and each poll is cheap.
const POLL = { intervals: [50, 100, 200] };

// The fault matrix: for each kind of call the portal makes, the call fails in each way a network and a server can
// fail (tests/support/fault-matrix.ts FAULTS), by Playwright interception on one page per screen, and each cell ends
// in a defined state: a message from the catalogue in the person's language (never empty, an id or a raw code), no
// loading indicator nor aria-busy left, the retry the screen offers, and for a form everything typed still there.
// The delay is held, not waited: the loading state is asserted and announced, the page's clock (page.clock) runs
// 10 s on, and then past the client's 30-second timeout. What each screen ended in is written for
// `npm run fault-matrix` (docs/fault-matrix.md) and attached to the report.

const UNKNOWN_CODE = 'fault_matrix_code_nobody_knows';
const UNKNOWN_DETAIL = 'Fault matrix: a conflict the portal has no words for';
const REQUEST_ID = 'fault-matrix-req-1';
const CLIENT_TIMEOUT_MS = 30_000;

const DRIVERS: Driver[] = [
  ...FIRST_DRIVERS,
  ...ENROLMENT_DRIVERS,
  ...PERSON_DRIVERS,
  ...STAFF_DRIVERS,
  ...DESK_DRIVERS,
];

/** Opens the driver's screen: signed in from a stored session, or signed out on a public screen. */
async function openScreen(page: Page, driver: Driver, path: string, lang: Lang) {
  if (driver.user) {
    await openAs(page, driver.user, path, lang, driver.origin);
    return;
  }
  await page.goto('/health');
  await page.evaluate((locale) => localStorage.setItem('portal.locale', locale), lang);
  await page.goto(path);
}

// --- What the person reads --------------------------------------------------------------------------------------

const ANY = '[\\s\\S]+?';
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The index just past the `}` that closes the `{` at `open`. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i + 1;
  }
  return text.length;
}

/**
 * An ICU message as a regular expression source: its words literally, an argument as any text, a plural or a select
 * as the alternatives of its branches (`#` any number), so "Guardado: 3 filas, 1 kB." is read back to its id.
 */
function icuPattern(text: string, plural = false): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '#' && plural) {
      out += ANY;
      i++;
    } else if (c !== '{') {
      out += escapeRe(c);
      i++;
    } else {
      const end = closing(text, i);
      const inner = text.slice(i + 1, end - 1);
      const kind = /^\s*\w+\s*,\s*(plural|select|selectordinal)\s*,/.exec(inner);
      if (!kind) out += ANY;
      else {
        const branches: string[] = [];
        let j = i + 1 + kind[0].length;
        while (j < end - 1) {
          const open = text.indexOf('{', j);
          if (open < 0 || open >= end - 1) break;
          const close = closing(text, open);
          branches.push(icuPattern(text.slice(open + 1, close - 1), kind[1] !== 'select'));
          j = close;
        }
        out += `(?:${branches.join('|')})`;
      }
      i = end;
    }
  }
  return out;
}

/** Every message of a language as a whole-text pattern (arguments match any text, plurals any of their forms). */
function patterns(lang: Lang): [string, RegExp][] {
  const catalogue = JSON.parse(readFileSync(`src/i18n/messages/${lang}.json`, 'utf8')) as Record<
    string,
    string
  >;
  return Object.entries(catalogue)
    .filter(([, text]) => text.trim() !== '')
    .map(([id, text]) => [id, new RegExp(`^${icuPattern(text)}$`)]);
}
const PATTERNS = Object.fromEntries((['es', 'en', 'eu'] as const).map((l) => [l, patterns(l)])) as Record<
  Lang,
  [string, RegExp][]
>;

/** The catalogue id whose words a shown text is, or undefined when the text is no message of that language. */
function messageIdOf(lang: Lang, text: string): string | undefined {
  const shown = text.replace(/\s+/g, ' ').trim();
  const matches = PATTERNS[lang].filter(([, re]) => re.test(shown)).map(([id]) => id);
  // A message with a placeholder matches more than its own words; the one with the most fixed text wins.
  return matches.sort((a, b) => t(lang, b).length - t(lang, a).length)[0];
}

/**
 * Records every notice the portal shows and the address it showed on (they leave after a few seconds, and a
 * sign-out's page loads take them along), from the first script of each page, into the journey's own list.
 */
function recordNotices() {
  const report = (window as unknown as { __faultNotice: (text: string, at: string) => void }).__faultNotice;
  new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      for (const node of mutation.addedNodes) {
        if (!(node instanceof HTMLElement)) continue;
        const notices = node.matches('[data-testid="notice"]')
          ? [node]
          : [...node.querySelectorAll<HTMLElement>('[data-testid="notice"]')];
        for (const notice of notices) {
          void report(notice.querySelector('p')?.textContent ?? '', location.pathname + location.search);
        }
      }
    }
  }).observe(document, { childList: true, subtree: true });
}

interface SeenNotice {
  text: string;
  /** The page's path and query when it showed. */
  at: string;
}
const NOTICES = new WeakMap<Page, SeenNotice[]>();
const noticesWhere = async (page: Page) => (NOTICES.get(page) ?? []).splice(0);
const noticesSeen = async (page: Page) => (await noticesWhere(page)).map((notice) => notice.text);

/**
 * A shown text is words of the catalogue in the person's language: not empty, not an id, not a raw code. Soft, so
 * that one screen's run reports every cell that is wrong, not only the first.
 */
function expectWords(lang: Lang, text: string, where: string): string {
  expect.soft(text.trim(), `${where}: an empty message`).not.toBe('');
  expect.soft(text, `${where}: a raw code`).not.toContain(UNKNOWN_CODE);
  expect.soft(text, `${where}: an id`).not.toMatch(/^\s*[a-z]\w*(\.[\w-]+)+\s*$/);
  const id = messageIdOf(lang, text);
  expect.soft(id, `${where}: «${text}» is no message of the ${lang} catalogue`).toBeDefined();
  return id ?? `NOT A MESSAGE: «${text}»`;
}

// --- The faults ---------------------------------------------------------------------------------------------------

const problem = (status: number, title: string, extra: Record<string, unknown> = {}) => ({
  status,
  contentType: 'application/problem+json',
  headers: { 'X-Request-Id': REQUEST_ID },
  body: JSON.stringify({ status, title, detail: '', request_id: REQUEST_ID, ...extra }),
});

/** Answers a faulted request; 'delay' holds it until `release`. */
function answer(fault: Exclude<Fault, 'delay'>, route: Route) {
  switch (fault) {
    case 'abort':
      return route.abort('failed');
    case '500':
      return route.fulfill(problem(500, 'Internal Server Error', { code: 'internal_error' }));
    case '401':
      return route.fulfill(problem(401, 'Unauthorized'));
    case '403':
      // What the server answers a call without the permission it needs (server/auth/verify.ts).
      return route.fulfill(
        problem(403, 'Forbidden', {
          code: 'forbidden',
          detail: 'You do not have the permission this call needs.',
        }),
      );
    case '404':
      return route.fulfill(problem(404, 'Not Found', { code: 'not_found' }));
    case '409':
      return route.fulfill(problem(409, 'Conflict', { code: UNKNOWN_CODE, detail: UNKNOWN_DETAIL }));
    case 'malformed':
      return route.fulfill({ status: 200, contentType: 'application/json', body: '{"items": [{"id": ' });
  }
}

async function settledScreen(page: Page) {
  await expect(page.getByTestId('loading-bar')).toHaveCount(0);
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
}

/** The next frames drawn: what the answer set off (a notice, a new screen) has been given its turn. */
const twoFrames = (page: Page) =>
  page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );

/**
 * A cell whose answer is the action done (a 2xx to a call that reads no body): the person notices it done in words,
 * and nothing says it failed.
 */
async function doneCell(
  page: Page,
  lang: Lang,
  done: NonNullable<Driver['done']>[Fault] & object,
  answered: () => number,
): Promise<Cell> {
  await expect.poll(answered, POLL).toBeGreaterThan(0);
  const shown = done.shown(page, lang);
  // A sign-out passes through the provider's pages on its way back to the portal.
  await expect(shown.first(), 'the person notices the action done').toBeVisible({ timeout: 30_000 });
  await settledScreen(page);
  await done.check?.(page, lang);
  await twoFrames(page);
  const messages: string[] = [];
  for (const part of await shown.all()) {
    messages.push(expectWords(lang, (await part.textContent()) ?? '', 'the screen'));
  }
  expect(messages.length, 'no words at all').toBeGreaterThan(0);
  const notices = await noticesSeen(page);
  expect(notices, 'a notice that something failed, when it was done').toEqual([]);
  return { messages: [...new Set(messages)], done: done.what, retry: 'no retry: nothing failed' };
}

/**
 * The delay cell of a call with no timeout of its own: the wait shown and announced with its Cancel, still there
 * past the client's usual timeout; Cancel back to the form with nothing lost; then, made again, the answer released
 * and the result shown.
 */
async function heldCell(
  page: Page,
  driver: Driver,
  lang: Lang,
  slow: NonNullable<Driver['held']>,
  held: Route[],
  typed: Record<string, string> | undefined,
): Promise<Cell> {
  const waitShown = async () => {
    const waiting = slow.waiting(page, lang);
    await expect(waiting.first(), 'the wait is shown').toBeVisible();
    for (const part of await waiting.all()) {
      expect(
        await part.evaluate((el) => el.closest('[role="status"], [aria-live]') !== null),
        'the wait is announced',
      ).toBe(true);
    }
    await expect(slow.cancel(page, lang), 'a way out of the wait').toBeEnabled();
  };
  await expect.poll(() => held.length, POLL).toBe(1);
  await waitShown();
  await page.clock.fastForward(10_000);
  await waitShown();
  // Past the client's usual timeout the upload still goes on: nothing gives up by itself.
  await page.clock.fastForward(CLIENT_TIMEOUT_MS);
  await waitShown();
  expect(await noticesSeen(page), 'a notice while the answer is only slow').toEqual([]);
  const messages: string[] = [];
  for (const part of await slow.waiting(page, lang).all()) {
    messages.push(expectWords(lang, (await part.textContent()) ?? '', 'the wait'));
  }
  // Cancel: back to the form as it was.
  await slow.cancel(page, lang).click();
  await driver.ready(page, lang);
  if (driver.form && typed) {
    expect(await driver.form.values(page), 'what was chosen, after Cancel').toEqual(typed);
  }
  expect(await noticesSeen(page), 'a notice after Cancel').toEqual([]);
  // Made again, the answer comes after the wait, and the result shows.
  await driver.trigger(page, lang);
  await expect.poll(() => held.length, POLL).toBe(2);
  await waitShown();
  await page.clock.fastForward(10_000);
  await slow.release(page, held[1] as Route);
  const result = slow.result(page, lang);
  await expect(result.first(), 'the result, once the answer comes').toBeVisible();
  await settledScreen(page);
  for (const part of await result.all()) {
    messages.push(expectWords(lang, (await part.textContent()) ?? '', 'the result'));
  }
  for (const [i, text] of (await noticesSeen(page)).entries()) {
    messages.push(expectWords(lang, text, `notice ${i + 1}`));
  }
  const cell: Cell = {
    messages: [...new Set(messages)],
    retry: `no retry: ${slow.why}`,
    note: 'progress and Cancel shown and announced while waiting, still there 40 s on; Cancel: back to the form, as it was; the answer after the wait: the result',
  };
  if (driver.form && typed) cell.kept = true;
  return cell;
}

/** Runs one cell on the driver's open screen and says what it ended in. */
async function runCell(
  page: Page,
  driver: Driver,
  lang: Lang,
  fault: Fault,
  screenPath: string,
  typed?: Record<string, string>,
) {
  const held: Route[] = [];
  const handler = async (route: Route) => {
    if (route.request().method() !== driver.method) return route.fallback();
    if (fault === 'delay') {
      held.push(route);
      return;
    }
    await answer(fault, route);
    answered++;
  };
  let answered = 0;
  await page.route(driver.url, handler);
  await noticesSeen(page);
  let note: string | undefined;
  try {
    // A form's failure from the cell before stays on screen until the form sends again, which may be a moment after
    // the click (a photo is read first): it is not this cell's answer.
    await driver.failure?.(page, lang).evaluateAll((shown) => {
      for (const element of shown) element.setAttribute('data-fault-stale', '');
    });
    // The cells are about the screen's own calls: a page painted with the person's data (src/app/shell-data.tsx)
    // carries its first calls' answers, so a reload goes without the cookie that brings that paint.
    await page.context().clearCookies({ name: 'portal_paint' });
    await driver.trigger(page, lang);
    const done = driver.done?.[fault];
    if (done) return await doneCell(page, lang, done, () => answered);
    if (fault === 'delay' && driver.held) {
      return await heldCell(page, driver, lang, driver.held, held, typed);
    }
    if (fault === 'delay') {
      await expect.poll(() => held.length, POLL).toBeGreaterThan(0);
      // Waiting is shown and announced: the loading bar in a status region, with its name in the person's words.
      const bar = page.getByRole('status').getByRole('progressbar', { name: t(lang, 'common.loading') });
      await expect(bar).toBeVisible();
      await page.clock.fastForward(10_000);
      await expect(bar).toBeVisible();
      expect(await noticesSeen(page), 'a notice while the answer is only slow').toEqual([]);
      // Past the client's timeout the call gives up by itself.
      await page.clock.fastForward((driver.timeoutMs ?? CLIENT_TIMEOUT_MS) - 10_000 + 1_000);
      note = 'loading shown and announced while waiting';
    }
    if (fault === '401' && driver.user) {
      // A 401 proves the session is gone: the person is signed out, told why, and signs in again (the retry).
      await expect(page).not.toHaveURL((url) => url.pathname + url.search === screenPath);
      const gap = driver.silent?.['401'];
      // The notice says why on the page the sign-out ends on: once it shows, the person has landed (a screen that
      // gives way first, as an enrolment step does to Landing, is only passed through on the way).
      if (!gap) await expect.poll(() => NOTICES.get(page)?.length ?? 0, POLL).toBeGreaterThan(0);
      await expect(page.locator('main[data-route]')).toHaveCount(1);
      await settledScreen(page);
      // The first paint and the app's render may both be there for a moment; they name the same screen.
      const landed = await page.locator('main[data-route]').first().getAttribute('data-route');
      const notices = await noticesWhere(page);
      const messages = notices.map(({ text }, i) => expectWords(lang, text, `notice ${i + 1}`));
      if (gap) expect(messages, `${driver.name} × 401 is listed as silent`).toEqual([]);
      else {
        // One message, on the page the person lands on: none flashes on the screen the sign-out replaces.
        // One message (the toaster may draw the same notice again as the portal boots: recorded twice, seen once).
        expect.soft(new Set(messages).size, 'the person is told once why they were signed out').toBe(1);
        expect
          .soft(
            notices.filter(({ at }) => at === screenPath),
            'a notice on the screen the sign-out replaced',
          )
          .toEqual([]);
      }
      const cell: Cell = {
        messages: [...new Set(messages)],
        retry: 'no retry: signed out, the person signs in again',
        note: gap ? `signed out, on ${landed}; KNOWN GAP: ${gap}` : `signed out, on ${landed}`,
      };
      if (driver.form) {
        // The 401 was one answer: signed in again, the server answers as usual (a form that checks what it restores,
        // as SingleRegistration does, would otherwise be signed out a second time while it is read).
        await page.unroute(driver.url, handler);
        await openScreen(page, driver, screenPath, lang);
        await driver.ready(page, lang);
        const notKept = driver.form.notKeptOnSignOut;
        const compared = (values: Record<string, string> | undefined) =>
          JSON.stringify(Object.entries(values ?? {}).filter(([field]) => !notKept?.fields.includes(field)));
        const kept = compared(await driver.form.values(page)) === compared(typed);
        if (notKept) {
          const asked = notKept.shown(page, lang);
          await expect(asked.first(), 'the screen asks again for what it did not keep').toBeVisible();
          for (const part of await asked.all()) {
            cell.messages.push(expectWords(lang, (await part.textContent()) ?? '', 'the screen'));
          }
          cell.note = `${cell.note}; not kept: ${notKept.fields.join(', ')} (${notKept.why})`;
        }
        if (driver.lostOnSignOut) {
          expect(kept, `${driver.name} × 401 is listed as losing the form`).toBe(false);
          cell.note = `${cell.note}; KNOWN GAP: ${driver.lostOnSignOut}`;
        } else expect.soft(kept, 'what was typed, after signing in again').toBe(true);
        cell.kept = kept;
      }
      return cell;
    }
    const answer = driver.answers?.[fault];
    if (answer) {
      const shown = answer.shown(page, lang);
      await expect(shown.first(), 'the screen says what the answer means').toBeVisible();
      await settledScreen(page);
      const messages: string[] = [];
      for (const part of await shown.all()) {
        messages.push(expectWords(lang, (await part.textContent()) ?? '', 'the screen'));
      }
      for (const [i, text] of (await noticesSeen(page)).entries()) {
        messages.push(expectWords(lang, text, `notice ${i + 1}`));
      }
      const cell: Cell = { messages: [...new Set(messages)], retry: `no retry: ${answer.why}` };
      if (driver.form && typed) {
        expect(await driver.form.values(page), 'what was typed').toEqual(typed);
        cell.kept = true;
      }
      return cell;
    }
    const failure = driver.failure?.(page, lang).and(page.locator(':not([data-fault-stale])'));
    // Something happens: a notice, the screen's own failure, or the screen gives way to another.
    await expect
      .poll(async () => {
        const url = new URL(page.url());
        if (url.pathname + url.search !== screenPath) return 1;
        return (NOTICES.get(page)?.length ?? 0) + (failure && (await failure.first().isVisible()) ? 1 : 0);
      }, POLL)
      .toBeGreaterThan(0);
    await settledScreen(page);
    const messages: string[] = [];
    let left: string | undefined;
    const moved = new URL(page.url());
    if (moved.pathname + moved.search !== screenPath) {
      // The screen gave way to another (a detail that is not there sends the person back to its list).
      left = `back to ${await page.locator('main[data-route]').first().getAttribute('data-route')}`;
    } else if (failure) {
      await expect(failure.first(), 'the screen says what failed').toBeVisible();
      for (const part of await failure.all()) {
        messages.push(expectWords(lang, (await part.textContent()) ?? '', 'the screen'));
      }
    }
    const notices = await noticesSeen(page);
    notices.forEach((text, i) => {
      messages.push(expectWords(lang, text, `notice ${i + 1}`));
    });
    const gap = driver.silent?.[fault];
    if (gap) {
      // A known gap, kept visible: the day the screen says something, this fails and the gap leaves the list.
      expect(messages, `${driver.name} × ${fault} is listed as silent`).toEqual([]);
      note = note ? `${note}; KNOWN GAP: ${gap}` : `KNOWN GAP: ${gap}`;
    } else {
      expect(messages.length, 'no message at all').toBeGreaterThan(0);
    }
    let retry: string;
    const noRetry = driver.noRetry?.[fault];
    if (left) retry = 'no retry: the screen is left';
    else if ('none' in driver.retry) retry = `no retry: ${driver.retry.none}`;
    else if (noRetry) {
      await expect(driver.retry.button(page, lang), 'a retry that cannot help').toHaveCount(0);
      retry = `no retry: ${noRetry}`;
    } else {
      await expect(driver.retry.button(page, lang)).toBeEnabled();
      retry = driver.retry.id;
    }
    const cell: Cell = { messages: [...new Set(messages)], retry };
    if (note || left) cell.note = [note, left].filter(Boolean).join('; ');
    if (driver.form && typed) {
      expect(await driver.form.values(page), 'what was typed').toEqual(typed);
      cell.kept = true;
    }
    return cell;
  } finally {
    await page.unroute(driver.url, handler);
    for (const route of held) await route.abort('failed').catch(() => undefined);
  }
}

// --- The journeys -------------------------------------------------------------------------------------------------

/** The cells run in this order: the 401 signs the person out, so it comes last. */
const ORDER = [
  'abort',
  '500',
  '403',
  '404',
  '409',
  'malformed',
  'delay',
  '401',
] as const satisfies readonly Fault[];

test('every call of src/api has its row in the fault matrix', () => {
  const keys = [...new Set(apiCalls().map((c) => c.key))];
  expect(keys.length).toBeGreaterThan(40);
  expect(
    keys.filter((key) => !(key in MATRIX_ROWS)),
    'calls without a row',
  ).toEqual([]);
  expect(
    Object.keys(MATRIX_ROWS).filter((key) => !keys.includes(key)),
    'rows without a call',
  ).toEqual([]);
  for (const driver of DRIVERS) {
    for (const call of driver.calls) expect(rowDrivers(MATRIX_ROWS[call]), call).toContain(driver.name);
  }
  expect([...ORDER].sort(), 'every fault has its place in the order').toEqual([...FAULTS].sort());
  const named = Object.values(MATRIX_ROWS).flatMap(rowDrivers);
  expect(
    named.filter((name) => !DRIVERS.some((d) => d.name === name)),
    'rows of no journey',
  ).toEqual([]);
});

async function runScreen(page: Page, driver: Driver, lang: Lang, faults: readonly Fault[]) {
  test.setTimeout(180_000);
  await page.clock.install();
  const notices: SeenNotice[] = [];
  NOTICES.set(page, notices);
  // A fault must never break the page itself.
  page.on('pageerror', (error) => expect.soft(error.message, 'an error thrown in the page').toBe(''));
  await page.exposeFunction('__faultNotice', (text: string, at: string) => {
    notices.push({ text, at });
  });
  await page.addInitScript(recordNotices);
  await openScreen(page, driver, driver.path, lang);
  if (driver.enter) await driver.enter(page);
  await driver.ready(page, lang);
  const screenPath = new URL(page.url()).pathname + new URL(page.url()).search;
  let typed: Record<string, string> | undefined;
  if (driver.form) {
    await driver.form.fill(page);
    typed = await driver.form.values(page);
  }
  const result: ScreenResult = {
    driver: driver.name,
    screen: driver.screen ?? driver.name,
    calls: driver.calls,
    lang,
    cells: {},
  };
  // A cell whose answer is the action done, or whose held answer ends in the result, ends the screen: after the rest.
  const endsScreen = (fault: Fault) => !!driver.done?.[fault] || (fault === 'delay' && !!driver.held);
  for (const fault of ORDER.filter((f) => faults.includes(f) && !endsScreen(f))) {
    await test.step(`${driver.name} × ${fault}`, async () => {
      result.cells[fault] = await runCell(page, driver, lang, fault, screenPath, typed);
    });
    // After each failure but the last the screen recovers with its own retry, the call answered for real.
    if (fault !== '401' && !driver.form && !driver.action) {
      const url = new URL(page.url());
      if (url.pathname + url.search !== screenPath) await page.goto(screenPath);
      else await driver.trigger(page, lang);
      await driver.ready(page, lang);
      await settledScreen(page);
    }
  }
  for (const fault of ORDER.filter((f) => faults.includes(f) && endsScreen(f))) {
    await test.step(`${driver.name} × ${fault}`, async () => {
      await openScreen(page, driver, driver.path, lang);
      if (driver.enter) await driver.enter(page);
      await driver.ready(page, lang);
      await settledScreen(page);
      await noticesSeen(page);
      const opened = new URL(page.url());
      if (driver.form) await driver.form.fill(page);
      result.cells[fault] = await runCell(page, driver, lang, fault, opened.pathname + opened.search, typed);
    });
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}/${driver.name}.${lang}.json`, `${JSON.stringify(result, null, 2)}\n`);
  await test.info().attach(`fault matrix: ${driver.name} (${lang})`, {
    body: screenTable(result),
    contentType: 'text/markdown',
  });
}

for (const driver of DRIVERS) {
  // A computer's screen runs in the desktop project alone (playwright.config.ts).
  const where = driver.desktop ? ' @desktop-only' : '';
  test(`fault matrix: ${driver.name} in es, every fault${where}`, async ({ page }) => {
    await runScreen(page, driver, 'es', FAULTS);
  });
}

// The words in the other languages, on a sample: a list and a form, the faults whose messages differ most.
for (const lang of ['en', 'eu'] as const) {
  for (const name of ['MyVisits', 'NewVisit']) {
    const driver = DRIVERS.find((d) => d.name === name) as Driver;
    test(`fault matrix: ${name} in ${lang}, a sample`, async ({ page }) => {
      await runScreen(page, driver, lang, ['abort', '500', '409', 'malformed']);
    });
  }
}
