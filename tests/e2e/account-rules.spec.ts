import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { openAs, t } from './support';

// The rules that keep staff from taking a person's sign-in or cancelling the staff above them, as the screens show
// the server's refusals: SingleRegistration names the username that is another account's login beside its field;
// AssistantAccountCancellation says a staff account is the admin's to cancel.

/** A real JPEG of more than 5 kB. */
async function photo(): Promise<Buffer> {
  const noise = Buffer.alloc(240 * 320 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
  return sharp(noise, { raw: { width: 240, height: 320, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

test("a username that is another person's email is refused beside the username field", async ({ page }) => {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  await openAs(page, 'usermanager', '/new-user-credential', 'en');
  await page.getByLabel(t('en', 'singles.mode.image')).check();
  // The seeded visitor's email, in another case and with an accent.
  await page.locator('[name="username"]').fill('Vísitor@Gambling.example');
  await page.locator('[name="email"]').fill(`rules-${id}@example.test`);
  await page.locator('[name="acs_id"]').fill(`ACS-RULES-${id}`.toUpperCase());
  await expect(page.getByText(t('en', 'singles.free'))).toHaveCount(2);
  await page
    .locator('#single-image')
    .setInputFiles({ name: 'face.jpg', mimeType: 'image/jpeg', buffer: await photo() });
  await page.getByRole('button', { name: t('en', 'singles.submit') }).click();
  await expect(page.getByText(t('en', 'common.errors.username_already_in_use'))).toBeVisible();
  await expect(page.locator('[name="username"]')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('single-registered')).toHaveCount(0);
});

test("an assistant is told that the admin's account is not theirs to cancel", async ({ page }) => {
  await openAs(page, 'assistant', '/delete-account-assistant', 'en');
  await page.getByTestId('cancel-email').fill('admin@gambling.example');
  await page.getByTestId('cancel-find').click();
  await expect(page.getByTestId('cancel-account-username')).toHaveText('admin');
  await page.getByTestId('cancel-id-number').fill('12345678Z');
  await page.getByTestId('cancel-submit').click();
  await page.getByTestId('cancel-confirm-yes').click();
  await expect(page.getByTestId('cancel-refused')).toHaveAttribute('data-refusal', 'staff_account');
  await expect(page.getByTestId('cancel-refused')).toContainText(
    t('en', 'cancelAccount.refused.staff_account'),
  );
});
