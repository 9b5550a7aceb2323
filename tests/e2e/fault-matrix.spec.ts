import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, type Locator, type Page, type Route, test } from '@playwright/test';
import sharp from 'sharp';
import { apiCalls } from '../support/api-calls';
import {
  type Cell,
  FAULTS,
  type Fault,
  RESULTS_DIR,
  type ScreenResult,
  screenTable,
} from '../support/fault-matrix';
import { MATRIX_ROWS } from '../support/fault-matrix-rows';
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

interface Driver {
  name: string;
  /** The spec's screen, when the journey is one of several on it (its name otherwise). */
  screen?: string;
  /** The matrix keys (method + path template) this screen's journey puts faults on. */
  calls: string[];
  /** The person signed in, or none: a public screen, whose call goes without a token (a 401 is one more failure). */
  user?: string;
  path: string;
  /** The faulted request: its URL (the API's, never the page's) and method. */
  url: RegExp;
  method: string;
  /** From `path`, the way to the screen when it has no address of its own to open (a detail behind its list). */
  enter?: (page: Page) => Promise<void>;
  /** Waits for the screen ready with the call answered. */
  ready(page: Page, lang: Lang): Promise<void>;
  /** Makes the call again: the screen's retry when it shows one, else what the person would do. */
  trigger(page: Page, lang: Lang): Promise<void>;
  /** The retry the screen offers after a failure (its button's message id), or why there is none. */
  retry: { id: string; button: (page: Page, lang: Lang) => Locator } | { none: string };
  /** The screen's own failure message (each element one message), when it shows one beside the notice. */
  failure?: (page: Page, lang: Lang) => Locator;
  /** Cells where the screen rightly offers no retry (fault → why retrying cannot help). */
  noRetry?: Partial<Record<Fault, string>>;
  /** Cells known to end without a word (fault → what happens), printed in the matrix until they are fixed. */
  silent?: Partial<Record<Fault, string>>;
  /** Cells not driven yet (fault → why), printed in the matrix as such. */
  undriven?: Partial<Record<Fault, string>>;
  /**
   * Cells where the fault is an answer the screen has words for, not a failure (a 404 that means "none yet", a 200
   * to a call that reads no body): what the screen shows then, and why there is nothing to retry.
   */
  answers?: Partial<Record<Fault, { shown: (page: Page, lang: Lang) => Locator; why: string }>>;
  /**
   * A form whose values a sign-out loses, kept visible as a known gap (what is lost) until the screen keeps them:
   * the day it does, the cell fails and the gap leaves the list.
   */
  lostOnSignOut?: string;
  /**
   * An action, not a load: it is not made again with the real server after each cell (that would do it), the next
   * cell's trigger is the retry.
   */
  action?: true;
  /** The call's own timeout when it is not the client's 30 s (a long download). */
  timeoutMs?: number;
  /** A form: fills it before the first cell, and reads it back after each. */
  form?: { fill(page: Page): Promise<void>; values(page: Page): Promise<Record<string, string>> };
}

