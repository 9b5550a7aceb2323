import { expect, type Page, test } from '@playwright/test';
import {
  expectAccessible,
  fixture,
  newcomer,
  openAs,
  openSignedIn,
  signInFromWelcome,
  startEnrolment,
  t,
} from './support';

// What the reference engine accepts is true: a document is verified or refused, never half-read, and the person
// always has a way out. On a phone, with another person's passport than the specimens
// (server/onboarding/testing/make-check-specimens.ts, photographed on a table by scripts/make-fixtures.mjs): a
// wrong check digit ends on the validation failure screen, and the good page then comes prefilled and is
// accepted, with staff reading why the first was refused; a page whose portrait holds no face ends on the
// classification failure screen; a person whose stored DNI/NIE is not a valid one deletes their account.

/** The passport page and then the holder's selfie, from picture files. */
async function sendPictures(page: Page, passport: string) {
  await page.getByTestId('capture-file').setInputFiles(fixture(passport));
  await page.getByTestId('capture-use').click();
  await expect(page).toHaveURL(/\/take-selfie$/);
  await page.getByTestId('capture-file').setInputFiles(fixture('check-selfie.jpg'));
  await page.getByTestId('capture-use').click();
}

async function switchLanguage(page: Page, locale: 'es' | 'en' | 'eu') {
  await page.getByTestId('language-menu').selectOption(locale);
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
}

test.describe('verified or refused', () => {
  test('a wrong check digit is refused on the validation screen (en, eu); the good page is prefilled and accepted', async ({
    page,
    browser,
  }, info) => {
    // Two enrolment attempts with the engine's judgement, then three staff views: long on a loaded machine.
    test.setTimeout(300_000);
    await signInFromWelcome(page, newcomer(16));
    await startEnrolment(page);
    await sendPictures(page, 'check-passport-bad-document-number.jpg');
    const failure = page.getByTestId('scan-failure');
    await expect(failure).toHaveAttribute('data-scan-error', 'analysis', { timeout: 30_000 });
    await expect(page).toHaveURL(/\/document-scan$/);
    for (const locale of ['en', 'eu'] as const) {
      await switchLanguage(page, locale);
      await expect(failure).toContainText(t(locale, 'scanFailure.analysis.title'));
      await expect(failure).toContainText(t(locale, 'scanFailure.analysis.hint'));
      await expectAccessible(page);
      await page.screenshot({ path: info.outputPath(`validas-${locale}.png`) });
    }
    await switchLanguage(page, 'es');
    // Nothing of the refused page reached the review: the retry takes the pictures again.
    await page.getByTestId('scan-retry').click();
    await sendPictures(page, 'check-passport.jpg');
    await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByLabel(/^Nombre/)).toHaveValue('MIREN');
    await expect(page.getByLabel(/^Apellidos/)).toHaveValue('GARAY ETXEBERRIA');
    await expect(page.getByLabel(/^Fecha de nacimiento/)).toHaveValue('14/07/1992');
    await expect(page.getByLabel(/^Fecha de caducidad/)).toHaveValue('09/03/2034');
    await expect(page.getByLabel(/^Número de documento/)).toHaveValue('PAE740219');
    await expect(page.getByLabel(/^Número de documento/)).toHaveAttribute('data-mark', 'read');
    await expect(page.getByLabel(/^DNI \/ NIE/)).toHaveValue('31638100J');
    await page.getByTestId('review-confirm').click();
    await expect(page).toHaveURL(/\/register-form$/);
    await page.getByTestId('form-submit').click();
    await expect(page).toHaveURL(/\/finish-register\/[\w-]+\/[\w-]+$/, { timeout: 30_000 });
    const userId = /\/finish-register\/([\w-]+)\//.exec(page.url())?.[1] ?? '';

    // Staff read why the first page was refused, in words, in each language.
    const staff = await browser.newContext();
    const manager = await staff.newPage();
    for (const locale of ['es', 'en', 'eu'] as const) {
      await openAs(manager, 'usermanager', `/user-detail/${userId}`, locale);
      await manager.getByTestId('user-tab-security').click();
      const refusal = manager.getByTestId('user-refusal');
      await expect(refusal).toHaveCount(1);
      await expect(refusal).toHaveAttribute('data-check', 'document_number.check_digit');
      await expect(refusal).toContainText(t(locale, 'userDetail.refusal.code.validas_error'));
      await expect(refusal).toContainText(t(locale, 'userDetail.refusal.check.document_number.check_digit'));
      await manager.screenshot({ path: info.outputPath(`refusal-${locale}.png`), fullPage: true });
    }
    await expectAccessible(manager);
    await staff.close();
  });

  test('a passport whose portrait holds no face is refused on the classification screen', async ({
    page,
  }, info) => {
    test.setTimeout(120_000);
    await signInFromWelcome(page, newcomer(17));
    await startEnrolment(page);
    await sendPictures(page, 'check-passport-no-face.jpg');
    const failure = page.getByTestId('scan-failure');
    await expect(failure).toHaveAttribute('data-scan-error', 'classification', { timeout: 30_000 });
    await expect(failure).toContainText(t('es', 'scanFailure.classification.title'));
    await expect(failure).toContainText(t('es', 'scanFailure.classification.hint'));
    await switchLanguage(page, 'en');
    await expect(failure).toContainText(t('en', 'scanFailure.classification.title'));
    await page.screenshot({ path: info.outputPath('classification-en.png') });
    await switchLanguage(page, 'eu');
    await expect(failure).toContainText(t('eu', 'scanFailure.classification.title'));
    await page.screenshot({ path: info.outputPath('classification-eu.png') });
    await expectAccessible(page);
  });
});

