import { expect, type Page, test } from '@playwright/test';
import {
  expectAccessibleInEachLanguage,
  expectFocusVisible,
  recordCaptureAnnouncements,
  switchLanguage,
  tabTo,
} from './keyboard';
import { fixture, logIn, port, t } from './support';

// Every enrolment step in es, en and eu (axe and 360 px), walked with the keyboard alone wherever it is a form,
// on the two tenants of tests/fixtures/tenants/ that the journeys' main server serves beside gambling and demo
// (playwright.config.ts): steps (showNextSteps, onboardingSteps, identity proofing, no QR: NextSteps,
// IdentityProofingStep ... FinishRegister) and selfie (selfie only with the liveness proof: RegisterSelfie,
// TakeSelfieAlive). Each tenant seeds its own newcomer-NN accounts (SEED_ACCOUNT_TENANTS).

const tenantUrl = (tenant: string) => `http://${tenant}.localhost:${port}`;

/** Signs in on a fixture tenant through the provider's page (Node does not resolve *.localhost), on Landing. */
async function openLanding(page: Page, tenant: string, username: string) {
  await page.goto(`${tenantUrl(tenant)}/landing`);
  await logIn(page, username);
  await expect(page).toHaveURL(/\/landing$/);
}

/** Presses Enter on `testId` reached with Tab. */
async function tabAndEnter(page: Page, testId: string) {
  await tabTo(page, page.getByTestId(testId));
  await page.keyboard.press('Enter');
}

test('every step of an enrolment with NextSteps and IdentityProofingStep, in three languages, by keyboard', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const announcements = await recordCaptureAnnouncements(page);
  await openLanding(page, 'steps', 'newcomer-01');
  await expectAccessibleInEachLanguage(page);
  await tabAndEnter(page, 'enrolment-start');

  await expect(page).toHaveURL(/\/next-steps$/);
  await expectAccessibleInEachLanguage(page);
  await tabAndEnter(page, 'steps-continue');
  await expect(page).toHaveURL(/\/id-proofing-step$/);
  await expectAccessibleInEachLanguage(page);
  await tabAndEnter(page, 'steps-continue');

  // The terms: accepting without the box ticked is refused in words, then the box is ticked with Space.
  await expect(page).toHaveURL(/\/privacy-onboarding$/);
  await expect(page.getByTestId('terms')).toContainText(/condiciones|términos/i);
  await tabAndEnter(page, 'privacy-accept');
  await expect(page.getByText(t('es', 'privacy.acceptRequired'))).toBeVisible();
  await expectAccessibleInEachLanguage(page);
  await tabTo(page, page.locator('#accept-terms'), { back: true });
  await page.keyboard.press('Space');
  await expect(page.locator('#accept-terms')).toBeChecked();
  await tabAndEnter(page, 'privacy-accept');

  // The document: continuing without one is refused, then the passport is chosen with the arrow keys.
  await expect(page).toHaveURL(/\/register-documents$/);
  await tabAndEnter(page, 'documents-continue');
  await expect(page.getByText(t('es', 'documents.required'))).toBeVisible();
  await expectAccessibleInEachLanguage(page);
  const passport = page.locator('input[value=passport]');
  await tabTo(page, page.locator('fieldset').first(), { back: true });
  for (let presses = 0; presses < 5 && !(await passport.isChecked()); presses++) {
    await page.keyboard.press('ArrowDown');
    await expectFocusVisible(page);
  }
  await expect(passport).toBeChecked();
  await tabAndEnter(page, 'documents-continue');

  // The capture view says what it is doing to a screen reader, and its words change with its state.
  await expect(page).toHaveURL(/\/document-scan$/);
  await expect.poll(announcements.said).toContain(t('es', 'capture.instruction.obverse'));
  await page.getByTestId('capture-file').setInputFiles(fixture('passport.jpg'));
  await expect.poll(announcements.said).toContain(t('es', 'capture.preview.check.document'));
  const said = await announcements.said();
  expect(said.indexOf(t('es', 'capture.instruction.obverse'))).toBeLessThan(
    said.indexOf(t('es', 'capture.preview.check.document')),
  );
  await tabAndEnter(page, 'capture-use');
  await expect(page).toHaveURL(/\/take-selfie$/);
  await page.getByTestId('capture-file').setInputFiles(fixture('selfie.jpg'));
  await expect.poll(announcements.said).toContain(t('es', 'capture.preview.check.selfie'));
  await tabAndEnter(page, 'capture-use');

  // The review, prefilled from the passport's MRZ: a required field emptied is refused, in each language.
  await expect(page).toHaveURL(/\/review-register$/);
  const lastName = page.locator('#review-last_name');
  await expect(lastName).toHaveValue('ESPANOLA ESPANOLA', { timeout: 30_000 });
  await tabTo(page, lastName);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await tabAndEnter(page, 'review-confirm');
  // The refusal brings the focus to a field to mend.
  await expect(page.locator('input:focus')).toHaveCount(1);
  await expectFocusVisible(page);
  await expect(page.getByText(t('es', 'validation.required')).first()).toBeVisible();
  await expectAccessibleInEachLanguage(page);
  for (const [field, value] of [
    ['last_name', 'Española Española'],
    ['birth_date', '01/01/1980'],
    ['expiry_date', '01/01/2031'],
  ] as const) {
    const input = page.locator(`#review-${field}`);
    if ((await input.inputValue()) !== '') continue;
    await input.focus();
    await page.keyboard.type(value);
  }
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/register-form$/);
  await tabTo(page, page.locator('#form-email'));
  await page.keyboard.type('nerea@');
  await tabAndEnter(page, 'form-submit');
  await expect(page.getByText(t('es', 'validation.email'))).toBeVisible();
  await expectAccessibleInEachLanguage(page);
  // Tab selects what the field holds: End keeps it, and the rest is typed after it.
  await tabTo(page, page.locator('#form-email'), { back: true });
  await expect(page.locator('#form-email')).toHaveValue('nerea@');
  await page.keyboard.press('End');
  await page.keyboard.type('example.com');
  await tabAndEnter(page, 'form-submit');

  // No QR credential on this tenant: FinishRegister, and Continue goes home.
  await expect(page).toHaveURL(/\/finish-register\/[\w-]+$/, { timeout: 30_000 });
  await expectAccessibleInEachLanguage(page);
  await tabAndEnter(page, 'finish-continue');
  await expect(page).not.toHaveURL(/\/finish-register/);
});

test('a selfie-only enrolment with the liveness proof, in three languages', async ({ page }) => {
  test.setTimeout(120_000);
  await openLanding(page, 'selfie', 'newcomer-01');
  await tabAndEnter(page, 'enrolment-start');
  await expect(page).toHaveURL(/\/privacy-onboarding$/);
  await tabTo(page, page.locator('#accept-terms'));
  await page.keyboard.press('Space');
  await tabAndEnter(page, 'privacy-accept');
  await expect(page).toHaveURL(/\/register-selfie$/);
  await expectAccessibleInEachLanguage(page);
  await tabAndEnter(page, 'selfie-start');
  await expect(page).toHaveURL(/\/take-selfie-alive$/);
  // The camera's state is said to a screen reader once it streams, in the person's language.
  const live = page.locator('[data-slot="capture"] > [aria-live]');
  await expect(live).toHaveText(t('es', 'capture.instruction.selfie'), { timeout: 30_000 });
  for (const lang of ['en', 'eu', 'es'] as const) {
    await switchLanguage(page, lang);
    await expect(live).toHaveText(t(lang, 'capture.instruction.selfie'));
  }
  await expectAccessibleInEachLanguage(page);
});