/** A real JPEG photo-like image of more than 5 kB (what SingleRegistration takes). */
async function facePhoto(): Promise<Buffer> {
  const noise = Buffer.alloc(240 * 320 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
  return sharp(noise, { raw: { width: 240, height: 320, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

const retryButton = (id: string) => ({
  id,
  button: (page: Page, lang: Lang) => page.getByRole('button', { name: t(lang, id), exact: true }),
});

/**
 * A screen that loads what it shows (a list, components/list-status.tsx, or a detail): on a failure it says so in
 * its own words with a retry, which makes the call again.
 */
function loadDriver(
  name: string,
  options: {
    call: string;
    user: string;
    path: string;
    enter?: (page: Page) => Promise<void>;
    url: RegExp;
    ready: string;
    failedId: string;
    retryId: string;
    /** The screen's failure, when it says more than its failedId message. */
    failure?: Driver['failure'];
    noRetry?: Driver['noRetry'];
  },
): Driver {
  const retry = retryButton(options.retryId);
  const driver: Driver = {
    name,
    calls: [options.call],
    user: options.user,
    path: options.path,
    url: options.url,
    method: 'GET',
    ready: async (page) => {
      await expect(page.locator(options.ready).first()).toBeVisible();
    },
    trigger: async (page, lang) => {
      const again = retry.button(page, lang);
      if (await again.isVisible()) await again.click();
      else await page.reload();
    },
    retry,
    failure:
      options.failure ??
      ((page, lang) => page.locator('main').getByText(t(lang, options.failedId), { exact: true })),
  };
  if (options.enter) driver.enter = options.enter;
  if (options.noRetry) driver.noRetry = options.noRetry;
  return driver;
}

const DRIVERS: Driver[] = [
  loadDriver('MyVisits', {
    call: 'GET /public/visits',
    user: 'visitor',
    path: '/my-visits',
    url: /\/api\/public\/visits(\?|$)/,
    ready: '[data-testid="visit-row"], [data-testid="visits-empty"]',
    failedId: 'visits.listFailed',
    retryId: 'visits.retry',
  }),
  loadDriver('PortalUsers', {
    call: 'GET /public/users',
    user: 'usermanager',
    path: '/users',
    url: /\/api\/public\/users(\?|$)/,
    ready: '[data-testid="users"] tbody tr, [data-testid="users-empty"]',
    failedId: 'users.failed',
    retryId: 'accounts.retry',
  }),
  loadDriver('PortalAccounts', {
    call: 'GET /public/accounts',
    user: 'accountmanager',
    path: '/accounts',
    url: /\/api\/public\/accounts(\?|$)/,
    ready: '[data-testid="accounts"] li, [data-testid="accounts-empty"]',
    failedId: 'accounts.failed',
    retryId: 'accounts.retry',
  }),
  loadDriver('AuditAccesses', {
    call: 'GET /public/audit_accesses',
    user: 'admin',
    path: '/audit-accesses',
    url: /\/api\/public\/audit_accesses(\?|$)/,
    ready: '[data-testid="audit-accesses"] li, [data-testid="audit-empty"]',
    failedId: 'audit.listFailed',
    retryId: 'audit.retry',
  }),
  loadDriver('VisitDetail', {
    call: 'GET /public/visits/{id}',
    user: 'visitor',
    path: '/my-visits',
    enter: async (page) => {
      await page.getByTestId('visit-row').first().getByRole('link').first().click();
      await expect(page).toHaveURL(/\/visit-detail\?data=/);
    },
    url: /\/api\/public\/visits\/[\w-]+$/,
    ready: '[data-testid="visit-info"] [data-testid="visit-status"]',
    failedId: 'visits.loadFailed',
    retryId: 'visits.retry',
    // "Could not load the visit", and what the server said when the API client left it to the screen.
    failure: (page) => page.locator('[data-testid="visit-load-failure"] p'),
    noRetry: { '404': 'the visit is not there, loading it again cannot find it; the way back is the list' },
  }),
  loadDriver('PortalUserDetail', {
    call: 'GET /public/users/{id}',
    user: 'usermanager',
    path: '/users',
    enter: async (page) => {
      await page.getByTestId('users').locator('tbody tr a').first().click();
      await expect(page).toHaveURL(/\/user-detail\/[\w-]+$/);
    },
    url: /\/api\/public\/users\/[\w-]+$/,
    ready: '[data-testid="user-personal"]',
    failedId: 'userDetail.failed',
    retryId: 'accounts.retry',
  }),
  loadDriver('UserProfile', {
    call: 'GET /internal/accounts/{accountId}/profile',
    // Read only: the account journeys change members 1 to 8.
    user: 'member-09',
    path: '/profile',
    url: /\/api\/internal\/accounts\/[\w-]+\/profile$/,
    ready: '[data-testid="profile-personal-data"]',
    failedId: 'profile.failed',
    retryId: 'profile.retry',
  }),
  {
    ...loadDriver('UserHome', {
      call: 'GET /public/credentials/{userId}',
      user: 'member-09',
      path: '/home',
      url: /\/api\/public\/credentials\/[\w-]+$/,
      ready: '[data-testid="home-qr-detail"], [data-testid="home-qr-none"], [data-testid="home-qr-unusable"]',
      failedId: 'accreditation.retry',
      retryId: 'accreditation.retry',
      // What went wrong, in the words of the accreditation's problems (AccreditationProblem).
      failure: (page) => page.locator('main [role="alert"] > p'),
    }),
    answers: {
      '404': {
        shown: (page) => page.getByTestId('home-qr-none'),
        why: 'a 404 says the person holds no credential yet, and the home says so',
      },
    },
  },
  {
    ...loadDriver('NewVisitLocations', {
      call: 'GET /internal/facilities',
      user: 'visitor',
      path: '/new-visit',
      url: /\/api\/internal\/facilities(\?|$)/,
      ready: 'select[name="location"]',
      failedId: 'newVisit.locationsFailed',
      retryId: 'newVisit.locationsRetry',
      failure: (page) => page.locator('[data-testid="new-visit-locations-failed"] > p'),
    }),
    screen: 'NewVisit',
  },
  {
    name: 'ResetCredentials',
    calls: ['POST /public/credential-resets'],
    // Asked for signed out: the call carries no token, and a 401 is one more refusal, not a sign-out.
    path: '/reset-credentials',
    url: /\/api\/public\/credential-resets(\?|$)/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('reset-credentials-email')).toBeVisible();
    },
    trigger: async (page) => {
      await page.getByTestId('reset-credentials-submit').click();
    },
    retry: { id: 'resetCredentials.submit', button: (page) => page.getByTestId('reset-credentials-submit') },
    answers: {
      malformed: {
        shown: (page) => page.getByTestId('reset-credentials-sent'),
        why: 'the call reads no body: a 200 is the mail sent, whatever follows it',
      },
    },
    failure: (page) => page.locator('main [role="alert"] > p'),
    form: {
      fill: async (page) => {
        await page.getByTestId('reset-credentials-email').fill('fault.matrix@gambling.example');
      },
      values: (page) => formValues(page.getByTestId('reset-credentials-form')),
    },
  },
  {
    name: 'SingleRegistration',
    calls: ['POST /public/singles'],
    user: 'usermanager',
    path: '/new-user-credential',
    url: /\/api\/public\/singles(\?|$)/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('single-form')).toBeVisible();
    },
    trigger: async (page) => {
      await page.getByTestId('single-form').locator('button[type="submit"]').click();
    },
    retry: {
      id: 'singles.submit',
      button: (page, lang) => page.getByRole('button', { name: t(lang, 'singles.submit'), exact: true }),
    },
    failure: (page) => page.locator('main [role="alert"] > p'),
    form: {
      fill: async (page) => {
        const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
        await page.locator('input[name="mode"][value="image"]').check();
        await page.locator('[name="username"]').fill(`fault.${id}`);
        await page.locator('[name="email"]').fill(`fault-${id}@example.test`);
        await page.locator('[name="acs_id"]').fill(`ACS-FAULT-${id}`.toUpperCase());
        await page.locator('#single-image').setInputFiles({
          name: 'face.jpg',
          mimeType: 'image/jpeg',
          buffer: await facePhoto(),
        });
      },
      values: (page) => formValues(page.getByTestId('single-form')),
    },
    lostOnSignOut:
      'signed in again, the form is empty: the fields and the photo are not kept across a sign-out',
  },
  {
    name: 'AuditExport',
    screen: 'AuditAccesses',
    calls: ['POST /public/audit_accesses'],
    user: 'admin',
    path: '/audit-accesses',
    url: /\/api\/public\/audit_accesses(\?|$)/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('audit-export')).toBeEnabled();
    },
    trigger: async (page) => {
      await page.getByTestId('audit-export').click();
    },
    // Exporting again is the retry: the same button, the same filter.
    retry: { id: 'audit.export', button: (page) => page.getByTestId('audit-export') },
    failure: (page) => page.locator('[data-testid="audit-export-failed"] > p'),
    answers: {
      malformed: {
        shown: (page) => page.getByTestId('audit-export-done'),
        why: 'the export is a csv file, not JSON: a 200 with any body is a file saved',
      },
    },
    // A large export takes longer to start than a page (src/api/audit.ts).
    timeoutMs: 120_000,
  },
  {
    name: 'ActivateUsers',
    calls: ['POST /public/users/activation'],
    user: 'assistant',
    path: '/activate-users',
    url: /\/api\/public\/users\/activation(\?|$)/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('activate-submit')).toBeEnabled();
    },
    trigger: async (page) => {
      await page.getByTestId('activate-submit').click();
    },
    retry: { id: 'activateUsers.submit', button: (page) => page.getByTestId('activate-submit') },
    failure: (page) => page.locator('[data-testid="activate-error"] > p'),
    form: {
      fill: async (page) => {
        await page.getByTestId('activate-region').selectOption({ index: 0 });
        await page.getByTestId('activate-id-number').fill('12345678Z');
      },
      values: async (page) => ({
        region: await page.getByTestId('activate-region').inputValue(),
        idNumber: await page.getByTestId('activate-id-number').inputValue(),
      }),
    },
  },
  {
    name: 'VisitCancel',
    screen: 'VisitDetail',
    calls: ['POST /public/visits/{id}/cancellation'],
    user: 'visitor',
    path: '/my-visits',
    // A visit still to be answered: one the visitor may cancel.
    enter: async (page) => {
      await page
        .getByTestId('visit-row')
        .filter({ has: page.locator('[data-testid="visit-status"][data-status="requested"]') })
        .first()
        .getByRole('link')
        .first()
        .click();
      await expect(page).toHaveURL(/\/visit-detail\?data=/);
    },
    url: /\/api\/public\/visits\/[\w-]+\/cancellation$/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('visit-cancel')).toBeEnabled();
    },
    // Cancelling asks first; after a failure the screen offers to load the visit again, and then Cancel.
    trigger: async (page, lang) => {
      const reload = page.getByRole('button', { name: t(lang, 'visits.reload'), exact: true });
      if (await reload.isVisible()) await reload.click();
      await page.getByTestId('visit-cancel').click();
      await page.getByTestId('visit-cancel-confirm').click();
    },
    retry: {
      id: 'visits.reload',
      button: (page, lang) => page.getByRole('button', { name: t(lang, 'visits.reload'), exact: true }),
    },
    failure: (page) => page.locator('[data-testid="visit-refusal"] p'),
    action: true,
  },
  {
    name: 'DeleteAccount',
    calls: ['DELETE /internal/accounts/{accountId}'],
    // Every answer here is the interception's: nobody is deleted. Read only: the account journeys change 1 to 8.
    user: 'member-09',
    path: '/delete-account',
    url: /\/api\/internal\/accounts\/[\w-]+$/,
    method: 'DELETE',
    ready: async (page) => {
      await expect(page.getByTestId('delete-account-submit')).toBeEnabled();
    },
    // Deleting asks first, in a dialog.
    trigger: async (page) => {
      await page.getByTestId('delete-account-submit').click();
      await page.getByTestId('delete-account-confirm-yes').click();
    },
    retry: { id: 'deleteAccount.submit', button: (page) => page.getByTestId('delete-account-submit') },
    failure: (page) => page.locator('main [role="alert"] > p'),
    undriven: {
      malformed:
        'the call reads no body: a 200 is the account deleted and the person signed out, whatever follows it',
    },
    form: {
      fill: async (page) => {
        await page.getByTestId('delete-account-id-number').fill('12345678Z');
      },
      values: async (page) => ({ idNumber: await page.getByTestId('delete-account-id-number').inputValue() }),
    },
  },
  {
    name: 'NewVisit',
    calls: ['POST /public/visits'],
    user: 'visitor',
    path: '/new-visit',
    url: /\/api\/public\/visits(\?|$)/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.locator('select[name="location"]')).toBeVisible();
    },
    trigger: async (page) => {
      await page.getByTestId('new-visit-submit').click();
    },
    // Sending again is the retry: the same button, with the form as it was.
    retry: {
      id: 'newVisit.submit',
      button: (page) => page.getByTestId('new-visit-submit'),
    },
    // "Could not send", and the words of a refusal the API client left to the form.
    failure: (page) => page.locator('main [role="alert"] p'),
    form: {
      fill: async (page) => {
        await page.locator('select[name="location"]').selectOption({ index: 1 });
        const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
        await page.locator('[name="host"]').fill('assistant@gambling.example');
        await page.locator('[name="date"]').fill(tomorrow);
        await page.locator('[name="startAt"]').fill('10:00');
        await page.locator('[name="endAt"]').fill('11:00');
        await page.locator('[name="title"]').fill('Fault matrix visit');
        const plan = page.locator('input[name="planRead"]');
        if ((await plan.count()) > 0) await plan.setChecked(true);
      },
      values: (page) =>
        page
          .locator('[data-testid="new-visit-form"]')
          .evaluate((form) =>
            Object.fromEntries(
              [
                ...form.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[name], select[name]'),
              ].map((el) => [
                el.name,
                el instanceof HTMLInputElement && el.type === 'checkbox' ? String(el.checked) : el.value,
              ]),
            ),
          ),
    },
  },
];