test.describe("the person's way out", () => {
  test('a person whose stored DNI/NIE is not a valid one deletes their account with exactly that value', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    // Registered with the personal number "316381005" (the J of 31638100J read as 5, as an engine once stored
    // it; or a typo): not a valid DNI/NIE.
    await signInFromWelcome(page, newcomer(18));
    await startEnrolment(page);
    await sendPictures(page, 'check-passport.jpg');
    await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
    const unique = `E2E${Date.now().toString(36).toUpperCase()}`;
    await page.getByLabel(/^Número de documento/).fill(unique);
    await page.getByLabel(/^DNI \/ NIE/).fill('316381005');
    await page.getByTestId('review-confirm').click();
    await expect(page).toHaveURL(/\/register-form$/);
    await page.getByTestId('form-submit').click();
    await expect(page).toHaveURL(/\/finish-register\/[\w-]+\/[\w-]+$/, { timeout: 30_000 });

    // Signed in anew (the tokens of an enrolled person), from UserProfile to DeleteAccount.
    await openSignedIn(page, newcomer(18), '/profile');
    await page.getByTestId('profile-delete-account').click();
    await expect(page).toHaveURL(/\/delete-account$/);
    const field = page.getByTestId('delete-account-id-number');
    // The real DNI is not what the account holds: refused in the server's words.
    await field.fill('31638100J');
    await page.getByTestId('delete-account-submit').click();
    await page.getByTestId('delete-account-confirm-yes').click();
    await expect(page.getByTestId('delete-account-refused')).toHaveAttribute('data-refusal', 'id_mismatch');
    // Exactly the stored value, typed as people type (spaces, lower case), is the way out.
    await field.fill('3163 8100 5');
    await page.getByTestId('delete-account-submit').click();
    await page.getByTestId('delete-account-confirm-yes').click();
    // Signed out at the provider, on the public welcome; signing in again starts a new enrolment.
    await expect(page.getByTestId('login')).toBeVisible({ timeout: 30_000 });
    await signInFromWelcome(page, newcomer(18));
    await expect(page).toHaveURL(/\/landing$/, { timeout: 30_000 });
  });
});
