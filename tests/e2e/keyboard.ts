import { expect, type Locator, type Page } from '@playwright/test';
import { expectAccessible, type Lang } from './support';

// Keyboard-only steps and the checks of every screen in each language, for the journeys that walk a form or a
// dialog without a mouse (enrolment-screens.spec.ts, dialogs.spec.ts, and the screens' own journeys).

/** What has the focus: null when nothing does (the page itself), with whether a ring shows around it. */
const focusOf = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body || element === document.documentElement)
      return document.hasFocus() ? null : { name: 'outside the page', ring: true, outside: true };
    const label = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40);
    const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${label}"`;
    // A date or time field's last stop is its picker button, inside the browser's own control: the field then no
    // longer matches :focus, and the button draws the browser's ring, which the page can neither style nor read.
    if (element.matches('input:is([type=date],[type=time])') && !element.matches(':focus'))
      return { name: `${name} (its picker button)`, ring: true, outside: false };
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    return {
      name,
      ring: outline || style.boxShadow !== 'none',
      outside: false,
    };
  });

/**
 * The focused element: never the page itself (focus lost), and drawn with a ring a sighted keyboard user sees
 * (an outline, or Tailwind's ring, which is a box shadow). Past the last element Tab goes to the browser's own
 * controls, which is not a loss: the next Tab comes back to the first.
 */
export async function expectFocusVisible(page: Page, trail: string[] = []) {
  const focus = await focusOf(page);
  expect(focus, `the focus is lost (on the page itself) after ${trail.join(' → ')}`).not.toBeNull();
  if (focus) trail.push(focus.name);
  expect(focus?.ring, `no visible focus ring on ${focus?.name}`).toBe(true);
}

/** The focus is on `target` or inside it (a radio group's fieldset: Tab stops at one of its radios). */
const isFocused = (target: Locator) => target.evaluate((element) => element.contains(document.activeElement));

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has the focus, checking at each stop that the focus is
 * visible; fails when it is not reached within `max` presses.
 */
export async function tabTo(page: Page, target: Locator, { back = false, max = 30 } = {}) {
  const trail: string[] = [];
  for (let presses = 0; presses < max; presses++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    await expectFocusVisible(page, trail);
    if (await isFocused(target)) return;
  }
  throw new Error(
    `${target} not reached with ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}: ${trail.join(' → ')}`,
  );
}

/**
 * Tab forward through `targets` in their order: each takes the focus within `between` presses of the one before (a
 * date or time field's parts are stops of their own), so a control out of its place or never reached fails.
 */
export async function tabThrough(page: Page, targets: Locator[], between = 5) {
  for (const target of targets) await tabTo(page, target, { max: between });
}

/** Types `text` into `field`, reached with Tab (or Shift+Tab), in place of what it held. */
export async function typeInto(page: Page, field: Locator, text: string, { back = false, max = 30 } = {}) {
  await tabTo(page, field, { back, max });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/**
 * Types a date (YYYY-MM-DD) or a time (HH:mm) into the focused date or time field, part by part in the order the
 * browser's language draws them (month first in en-US, with AM/PM for a time).
 */
export async function typeDateOrTime(page: Page, value: string) {
  const time = value.includes(':');
  const parts = await page.evaluate(
    (isTime) =>
      new Intl.DateTimeFormat(navigator.language, isTime ? { timeStyle: 'short' } : { dateStyle: 'short' })
        .formatToParts(new Date(2031, 11, 24, 10, 30))
        .map((part) => part.type)
        .filter((type) => type !== 'literal'),
    time,
  );
  const [a = '', b = '', c = ''] = value.split(/[-:]/);
  const hour = Number(a);
  const of: Record<string, string> = time
    ? {
        hour: parts.includes('dayPeriod') ? String(hour % 12 || 12).padStart(2, '0') : a,
        minute: b,
        dayPeriod: hour < 12 ? 'A' : 'P',
      }
    : { year: a, month: b, day: c };
  for (const part of parts) await page.keyboard.type(of[part] ?? '');
}

/** Tab several times inside the open dialog: the focus never leaves it and stays visible. */
export async function expectFocusTrapped(page: Page, dialog: Locator, presses = 6) {
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press(i % 2 === 0 ? 'Tab' : 'Shift+Tab');
    await expectFocusVisible(page);
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
}

/** Opens the dialog with Enter on `opener` (reached with Tab), checks it, closes it with Escape. */
export async function openAndEscape(page: Page, opener: Locator, dialog: Locator, check = true) {
  await tabTo(page, opener);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await expectFocusVisible(page);
  expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  if (check) await expectAccessibleInEachLanguage(page);
  await expectFocusTrapped(page, dialog);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
  await expectFocusVisible(page);
}

/** Opens the dialog again with Enter on its (focused) opener and closes it with `key` on its own `close` button. */
export async function reopenAndClose(
  page: Page,
  opener: Locator,
  dialog: Locator,
  close: Locator,
  key: string,
) {
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await tabTo(page, close);
  await page.keyboard.press(key);
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
}

/** Switches the language with the header's menu and waits for the document to say it. */
export async function switchLanguage(page: Page, lang: Lang) {
  await page.getByTestId('language-menu').selectOption(lang);
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

/**
 * axe and the 360-px measure of the screen in each language, switching in place (the screen keeps its state), and
 * back to the language it started in.
 */
export async function expectAccessibleInEachLanguage(
  page: Page,
  langs: readonly Lang[] = ['es', 'en', 'eu'],
) {
  const start = (await page.locator('html').getAttribute('lang')) as Lang;
  await expectAccessible(page);
  for (const lang of langs.filter((l) => l !== start)) {
    await switchLanguage(page, lang);
    await expectAccessible(page);
  }
  await switchLanguage(page, start);
}

/**
 * From now on, every text the capture view's live region (the polite one a screen reader reads out) takes, in
 * order; installed before the page loads, so that the first state is heard too.
 */
export async function recordCaptureAnnouncements(page: Page) {
  await page.addInitScript(() => {
    const said: string[] = [];
    (window as unknown as { captureAnnouncements: string[] }).captureAnnouncements = said;
    new MutationObserver(() => {
      const text = document.querySelector('[data-slot="capture"] > [aria-live]')?.textContent ?? '';
      if (text && said.at(-1) !== text) said.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return {
    said: () =>
      page.evaluate(() => (window as unknown as { captureAnnouncements: string[] }).captureAnnouncements),
    forget: () =>
      page.evaluate(() => {
        (window as unknown as { captureAnnouncements: string[] }).captureAnnouncements.length = 0;
      }),
  };
}