/** Opens the driver's screen: signed in from a stored session, or signed out on a public screen. */
async function openScreen(page: Page, driver: Driver, path: string, lang: Lang) {
  if (driver.user) {
    await openAs(page, driver.user, path, lang);
    return;
  }
  await page.goto('/health');
  await page.evaluate((locale) => localStorage.setItem('portal.locale', locale), lang);
  await page.goto(path);
}

/** Every named control of a form as the person left it: text, the chosen radio, ticks, the chosen files' names. */
const formValues = (form: Locator) =>
  form.evaluate((el) => {
    const values: Record<string, string> = {};
    for (const control of el.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(
      'input[name], select[name], textarea[name]',
    )) {
      if (control instanceof HTMLInputElement && control.type === 'radio') {
        if (control.checked) values[control.name] = control.value;
      } else if (control instanceof HTMLInputElement && control.type === 'checkbox') {
        values[control.name] = String(control.checked);
      } else if (control instanceof HTMLInputElement && control.type === 'file') {
        values[control.name] = [...(control.files ?? [])]
          .map((file) => `${file.name} ${file.size}`)
          .join(', ');
      } else values[control.name] = control.value;
    }
    return values;
  });

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
    return answer(fault, route);
  };
  await page.route(driver.url, handler);
  await noticesSeen(page);
  let note: string | undefined;
  try {
    await driver.trigger(page, lang);
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
      await expect(page.locator('main[data-route]')).toHaveCount(1);
      await settledScreen(page);
      // The first paint and the app's render may both be there for a moment; they name the same screen.
      const landed = await page.locator('main[data-route]').first().getAttribute('data-route');
      const gap = driver.silent?.['401'];
      if (!gap) await expect.poll(() => NOTICES.get(page)?.length ?? 0, POLL).toBeGreaterThan(0);
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
        await openScreen(page, driver, screenPath, lang);
        await driver.ready(page, lang);
        const kept = JSON.stringify(await driver.form.values(page)) === JSON.stringify(typed);
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
    const failure = driver.failure?.(page, lang);
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
    for (const call of driver.calls) expect(MATRIX_ROWS[call], call).toBe(`driver:${driver.name}`);
  }
  expect([...ORDER].sort(), 'every fault has its place in the order').toEqual([...FAULTS].sort());
  const named = Object.values(MATRIX_ROWS).filter((row) => row.startsWith('driver:'));
  expect(
    named.filter((row) => !DRIVERS.some((d) => row === `driver:${d.name}`)),
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
  for (const fault of ORDER.filter((f) => faults.includes(f))) {
    const why = driver.undriven?.[fault];
    if (why) {
      result.cells[fault] = { messages: [], retry: 'not driven', note: `NOT DRIVEN: ${why}` };
      continue;
    }
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
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}/${driver.name}.${lang}.json`, `${JSON.stringify(result, null, 2)}\n`);
  await test.info().attach(`fault matrix: ${driver.name} (${lang})`, {
    body: screenTable(result),
    contentType: 'text/markdown',
  });
}

for (const driver of DRIVERS) {
  test(`fault matrix: ${driver.name} in es, every fault`, async ({ page }) => {
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
