import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { tabThrough, tabTo, typeDateOrTime, typeInto } from './keyboard';
import { accessTokenOf, expectAccessible, jwtPayload, type Lang, openAs, port, t } from './support';

// Staff registration: a user manager registers a person in each mode of SingleRegistration; while typing, an email
// and an acs_id already taken are shown as taken (the existence checks, 200 taken / 404 free); the outcome is shown;
// axe finds nothing on the screen in es, en and eu.

async function openRegistration(page: Page, username: string, path: string, lang: Lang) {
  await openAs(page, username, path, lang);
  await expect(page.locator('[data-screen="SingleRegistration"]')).toBeVisible();
}

/** A real JPEG photo-like image of more than 5 kB. */
async function facePhoto(): Promise<Buffer> {
  const noise = Buffer.alloc(240 * 320 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
  return sharp(noise, { raw: { width: 240, height: 320, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const field = (page: Page, name: string) => page.locator(`[name="${name}"]`);

/**
 * The fields mode filled with the keyboard alone, every control reached with Tab in its reading order, and sent with
 * Enter from the last field.
 */
async function registerFromFields(page: Page, lang: Lang, email: string, acsId: string) {
  await tabTo(page, page.locator('input[name="mode"][value="fields"]'));
  await tabThrough(page, [field(page, 'first_name')]);
  await page.keyboard.type('Itziar');
  await tabThrough(page, [field(page, 'last_name')]);
  await page.keyboard.type('Goikoetxea');
  await tabThrough(page, [field(page, 'birth_date')]);
  await typeDateOrTime(page, '1985-06-21');
  await tabThrough(page, [field(page, 'document_type'), field(page, 'document_number')]);
  await page.keyboard.type(`DOC${stamp()}`.slice(0, 20).toUpperCase());
  await tabThrough(page, [field(page, 'id_number'), field(page, 'email')]);
  await page.keyboard.type(email);
  await tabThrough(page, [field(page, 'acs_id')]);
  await page.keyboard.type(acsId);
  await expect(field(page, 'birth_date')).toHaveValue('1985-06-21');
  await expect(page.getByText(t(lang, 'singles.free'))).toHaveCount(2);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('single-registered')).toContainText(t(lang, 'singles.registered'));
  // The form went with the field that had the focus: the focus is on the screen, not lost to the page itself.
  await expect(page.locator('main')).toBeFocused();
}

for (const lang of ['es', 'en', 'eu'] as const) {
  test(`a user manager registers from the fields; a taken email and acs_id show while typing (${lang})`, async ({
    page,
  }) => {
    const id = stamp();
    const email = `alta-${id}@example.test`;
    const acsId = `ACS-E2E-${id}`.toUpperCase();
    await openRegistration(page, 'usermanager', '/new-user-credential', lang);
    await expectAccessible(page);
    // The tenant's QR is biometric: mailing it is refused, and the form says why.
    await expect(page.locator('[name="send_qr_by_email"]')).toBeDisabled();
    await expect(page.getByText(t(lang, 'common.errors.email_delivery_not_allowed'))).toBeVisible();
    await registerFromFields(page, lang, email, acsId);
    await expectAccessible(page);
    await page.screenshot({ path: `test-results/single-registered-${lang}.png`, fullPage: true });

    // The same email and acs_id again: both are shown taken before sending.
    await tabTo(page, page.getByRole('button', { name: t(lang, 'singles.another') }));
    await page.keyboard.press('Enter');
    await typeInto(page, field(page, 'email'), email);
    await typeInto(page, field(page, 'acs_id'), acsId);
    await expect(page.getByText(t(lang, 'common.errors.email_already_in_use'))).toBeVisible();
    await expect(page.getByText(t(lang, 'common.errors.acs_id_already_in_use'))).toBeVisible();
    await expect(page.locator('[name="email"]')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page);
    await page.screenshot({ path: `test-results/single-taken-${lang}.png`, fullPage: true });
    // Sending is refused in the browser while they are taken.
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('single-registered')).toHaveCount(0);
  });
}

test('a user manager registers from username, acs_id, email and a photo; taken values show while typing', async ({
  page,
}) => {
  const lang: Lang = 'en';
  const id = stamp();
  const takenEmail = `first-${id}@example.test`;
  const takenAcsId = `ACS-E2E-F${id}`.toUpperCase();
  await openRegistration(page, 'usermanager', '/new-user-credential', lang);
  await registerFromFields(page, lang, takenEmail, takenAcsId);
  await tabTo(page, page.getByRole('button', { name: t(lang, 'singles.another') }));
  await page.keyboard.press('Enter');

  // The image mode chosen with an arrow key on the mode's radios, the photo's chooser reached with Tab.
  await tabTo(page, page.locator('input[name="mode"][value="fields"]'));
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('input[name="mode"][value="image"]')).toBeChecked();
  await tabThrough(page, [field(page, 'username')]);
  await page.keyboard.type(`photo.user.${id}`);
  await tabThrough(page, [field(page, 'email')]);
  await page.keyboard.type(takenEmail);
  await tabThrough(page, [field(page, 'acs_id')]);
  await page.keyboard.type(takenAcsId);
  await expect(page.getByText(t(lang, 'common.errors.email_already_in_use'))).toBeVisible();
  await expect(page.getByText(t(lang, 'common.errors.acs_id_already_in_use'))).toBeVisible();
  await tabThrough(page, [page.locator('#single-image')]);
  await page.locator('#single-image:focus').setInputFiles({
    name: 'face.jpg',
    mimeType: 'image/jpeg',
    buffer: await facePhoto(),
  });
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/single-image-taken-en.png', fullPage: true });

  await typeInto(page, field(page, 'email'), `photo-${id}@example.test`, { back: true });
  await tabThrough(page, [field(page, 'acs_id')]);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(`ACS-E2E-P${id}`.toUpperCase());
  await expect(page.getByText(t(lang, 'singles.free'))).toHaveCount(2);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('single-registered')).toContainText(t(lang, 'singles.registered'));
  // The form went with the field that had the focus: the focus is on the screen, not lost to the page itself.
  await expect(page.locator('main')).toBeFocused();
});

test('a photo too small is refused in the browser before sending', async ({ page }) => {
  const lang: Lang = 'es';
  await openRegistration(page, 'usermanager', '/new-user-credential', lang);
  await page.getByLabel(t(lang, 'singles.mode.image')).check();
  await page.locator('[name="username"]').fill('tiny.photo');
  await page.locator('[name="email"]').fill(`tiny-${stamp()}@example.test`);
  await page.locator('[name="acs_id"]').fill(`ACS-TINY-${stamp()}`.toUpperCase());
  const tiny = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
    .jpeg()
    .toBuffer();
  await page
    .locator('#single-image')
    .setInputFiles({ name: 'tiny.jpg', mimeType: 'image/jpeg', buffer: tiny });
  await page.getByRole('button', { name: t(lang, 'singles.submit') }).click();
  await expect(page.getByText(t(lang, 'common.errors.image_too_small'))).toBeVisible();
  await expect(page.getByTestId('single-registered')).toHaveCount(0);
});

for (const lang of ['es', 'en', 'eu'] as const) {
  test(`DelegatedFinishRegister holds the image to the delegated bounds and registers the person (${lang})`, async ({
    page,
  }) => {
    await openAs(page, 'usermanager', '/delegated-finish-register', lang);
    await expect(page.locator('[data-screen="DelegatedFinishRegister"]')).toBeVisible();
    await expect(page.locator('[name="mode"]')).toHaveCount(0);
    const id = stamp();
    await page.locator('[name="username"]').fill(`delegated.${id}`);
    await page.locator('[name="email"]').fill(`delegated-${id}@example.test`);
    await page.locator('[name="acs_id"]').fill(`ACS-DLG-${id}`.toUpperCase());
    // Both existence checks have answered (nothing is loading when axe looks).
    await expect(page.getByText(t(lang, 'singles.free'))).toHaveCount(2);
    // 6,000 bytes: enough for a single registration, too few for a delegated one (at least 6,828).
    const small = Buffer.concat([
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
        .jpeg()
        .toBuffer(),
    ]);
    const padded = Buffer.concat([small, Buffer.alloc(6_000 - small.length)]);
    await page
      .locator('#single-image')
      .setInputFiles({ name: 'small.jpg', mimeType: 'image/jpeg', buffer: padded });
    await page.getByRole('button', { name: t(lang, 'singles.submit') }).click();
    await expect(page.getByText(t(lang, 'common.errors.delegated_image_too_small'))).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: `test-results/delegated-small-${lang}.png`, fullPage: true });
    const photo = await facePhoto();
    expect(photo.length).toBeGreaterThanOrEqual(6_828);
    await page
      .locator('#single-image')
      .setInputFiles({ name: 'face.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByRole('button', { name: t(lang, 'singles.submit') }).click();
    await expect(page.getByTestId('single-registered')).toContainText(t(lang, 'singles.registered'));
    await expectAccessible(page);
  });
}

test('a busy server: the registration goes again by itself, with the form as it was filled (es, en, eu)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const base = `http://localhost:${port}`;
  // One journey for the three languages, one after the other: the switch answers the admin's next upload busy,
  // and a journey of another language beside it would take that answer. No other journey uploads as the admin.
  for (const lang of ['es', 'en', 'eu'] as const) {
    await openRegistration(page, 'admin', '/new-user-credential', lang);
    const admin = await accessTokenOf(base, 'gambling', 'admin');
    const id = stamp();
    await page.getByLabel(t(lang, 'singles.mode.image')).check();
    await page.locator('[name="username"]').fill(`busy.${id}`);
    await page.locator('[name="email"]').fill(`busy-${id}@example.test`);
    await page.locator('[name="acs_id"]').fill(`ACS-BUSY-${id}`.toUpperCase());
    await page.locator('#single-image').setInputFiles({
      name: 'face.jpg',
      mimeType: 'image/jpeg',
      buffer: await facePhoto(),
    });
    await expect(page.getByText(t(lang, 'singles.free'))).toHaveCount(2);
    // The development switch answers the admin's next upload 429 busy with a Retry-After of 2 s: the real
    // server, and no load to make.
    const switched = await page.request.post(`${base}/api/dev/faults/busy`, {
      headers: { 'tenant-id': 'gambling', authorization: `Bearer ${admin}` },
      data: { account: jwtPayload(admin).sub, retry_after: 2 },
    });
    expect(switched.ok()).toBe(true);

    await page.getByRole('button', { name: t(lang, 'singles.submit') }).click();
    const busy = page.getByTestId('single-busy');
    await expect(busy).toContainText(t(lang, 'singles.busy').split('{')[0]?.trim() ?? '');
    // Everything typed is still there while it waits.
    await expect(page.locator('[name="username"]')).toHaveValue(`busy.${id}`);
    await expect(page.locator('[name="email"]')).toHaveValue(`busy-${id}@example.test`);
    await page.screenshot({ path: `test-results/single-busy-${lang}.png`, fullPage: true });

    // The same registration goes again after the wait, without a click.
    await expect(page.getByTestId('single-registered')).toContainText(t(lang, 'singles.registered'));
    await expect(busy).toHaveCount(0);
    await expectAccessible(page);
  }
});
