import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { expectAccessible, fixture, logIn, newcomer, signInFromWelcome, startEnrolment } from './support';

// The enrolled person's accreditations on a phone (Pixel 7), against the real server: a newcomer enrols and finds
// their QR on UserHome, opens its detail, saves the PDF, extends and revokes it, and asks for the face accreditation
// twice; AccreditProof opened signed out asks to sign in first and comes back; every new screen is checked with axe
// in es, en and eu (on the seeded enrolled `user`, whose accreditations are only read).

const DAY = 86_400_000;

/** Landing to FinishRegisterWithQr with a passport (one side) and a selfie from files, and typed details. */
async function enrolWithPassport(page: Page) {
  await expect(page).toHaveURL(/\/landing$/);
  await startEnrolment(page);
  // The passport's data page from a picture file: the fake camera films an ID card, whose MRZ the reference
  // engine rightly refuses under "passport" (document_classification_error).
  await expect(page.getByTestId('capture-file')).toBeAttached({ timeout: 60_000 });
  await page.getByTestId('capture-file').setInputFiles(fixture('passport.jpg'));
  await page.getByTestId('capture-use').click();
  await expect(page).toHaveURL(/\/take-selfie$/);
  await page.getByTestId('capture-file').setInputFiles(fixture('selfie.jpg'));
  await page.getByTestId('capture-use').click();
  await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
  await page.getByLabel(/^Nombre/).fill('Itziar');
  await page.getByLabel(/^Apellidos/).fill('Acreditada Zubiri');
  await page.getByLabel(/^Fecha de nacimiento/).fill('01/01/1985');
  await page.getByLabel(/^Fecha de caducidad/).fill('01/01/2032');
  await page
    .getByLabel(/^Número de documento/)
    .fill(`ACR${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e4)}`);
  await page.getByTestId('review-confirm').click();
  await expect(page).toHaveURL(/\/register-form$/);
  await page.getByTestId('form-submit').click();
  await expect(page).toHaveURL(/\/finish-register\/[\w-]+\/[\w-]+$/, { timeout: 60_000 });
}

/** The sizes (width x height) of the images drawn in a PDF, read with pdf-lib. */
async function pdfImages(bytes: Uint8Array): Promise<{ pages: number; images: string[] }> {
  const pdf = await PDFDocument.load(bytes);
  const images: string[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype')) === PDFName.of('Image')) {
      images.push(`${object.dict.get(PDFName.of('Width'))}x${object.dict.get(PDFName.of('Height'))}`);
    }
  }
  return { pages: pdf.getPageCount(), images };
}

/** The end of the window shown (its <time datetime>), as ms since the epoch. */
async function shownEnd(page: Page): Promise<number> {
  const iso = await page.getByTestId('accreditation-window').locator('time').getAttribute('datetime');
  return Date.parse(iso ?? '');
}

