import { expect, type Locator, type Page, type Route } from '@playwright/test';
import sharp from 'sharp';
import type { Fault } from '../../support/fault-matrix';
import { type Lang, t } from '../support';

// What a journey of the fault matrix (tests/e2e/fault-matrix.spec.ts) knows of its screen: how to open it, the call
// it puts faults on, how to make that call again, and what the screen shows when it fails. The drivers live by area
// beside this file (drivers.ts, enrolment.ts, person.ts, staff.ts); the spec runs every one of them.

export interface Driver {
  name: string;
  /** The spec's screen, when the journey is one of several on it (its name otherwise). */
  screen?: string;
  /** The matrix keys (method + path template) this screen's journey puts faults on. */
  calls: string[];
  /** A computer's screen: the journey runs in the desktop project alone (its title says @desktop-only). */
  desktop?: true;
  /** The person signed in, or none: a public screen, whose call goes without a token (a 401 is one more failure). */
  user?: string;
  /**
   * The portal of another tenant the main server serves (`http://<tenant>.localhost:<port>`), for a screen only its
   * settings show; the person signs in there through the provider's page. The main tenant's otherwise.
   */
  origin?: string;
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
  /**
   * Cells where the fault's answer is the action done: a 2xx to a call that reads no body is the server having done
   * it, whatever follows the status. What the person notices then (`shown`, each element one message), what else
   * proves it (`check`), and the words the table says it in (`what`). Such a cell ends the screen (signed out, a
   * final screen), so the runner drives it after the others, on the screen opened anew.
   */
  done?: Partial<
    Record<
      Fault,
      {
        shown: (page: Page, lang: Lang) => Locator;
        check?: (page: Page, lang: Lang) => Promise<void>;
        what: string;
      }
    >
  >;
  /**
   * A call with no timeout of its own (an upload lasts what the line needs): its delay cell holds the answer and
   * checks that the wait is shown and announced (`waiting`, each element one message) with a way out (`cancel`),
   * past the client's usual 30 s; Cancel goes back to the form with nothing lost; then, the call made again and
   * its held answer released (`release`), the result shows (`result`). Driven after the others, on the screen
   * opened anew (the result replaces the form).
   */
  held?: {
    waiting: (page: Page, lang: Lang) => Locator;
    cancel: (page: Page, lang: Lang) => Locator;
    release: (page: Page, route: Route) => Promise<void>;
    result: (page: Page, lang: Lang) => Locator;
    why: string;
  };
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
  form?: {
    fill(page: Page): Promise<void>;
    values(page: Page): Promise<Record<string, string>>;
    /**
     * Values a sign-out rightly does not keep (a photo of a face is not stored beyond the page): their fields, left
     * out of the comparison after signing in again, and the screen's words that ask for them again.
     */
    notKeptOnSignOut?: { fields: string[]; shown: (page: Page, lang: Lang) => Locator; why: string };
  };
}

/** A real JPEG photo-like image of more than 5 kB (what SingleRegistration takes). */
export async function facePhoto(): Promise<Buffer> {
  const noise = Buffer.alloc(240 * 320 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
  return sharp(noise, { raw: { width: 240, height: 320, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export const retryButton = (id: string) => ({
  id,
  button: (page: Page, lang: Lang) => page.getByRole('button', { name: t(lang, id), exact: true }),
});

/**
 * A screen that loads what it shows (a list, components/list-status.tsx, or a detail): on a failure it says so in
 * its own words with a retry, which makes the call again.
 */
export function loadDriver(
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
/** Every named control of a form as the person left it: text, the chosen radio, ticks, the chosen files' names. */
export const formValues = (form: Locator) =>
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
