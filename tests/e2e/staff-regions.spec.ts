import { devices, expect, type Page, test } from '@playwright/test';
import { accessTokenOf, expectAccessible, logIn, openAs, port, startEnrolment, t } from './support';

// Staff portal, regions: a newcomer enrols themselves with the camera (the specimen card) and their DNI; the
// registration records the region it took place in (the newcomer has no facility: the tenant's home region, es-an).
// The user manager sees it in PortalUserDetail, and the assistant's ActivateUsers finds and activates the person in
// that region (and not in another). newcomer-24 is this journey's own account.

const NEWCOMER = 'newcomer-24';

/** Takes the picture the capture view offers (it may take it by itself once the frames are sharp). */
async function capture(page: Page) {
  const take = page.getByTestId('capture-take');
  const use = page.getByTestId('capture-use');
  await expect(take.or(use)).toBeVisible({ timeout: 60_000 });
  if (await take.isVisible()) await take.click({ timeout: 2_000 }).catch(() => undefined);
  await use.click();
}

/** A DNI nobody else has: 8 digits and their letter. */
function freshDni(): string {
  const n = 10_000_000 + Math.floor(Math.random() * 89_999_999);
  return `${n}${'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}`;
}

test('a newcomer who enrols is registered in a region, where ActivateUsers finds and activates them', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const dni = freshDni();

  await test.step('the newcomer enrols with the camera and gives their DNI', async () => {
    await page.goto('/');
    await page.getByTestId('login').click();
    await logIn(page, NEWCOMER);
    await expect(page).toHaveURL(/\/landing$/);
    await startEnrolment(page, 'DNI o tarjeta de identidad');
    await expect(page.getByRole('heading', { name: 'Parte delantera del documento' })).toBeVisible();
    await capture(page);
    await expect(page.getByRole('heading', { name: 'Parte trasera del documento' })).toBeVisible();
    await capture(page);
    await expect(page).toHaveURL(/\/take-selfie$/);
    await page.getByTestId('capture-file').setInputFiles('tests/fixtures/generated/selfie.jpg');
    await page.getByTestId('capture-use').click();
    await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
    await page.getByLabel(/^Nombre/).fill('Itziar');
    await page.getByLabel(/^Apellidos/).fill('Región Andaluza');
    await page.getByLabel(/^Fecha de nacimiento/).fill('03/04/1985');
    await page.getByLabel(/^Fecha de caducidad/).fill('01/01/2031');
    await page.getByLabel(/^Número de documento/).fill(`REG${Date.now().toString(36).toUpperCase()}`);
    await page.getByLabel(/^DNI \/ NIE/).fill(dni);
    await page.getByTestId('review-confirm').click();
    await expect(page).toHaveURL(/\/register-form$/);
    await page.getByTestId('form-submit').click();
    await expect(page).toHaveURL(/\/finish-register\/[\w-]+\/[\w-]+$/, { timeout: 30_000 });
  });

  // The user manager finds the new person by their DNI; the detail names the region of registration.
  const local = `http://localhost:${port}`;
  const token = await accessTokenOf(local, 'gambling', 'usermanager');
  const headers = { authorization: `Bearer ${token}`, 'tenant-id': 'gambling' };
  const found = await request.get(`${local}/api/public/users?idNumber=${dni}`, { headers });
  const userId = ((await found.json()) as { items: { user_id: string }[] }).items[0]?.user_id;
  expect(userId).toBeTruthy();
  const detail = await request.get(`${local}/api/public/users/${userId}`, { headers });
  expect(((await detail.json()) as { region: string | null }).region).toBe('es-an');

  // Made inactive, so that ActivateUsers has something to do.
  const inactive = await request.put(`${local}/api/public/credentials/${userId}/inactive`, { headers });
  expect(inactive.ok()).toBe(true);
  const activated = async () =>
    (await (await request.get(`${local}/api/public/credentials/${userId}`, { headers })).json()) as {
      activated: boolean;
      locations: string[];
    };
  expect((await activated()).activated).toBe(false);

  const staff = await browser.newContext({ ...devices['Pixel 7'] });
  try {
    const manager = await staff.newPage();
    await test.step('PortalUserDetail shows the region of registration', async () => {
      await openAs(manager, 'usermanager', `/user-detail/${userId}`, 'es');
      await expect(manager.locator('[data-screen="PortalUserDetail"]')).toBeVisible();
      await expect(manager.getByTestId('user-field-region')).toContainText(t('es', 'regions.es-an'));
      await expect(manager.getByTestId('user-field-birth_date')).toContainText('03/04/1985');
      await manager.screenshot({ path: 'test-results/staff-region-detail.png', fullPage: true });
    });
  } finally {
    await staff.close();
  }

  const assistantContext = await browser.newContext({ ...devices['Pixel 7'] });
  try {
    const assistant = await assistantContext.newPage();
    await test.step('ActivateUsers: not in another region; found and activated in the region of registration', async () => {
      await openAs(assistant, 'assistant', '/activate-users', 'es');
      await expect(assistant.locator('[data-screen="ActivateUsers"]')).toBeVisible();
      await assistant.getByTestId('activate-region').selectOption('es-ct');
      await assistant.getByTestId('activate-id-number').fill(dni);
      await assistant.getByTestId('activate-submit').click();
      await expect(assistant.getByTestId('activate-error')).toHaveText(t('es', 'activateUsers.noUsersFound'));
      await assistant.getByTestId('activate-region').selectOption('es-an');
      await assistant.getByTestId('activate-submit').click();
      await expect(assistant.getByTestId('activate-result')).toHaveAttribute('data-users', '1');
      await expect(assistant.getByTestId('activate-result')).toContainText(t('es', 'regions.es-an'));
      await expect(assistant.getByTestId('activate-result')).toContainText('Casino Gran Vía');
      await expectAccessible(assistant);
    });
  } finally {
    await assistantContext.close();
  }

  // Active again, and good where the assistant works.
  const after = await activated();
  expect(after.activated).toBe(true);
  expect(after.locations).toHaveLength(1);
});