test.describe('accreditations', () => {
  test('after enrolling: QR on home, detail, PDF, extend 15 days, revoke; face accreditation twice', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await signInFromWelcome(page, newcomer(21));
    await enrolWithPassport(page);
    // The gambling tenant's postEnrolmentAction is showQr: Continue leads to UserHome with the QR.
    await page.getByTestId('finish-continue').click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByTestId('home-name')).toContainText('Itziar Acreditada Zubiri');
    await expect(page.getByTestId('accreditation-qr')).toBeVisible();
    await expect(page.getByTestId('accreditation-status')).toHaveText('Válida');
    const firstEnd = await shownEnd(page);
    expect(firstEnd - Date.now()).toBeGreaterThan(14.9 * DAY);

    await page.getByTestId('home-qr-detail').click();
    await expect(page).toHaveURL(/\/accreditation-detail\/[\w-]+$/);
    await expect(page.getByTestId('accreditation-qr')).toBeVisible();
    await expect(page.getByTestId('accreditation-window')).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);

    // The PDF: one page that holds the QR image (600 px) and the tenant's logo.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('accreditation-pdf').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^credential-[\w-]+\.pdf$/);
    const bytes = new Uint8Array(await readFile((await download.path()) ?? ''));
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const pdf = await pdfImages(bytes);
    expect(pdf.pages).toBe(1);
    expect(pdf.images).toContain('600x600');

    // Extend: a new 15-day window from now.
    const beforeExtend = Date.now();
    await page.getByTestId('accreditation-extend').click();
    await expect.poll(() => shownEnd(page)).toBeGreaterThan(firstEnd);
    const extendedEnd = await shownEnd(page);
    expect(extendedEnd - beforeExtend).toBeGreaterThanOrEqual(15 * DAY - 60_000);
    expect(extendedEnd - Date.now()).toBeLessThanOrEqual(15 * DAY + 60_000);

    // Revoke, with a confirmation: cancelling keeps it, confirming ends it.
    await page.getByTestId('accreditation-revoke').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectAccessible(page);
    await page.getByTestId('revoke-cancel').click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByTestId('accreditation-status')).toHaveText('Válida');
    await page.getByTestId('accreditation-revoke').click();
    await page.getByTestId('revoke-confirm').click();
    await expect(page.getByTestId('accreditation-revoked')).toBeVisible();
    await expect(page.getByTestId('accreditation-status')).toHaveText('Revocada');

    // Home says so.
    await page.goto('/home');
    await expect(page.getByTestId('home-qr-unusable')).toContainText('revocada');
    await expect(page.getByTestId('accreditation-qr')).toHaveCount(0);

    // The face accreditation: made the first time, "you already hold it" (a success) the second.
    await page.goto('/accredit-face');
    await page.getByTestId('accredit-request').click();
    await expect(page.getByTestId('accredit-result')).toHaveAttribute('data-result', 'granted');
    await page.reload();
    await page.getByTestId('accredit-request').click();
    await expect(page.getByTestId('accredit-result')).toHaveAttribute('data-result', 'alreadyHeld');
    await expect(page.getByTestId('accredit-result')).toContainText('Ya tenía la acreditación facial');

    // Renew the selfie: a new selfie portrayal through the capture view, then the face accreditation made again.
    await page.getByTestId('accredit-renew-selfie').click();
    await page.getByTestId('capture-file').setInputFiles(fixture('selfie.jpg'));
    await page.getByTestId('capture-use').click();
    await expect(page.getByTestId('accredit-result')).toHaveAttribute('data-result', 'granted');

    // MyAccreditations lists the revoked QR (nothing else of its kind) and the face one.
    await page.goto('/my-accreditations');
    const items = page.getByTestId('accreditation-item');
    await expect(items).toHaveCount(2);
    await expect(items.filter({ hasText: 'Credencial QR' }).getByTestId('accreditation-status')).toHaveText(
      'Revocada',
    );
    await expect(items.filter({ hasText: 'Acreditación facial' })).toBeVisible();
  });

  test('AccreditProof opened signed out asks to sign in and comes back to it', async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto('/accredit-proof');
    await expect(page.getByTestId('accredit-sign-in')).toBeVisible();
    await expectAccessible(page);
    await page.getByTestId('accredit-sign-in').click();
    await logIn(page, 'visitor');
    await expect(page).toHaveURL(/\/accredit-proof$/);
    await page.getByTestId('accredit-request').click();
    // The seeded visitor holds a proof already: the already-exists answer is a success showing it.
    await expect(page.getByTestId('accredit-result')).toHaveAttribute('data-result', 'alreadyHeld');
  });

  test('MyAccreditations asks for the person’s credentials once at most, its expired QR included', async ({
    page,
  }) => {
    await signInFromWelcome(page, 'user');
    await expect(page).toHaveURL(/\/home$/);
    // The production build (no StrictMode): what a person's browser really asks for.
    const lists: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (request.method() === 'GET' && /^\/api\/public\/credentials\/[^/]+$/.test(pathname))
        lists.push(pathname);
    });
    await page.goto('/my-accreditations');
    // The expired QR's extend is enabled once its row knows the credential: every call of the screen is made.
    await expect(page.getByTestId('accreditation-extend')).toBeEnabled();
    // The page came painted with them (src/app/shell-data.tsx): the app took the page's answer.
    expect(lists).toHaveLength(0);
    // Without the cookie that brings that paint, the app asks, once.
    await page.context().clearCookies({ name: 'portal_paint' });
    await page.goto('/my-accreditations');
    await expect(page.getByTestId('accreditation-extend')).toBeEnabled();
    expect(lists).toHaveLength(1);
  });

  test('the seeded user’s expired QR is shown as expired with extend; the screens pass axe in es, en and eu', async ({
    page,
  }) => {
    // Fifteen axe runs: a hang guard, not a speed limit, on two shared cores.
    test.setTimeout(300_000);
    await signInFromWelcome(page, 'user');
    await expect(page).toHaveURL(/\/home$/);
    await page.goto('/home?saloon=Sala%20Bilbao');
    await expect(page.getByTestId('home-saloon')).toContainText('Sala Bilbao');
    await expect(page.getByTestId('accreditation-qr')).toBeVisible();
    await expect(page.getByTestId('know-more')).toHaveAttribute('href', 'https://www.ordenacionjuego.es/');
    await expect(page.getByTestId('home-accreditations')).toBeVisible();
    await expect(page.getByTestId('home-profile')).toBeVisible();
    // A user (not a visitor) has no visits entry.
    await expect(page.getByTestId('home-visits')).toHaveCount(0);

    await page.goto('/my-accreditations');
    const expired = page
      .getByTestId('accreditation-item')
      .filter({ has: page.getByTestId('accreditation-extend') });
    await expect(expired).toHaveCount(1);
    await expect(expired.getByTestId('accreditation-status')).toHaveText('Caducada');
    const sid = await page
      .getByTestId('accreditation-item')
      .filter({ has: page.locator('[data-status="active"]') })
      .first()
      .getByTestId('accreditation-open')
      .getAttribute('href');

    for (const locale of ['es', 'en', 'eu'] as const) {
      // This browser's choice, as a language picked before signing in is kept: a choice made in the menu while signed
      // in is saved to the account, which the journeys running beside this one sign in with (and whose language
      // their sign-in applies: a screen they watch would switch language under them and ask again).
      await page.evaluate((chosen) => localStorage.setItem('portal.locale', chosen), locale);
      await page.goto('/home');
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      for (const [path, ready] of [
        ['/home', 'accreditation-qr'],
        ['/my-accreditations', 'accreditations'],
        [sid ?? '', 'accreditation-window'],
        ['/accredit-face', 'accredit-request'],
        ['/accredit-proof', 'accredit-request'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByTestId(ready).first()).toBeVisible();
        await expectAccessible(page);
      }
    }
  });
});
