import { devices, expect, type Page, test } from '@playwright/test';
import { expectAccessibleInEachLanguage } from './keyboard';
import {
  accessTokenOf,
  expectAccessible,
  fixture,
  newcomer,
  openSignedIn,
  port,
  signInFromWelcome,
  startEnrolment,
} from './support';

// Self-enrolment journeys in a phone (Pixel 7) whose camera is Chromium's fake device fed with the specimen card (a
// real face and a TD1 MRZ), against the real server and its reference engine: it reads the MRZ it can, compares the
// selfie with the document's portrait and judges the liveness frames. The person confirms or types their details on
// ReviewRegister, and those details decide the registration outcome.

/**
 * The selfie comes from a picture file (the capture view's upload): Chromium's fake camera restarts its video
 * each time a camera opens, so a selfie taken as long after opening as the front of the document was would be
 * the very same picture, which the engine rightly refuses as a spoof.
 */
async function selfieFromFile(page: Page) {
  await page.getByTestId('capture-file').setInputFiles(fixture('selfie.jpg'));
  await page.getByTestId('capture-use').click();
}

/**
 * The passport's data page from a picture file: the fake camera films an ID card, whose MRZ the engine rightly
 * refuses under "passport" (document_classification_error).
 */
async function passportFromFile(page: Page) {
  await page.getByTestId('capture-file').setInputFiles(fixture('passport.jpg'));
  await page.getByTestId('capture-use').click();
}

/** Takes the picture the capture view offers (it may take it by itself once the frames are sharp). */
async function capture(page: Page) {
  const take = page.getByTestId('capture-take');
  const use = page.getByTestId('capture-use');
  await expect(take.or(use)).toBeVisible({ timeout: 60_000 });
  if (await take.isVisible()) await take.click({ timeout: 2_000 }).catch(() => undefined);
  await use.click();
}

/** From login to the review form, with an ID card scanned on both sides and a selfie. */
async function enrolUntilReview(page: Page, username: string) {
  // Signed in by the code flow outside the page (the provider's page is the sign-in journeys'), on Landing.
  await openSignedIn(page, username, '/landing');
  await expect(page).toHaveURL(/\/landing$/);
  await page.getByTestId('enrolment-start').click();
  await expect(page).toHaveURL(/\/privacy-onboarding$/);
  await expect(page.getByTestId('terms')).toContainText(/condiciones|términos/i);
  await page.getByLabel(/acepto las condiciones/i).check();
  await page.getByTestId('privacy-accept').click();
  await expect(page).toHaveURL(/\/register-documents$/);
  await page.getByLabel('DNI o tarjeta de identidad').check();
  await page.getByTestId('documents-continue').click();
  await expect(page).toHaveURL(/\/document-scan$/);
  await expect(page.getByRole('heading', { name: 'Parte delantera del documento' })).toBeVisible();
  await capture(page);
  await expect(page.getByRole('heading', { name: 'Parte trasera del documento' })).toBeVisible();
  await capture(page);
  await expect(page).toHaveURL(/\/take-selfie$/);
  await selfieFromFile(page);
  await expect(page).toHaveURL(/\/review-register$/);
  await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
}

interface Details {
  firstName?: string;
  lastName?: string;
  birthDate?: string;
  expiryDate?: string;
  documentNumber: string;
  idNumber?: string;
}

async function confirmDetails(page: Page, details: Details, options: { checkForm?: boolean } = {}) {
  await page.getByLabel(/^Nombre/).fill(details.firstName ?? 'Carmen');
  await page.getByLabel(/^Apellidos/).fill(details.lastName ?? 'Española Española');
  await page.getByLabel(/^Fecha de nacimiento/).fill(details.birthDate ?? '01/01/1980');
  await page.getByLabel(/^Fecha de caducidad/).fill(details.expiryDate ?? '01/01/2031');
  await page.getByLabel(/^Número de documento/).fill(details.documentNumber);
  if (details.idNumber) await page.getByLabel(/^DNI \/ NIE/).fill(details.idNumber);
  await page.getByTestId('review-confirm').click();
  await expect(page).toHaveURL(/\/register-form$/);
  if (options.checkForm) await expectAccessible(page);
  await page.getByTestId('form-submit').click();
}

const uniqueDocument = () => `E2E${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e4)}`;

