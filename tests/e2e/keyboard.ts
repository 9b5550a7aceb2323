import { expect, type Locator, type Page } from '@playwright/test';
import { expectAccessible, type Lang } from './support';

// Keyboard-only steps and the checks of every screen in each language, for the journeys that walk a form or a
// dialog without a mouse (enrolment-screens.spec.ts, dialogs.spec.ts).

/** What has the focus: null when nothing does (the page itself), with whether a ring shows around it. */
const focusOf = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body || element === document.documentElement)
      return document.hasFocus() ? null : { name: 'outside the page', ring: true, outside: true };
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    const label = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40);
    return {
      name: `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${label}"`,
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
