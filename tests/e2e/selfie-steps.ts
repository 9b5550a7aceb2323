import { expect, type Page } from '@playwright/test';
import { fixture, type Lang, openSignedIn } from './support';

// The steps of the selfie auto-capture journeys (selfie-capture.spec.ts, selfie-capture-face.spec.ts), also taken by
// npm run screenshots (scripts/screenshots.ts).

/** From Landing (in any language): Start, accept the terms, choose the document, on DocumentScan. */
export async function untilDocumentScan(page: Page, document: 'passport' | 'id_card') {
  await page.getByTestId('enrolment-start').click();
  await page.locator('#accept-terms').check();
  await page.getByTestId('privacy-accept').click();
  await page.locator(`input[value=${document}]`).check();
  await page.getByTestId('documents-continue').click();
  await expect(page).toHaveURL(/\/document-scan$/);
}

/** Signed in (openSignedIn), from Landing to TakeSelfie with a passport page from a file. */
export async function untilTakeSelfie(page: Page, username: string, lang: Lang = 'es') {
  await openSignedIn(page, username, '/landing', { lang });
  await untilDocumentScan(page, 'passport');
  await page.getByTestId('capture-file').setInputFiles(fixture('passport.jpg'));
  await page.getByTestId('capture-use').click();
  await expect(page).toHaveURL(/\/take-selfie$/);
}

/** Every value the capture view's state takes from now on, in order (read in the page, as it changes). */
export async function recordCaptureStates(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { captureStates: string[] }).captureStates = seen;
    const note = () => {
      const state = document.querySelector('[data-capture-state]')?.getAttribute('data-capture-state');
      if (state && seen.at(-1) !== state) seen.push(state);
    };
    note();
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-capture-state'],
    });
  });
  return () => page.evaluate(() => (window as unknown as { captureStates: string[] }).captureStates);
}