test.describe('self-enrolment', () => {
  test('a newcomer enrols with the camera and gets their QR credential', async ({ page }) => {
    test.setTimeout(120_000);
    await enrolUntilReview(page, newcomer(1));
    await expectAccessible(page);
    // Wrong input is refused with a clear message and nothing typed is lost.
    await page.getByLabel(/^Nombre/).fill('Carmen');
    await page.getByLabel(/^DNI \/ NIE/).fill('12345678A');
    // The card's MRZ may have been read from the camera: a required field emptied by hand is refused too.
    await page.getByLabel(/^Apellidos/).fill('');
    await page.getByTestId('review-confirm').click();
    await expect(page.getByText('La letra del DNI/NIE no es correcta.')).toBeVisible();
    await expect(page.getByText('Este campo es obligatorio.').first()).toBeVisible();
    await expect(page.getByLabel(/^Nombre/)).toHaveValue('Carmen');
    await page.getByLabel(/^DNI \/ NIE/).fill('');
    await confirmDetails(page, { documentNumber: uniqueDocument() }, { checkForm: true });
    await expect(page).toHaveURL(/\/finish-register\/[\w-]+\/[\w-]+$/, { timeout: 60_000 });
    await expect(page.getByRole('img', { name: /QR/i })).toBeVisible();
    await expectAccessibleInEachLanguage(page);
    // Leaving is a transition of the enrolment to the person's home screen; the URL follows it.
    await page.getByTestId('finish-continue').click();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('a reload in the middle resumes the same step', async ({ page }) => {
    test.setTimeout(90_000);
    await signInFromWelcome(page, newcomer(2));
    await startEnrolment(page);
    await page.reload();
    await expect(page).toHaveURL(/\/document-scan$/);
    await expect(page.getByRole('heading', { name: 'Parte delantera del documento' })).toBeVisible();
    // A passport has no back: after the front comes the selfie.
    await capture(page);
    await expect(page).toHaveURL(/\/take-selfie$/);
    // A step typed by hand that is not the current one brings the person back to where they are.
    await page.goto('/register-documents');
    await expect(page).toHaveURL(/\/take-selfie$/);
  });

  const reasons: { account: number; code: string; details: Partial<Details>; text: RegExp }[] = [
    { account: 3, code: 'underage', details: { birthDate: '01/01/2015' }, text: /menor de edad|18 años/i },
    { account: 4, code: 'document-expired', details: { expiryDate: '01/01/2020' }, text: /caducado/i },
    { account: 5, code: 'forbidden-list', details: { documentNumber: 'PROHIB001' }, text: /prohibid/i },
    {
      account: 6,
      code: 'document-already-in-use',
      details: { documentNumber: 'SEED00001' },
      text: /ya en uso|asociado a otra cuenta/i,
    },
  ];
  for (const reason of reasons) {
    test(`a registration refused as ${reason.code} says why`, async ({ page }) => {
      test.setTimeout(120_000);
      await enrolUntilReview(page, newcomer(reason.account));
      await confirmDetails(page, { documentNumber: uniqueDocument(), ...reason.details });
      await expect(page).toHaveURL(new RegExp(`/finish-register-error/${reason.code}$`), { timeout: 60_000 });
      await expect(page.getByRole('alert')).toContainText(reason.text);
      await expect(page.getByRole('button', { name: /reintentar|volver a intentar/i })).toHaveCount(0);
      // One of the reasons is checked in each language (the screen is the same for all of them).
      if (reason.code === 'underage') await expectAccessibleInEachLanguage(page);
      // Someone not enrolled is at home on Landing, where a new enrolment starts.
      await page.getByTestId('finish-error-back').click();
      await expect(page).toHaveURL(/\/landing$/);
      await expect(page.getByTestId('enrolment-start')).toBeEnabled();
    });
  }

  test('an enrolled person who enrols again is told they are already registered', async ({ page }) => {
    test.setTimeout(120_000);
    await signInFromWelcome(page, 'user');
    await expect(page).toHaveURL(/\/home$/);
    await page.goto('/landing');
    await startEnrolment(page);
    await passportFromFile(page);
    await expect(page).toHaveURL(/\/take-selfie$/);
    await selfieFromFile(page);
    await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
    await confirmDetails(page, { documentNumber: uniqueDocument() });
    await expect(page).toHaveURL(/\/finish-register-error\/already-registered$/, { timeout: 60_000 });
  });

  test('camera denied: the failure says so and a file completes the scan', async ({ page }) => {
    test.setTimeout(120_000);
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    await signInFromWelcome(page, newcomer(7));
    await startEnrolment(page);
    await expect(page.locator('[data-capture-error="camera_failure"]')).toBeVisible();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await expectAccessible(page);
    await passportFromFile(page);
    await expect(page).toHaveURL(/\/take-selfie$/);
    await page.getByTestId('capture-file').setInputFiles(fixture('selfie.jpg'));
    await page.getByTestId('capture-use').click();
    await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
  });

  test('a blurred document is sent back with the blurred-scan hint, and a retry goes on', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    await signInFromWelcome(page, newcomer(8));
    await startEnrolment(page);
    await page.getByTestId('capture-file').setInputFiles(fixture('document-blurred.jpg'));
    await page.getByTestId('capture-use').click();
    await page.getByTestId('capture-file').setInputFiles(fixture('selfie.jpg'));
    await page.getByTestId('capture-use').click();
    await expect(page.getByTestId('scan-failure')).toHaveAttribute('data-scan-error', 'blurred', {
      timeout: 60_000,
    });
    await expect(page.getByRole('heading', { name: 'La foto está borrosa' })).toBeVisible();
    await page.getByTestId('scan-retry').click();
    await passportFromFile(page);
    await page.getByTestId('capture-file').setInputFiles(fixture('selfie.jpg'));
    await page.getByTestId('capture-use').click();
    await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
  });
});

test.describe('assisted registration', () => {
  test('an assistant names the person by email and confirms they may give their data', async ({ page }) => {
    await signInFromWelcome(page, 'assistant');
    await page.getByRole('link', { name: 'Registro asistido' }).click();
    await expect(page.getByRole('heading', { name: 'Registro asistido' })).toBeVisible();
    await page.getByTestId('enrolment-start').click();
    await expect(page.getByText('Este campo es obligatorio.')).toBeVisible();
    await page.getByLabel('Correo electrónico de la persona que registra').fill('jon@');
    await page.getByTestId('enrolment-start').click();
    await expect(page.getByText('El correo electrónico no tiene un formato válido.')).toBeVisible();
    await page.getByLabel('Correo electrónico de la persona que registra').fill('jon@example.com');
    await page.getByTestId('enrolment-start').click();
    await expect(page).toHaveURL(/\/privacy-onboarding$/);
    await page.getByLabel(/acepto las condiciones/i).check();
    await page.getByTestId('privacy-accept').click();
    await expect(
      page.getByText('Debe confirmar que está legitimado para facilitar estos datos.'),
    ).toBeVisible();
    await page.getByLabel(/estoy legitimado/i).check();
    await page.getByTestId('privacy-accept').click();
    await expect(page).toHaveURL(/\/register-documents$/);
    await expect(page.locator('[data-screen="RegisterDocuments"]')).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe('enforcement source unavailable (20-second-token server)', () => {
  const other = `http://localhost:${port + 1}`;
  test('the only retryable reason offers a retry that then succeeds', async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.goto(`${other}/`);
    await page.getByTestId('login').click();
    const username = newcomer(1);
    await page.getByLabel(/^usuario/i).fill(username);
    await page.getByLabel(/^contraseña/i).fill(username);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await startEnrolment(page);
    await passportFromFile(page);
    await expect(page).toHaveURL(/\/take-selfie$/);
    await selfieFromFile(page);
    await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
    // The fault switch needs the tenant admin's token.
    const admin = await accessTokenOf(other, 'gambling');
    const fault = (on: boolean) =>
      request.post(`${other}/api/dev/faults/enforcement`, {
        headers: { 'tenant-id': 'gambling', authorization: `Bearer ${admin}` },
        data: { on },
      });
    expect((await fault(true)).ok()).toBe(true);
    try {
      await confirmDetails(page, { documentNumber: uniqueDocument() });
      await expect(page).toHaveURL(/\/finish-register-error\/enforcement-source-unavailable$/, {
        timeout: 60_000,
      });
    } finally {
      await fault(false);
    }
    await page.getByRole('button', { name: /reintentar|volver a intentar/i }).click();
    await expect(page).toHaveURL(/\/finish-register\/[\w-]+\/[\w-]+$/, { timeout: 60_000 });
  });
});

test.describe('the reference engine reads the document and judges the selfie', () => {
  test('a passport is read: ReviewRegister comes prefilled from its MRZ, each field marked as read', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signInFromWelcome(page, newcomer(10));
    await startEnrolment(page);
    await page.getByTestId('capture-file').setInputFiles(fixture('passport.jpg'));
    await page.getByTestId('capture-use').click();
    await expect(page).toHaveURL(/\/take-selfie$/);
    await selfieFromFile(page);
    await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByLabel(/^Nombre/)).toHaveValue('CARMEN');
    await expect(page.getByLabel(/^Apellidos/)).toHaveValue('ESPANOLA ESPANOLA');
    await expect(page.getByLabel(/^Fecha de nacimiento/)).toHaveValue('01/01/1980');
    await expect(page.getByLabel(/^Fecha de caducidad/)).toHaveValue('01/01/2031');
    await expect(page.getByLabel(/^Número de documento/)).toHaveValue('PAA123456');
    await expect(page.getByLabel(/^Número de documento/)).toHaveAttribute('data-mark', 'read');
    await expect(page.getByText('Leído del documento').first()).toBeVisible();
    // What the person changes is marked as changed, with what the document said.
    await page.getByLabel(/^Nombre/).fill('Carmen');
    await expect(page.getByLabel(/^Nombre/)).toHaveAttribute('data-mark', 'changed');
    await expect(page.getByText('Cambiado por usted (en el documento: CARMEN)')).toBeVisible();
    await expectAccessible(page);
  });

  test('a selfie of another person is sent back to the selfie step: the face does not match', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signInFromWelcome(page, newcomer(11));
    await startEnrolment(page);
    await page.getByTestId('capture-file').setInputFiles(fixture('passport.jpg'));
    await page.getByTestId('capture-use').click();
    await expect(page).toHaveURL(/\/take-selfie$/);
    await page.getByTestId('capture-file').setInputFiles(fixture('selfie-other.jpg'));
    await page.getByTestId('capture-use').click();
    const failure = page.getByTestId('selfie-failure');
    await expect(failure).toHaveAttribute('data-selfie-error', 'faceMismatch', { timeout: 30_000 });
    await expect(failure).toContainText('La cara no coincide con la del documento');
    await expect(page).toHaveURL(/\/take-selfie$/);
    await expectAccessible(page);
    // The card in the other languages, accessible too (the failure stays while the language changes).
    for (const [locale, title] of [
      ['en', 'The face does not match the document'],
      ['eu', 'Aurpegia ez dator bat dokumentukoarekin'],
    ] as const) {
      await page.getByTestId('language-menu').selectOption(locale);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(failure).toContainText(title);
      await expectAccessible(page);
    }
    await page.getByTestId('language-menu').selectOption('es');
    await expect(failure).toContainText('La cara no coincide con la del documento');
    // The retake goes back to the selfie alone, and the holder's own selfie goes through.
    await page.getByTestId('selfie-retry').click();
    await selfieFromFile(page);
    await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
  });

  test('the camera showing the document at the selfie step gets the "no face" message and a retry', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signInFromWelcome(page, newcomer(12));
    await startEnrolment(page);
    await page.getByTestId('capture-file').setInputFiles(fixture('passport.jpg'));
    await page.getByTestId('capture-use').click();
    await expect(page).toHaveURL(/\/take-selfie$/);
    // The fake camera films the specimen card: that is what the selfie takes.
    await capture(page);
    const failure = page.getByTestId('selfie-failure');
    await expect(failure).toHaveAttribute('data-selfie-error', 'noFace', { timeout: 30_000 });
    await expect(failure).toContainText('No se ve ninguna cara');
    await page.getByTestId('selfie-retry').click();
    await expect(page).toHaveURL(/\/take-selfie$/);
    await selfieFromFile(page);
    await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
  });
});

// The liveness proof (TakeSelfieAlive) has its own camera: tests/e2e/liveness.spec.ts.

test.describe('desktop', () => {
  test('@desktop-only a computer is sent to DeviceDetect, and a phone continues the same onboarding by its code', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const username = newcomer(9);
    await signInFromWelcome(page, username);
    await page.getByTestId('enrolment-start').click();
    await expect(page).toHaveURL(/\/device-detect$/);
    const code = (await page.getByTestId('device-detect-user-code').innerText()).replace(/\s/g, '');
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    await expect(page.getByRole('img', { name: /QR/i })).toBeVisible();
    await expectAccessibleInEachLanguage(page);

    const phone = await browser.newContext({ ...devices['Pixel 7'], permissions: ['camera'] });
    const mobile = await phone.newPage();
    await mobile.goto(`http://localhost:${port}/device-detect?code=${code}`);
    // The phone asks the person to sign in with the same account, then continues by itself.
    await mobile.getByTestId('device-detect-login').click();
    await mobile.getByLabel(/^usuario/i).fill(username);
    await mobile.getByLabel(/^contraseña/i).fill(username);
    await mobile.getByRole('button', { name: 'Entrar' }).click();
    await expect(mobile).toHaveURL(/\/privacy-onboarding$/, { timeout: 60_000 });
    await mobile.getByLabel(/acepto las condiciones/i).check();
    await mobile.getByTestId('privacy-accept').click();
    await expect(mobile).toHaveURL(/\/register-documents$/);
    // The computer follows the phone's progress.
    await expect(page.locator('[data-step="legalTerms"]')).toHaveAttribute('data-done', 'true', {
      timeout: 60_000,
    });
    await phone.close();
  });
});
