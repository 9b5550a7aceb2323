import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { unzipSync, zipSync } from 'fflate';
import { parseCsv } from '../../contract/domain/csv';
import { seededUser } from '../../server/db/seed-users';
import { tabTo } from './keyboard';
import { expectAccessible, type Lang, openAs, t } from './support';

// "Add users from photos" on a phone, as a user manager: the portal's entry leads to AddUsersFromPhotos; a metadata
// file with wrong rows is refused in the browser, naming each row; the corrected one with the fixture zip
// (scripts/make-fixtures.mjs: three photos) registers two people and reports the third (an email already in use) as
// rejected; the result csv downloads and reads back; the new people are in PortalUsers by email. axe on every step
// in es, en and eu.

const ZIP = 'tests/fixtures/generated/bulk-photos.zip';
const HEADER = 'email,first_name,last_name,acs_id,image\r\n';

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Reached with Tab (Shift+Tab with `back`), the file set on the focused chooser: a person opens it with Enter. */
async function chooseFile(
  page: Page,
  id: string,
  files: Parameters<Locator['setInputFiles']>[0],
  back = false,
) {
  await tabTo(page, page.locator(`#${id}`), { back, max: 40 });
  await page.locator(`#${id}:focus`).setInputFiles(files);
}

async function chooseMetadata(page: Page, text: string, back = false) {
  await chooseFile(
    page,
    'bulk-metadata',
    {
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(text, 'utf8'),
    },
    back,
  );
}

for (const lang of ['es', 'en', 'eu'] as const) {
  test(`a user manager adds users from photos: wrong rows refused in the browser, one rejected by the server (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const id = stamp();
    const ane = `ane-${id}@bulk.example.test`;
    const jon = `jon-${id}@bulk.example.test`;
    const taken = seededUser('gambling', 23).email;

    // With the keyboard alone until the results: the portal's entry, both choosers reached with Tab, Enter to send.
    await openAs(page, 'usermanager', '/portal-management', lang);
    await tabTo(page, page.getByTestId('portal-addFromPhotos'));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/bulk-registration$/);
    await expect(page.locator('[data-screen="AddUsersFromPhotos"]')).toBeVisible();
    await expect(page.getByRole('heading', { name: t(lang, 'screen.AddUsersFromPhotos') })).toBeVisible();
    await expectAccessible(page);

    // Checked in the browser: a photo named but absent from the zip, a malformed email, a repeated acs_id.
    await chooseMetadata(
      page,
      `${HEADER}${ane},Ane,Etxeberria,BULK-${id}-1,photos/ane.jpg\r\n` +
        `not-an-email,Jon,Ruiz,BULK-${id}-2,photos/absent.jpg\r\n` +
        `${jon},Jon,Ruiz,BULK-${id}-1,photos/jon.jpg\r\n`,
    );
    await chooseFile(page, 'bulk-media', ZIP);
    const invalid = page.getByTestId('bulk-invalid');
    await expect(invalid).toHaveAttribute('data-error', 'invalid_rows');
    await expect(page.getByTestId('bulk-problem-2')).toHaveCount(2);
    await expect(invalid).toContainText(t(lang, 'bulk.reason.image_not_found'));
    await expect(invalid).toContainText(t(lang, 'common.errors.wrong_format'));
    await expect(page.getByTestId('bulk-problem-3')).toContainText(t(lang, 'bulk.reason.duplicate_row'));
    await expect(page.getByRole('button', { name: t(lang, 'bulk.upload') })).toHaveCount(0);
    await expectAccessible(page);
    await page.screenshot({ path: `test-results/bulk-invalid-${lang}.png`, fullPage: true });

    // The corrected file: two new people and one whose email is already in use (only the server knows).
    await chooseMetadata(
      page,
      `${HEADER}${ane},Ane,Etxeberria,BULK-${id}-1,photos/ane.jpg\r\n` +
        `${jon},Jon,Ruiz,BULK-${id}-2,photos/jon.jpg\r\n` +
        `${taken},Miren,Aranburu,BULK-${id}-3,photos/miren.jpg\r\n`,
      true,
    );
    await expect(page.getByTestId('bulk-ready')).toBeVisible();
    await expectAccessible(page);
    await tabTo(page, page.getByRole('button', { name: t(lang, 'bulk.upload') }));
    await page.keyboard.press('Enter');

    const results = page.getByTestId('bulk-results');
    await expect(results).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('bulk-row-1')).toHaveAttribute('data-outcome', 'accepted');
    await expect(page.getByTestId('bulk-row-2')).toHaveAttribute('data-outcome', 'accepted');
    await expect(page.getByTestId('bulk-row-3')).toHaveAttribute('data-outcome', 'rejected');
    await expect(page.getByTestId('bulk-row-3')).toContainText(t(lang, 'common.errors.email_already_in_use'));
    await expectAccessible(page);
    await page.screenshot({ path: `test-results/bulk-results-${lang}.png`, fullPage: true });

    // The result table as csv: the header in the portal's language, one record per row, formulas neutralised.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: t(lang, 'bulk.download') }).click(),
    ]);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const records = parseCsv(csv);
    expect(records[0]).toEqual(
      ['bulk.col.row', 'bulk.col.email', 'bulk.col.outcome', 'bulk.col.reason', 'bulk.col.userId'].map(
        (key) => t(lang, key),
      ),
    );
    expect(records.slice(1).map((r) => [r[0], r[1], r[2]])).toEqual([
      ['1', ane, t(lang, 'bulk.outcome.accepted')],
      ['2', jon, t(lang, 'bulk.outcome.accepted')],
      ['3', taken, t(lang, 'bulk.outcome.rejected')],
    ]);
    expect(records[3]?.[3]).toContain(t(lang, 'common.errors.email_already_in_use'));

    // The good rows are users now: PortalUsers finds each by email.
    await page.goto('/users');
    for (const email of [ane, jon]) {
      await page.getByTestId('users-search').fill(email);
      await page.getByTestId('users-search').press('Enter');
      await expect(page.getByTestId('users').locator('tbody tr')).toHaveCount(1);
      await expect(page.getByTestId('users')).toContainText(email);
    }
  });
}

test('a damaged zip and too many elements are refused before anything is sent', async ({ page }) => {
  const lang: Lang = 'en';
  await openAs(page, 'usermanager', '/bulk-registration', lang);
  await expect(page.locator('[data-screen="AddUsersFromPhotos"]')).toBeVisible();
  const zip = readFileSync(ZIP);
  await chooseMetadata(page, `${HEADER}a@bulk.example.test,Ane,Etxeberria,BULK-Z,photos/ane.jpg\r\n`);
  await page.locator('#bulk-media').setInputFiles({
    name: 'photos.zip',
    mimeType: 'application/zip',
    buffer: zip.subarray(0, zip.length - 30),
  });
  await expect(page.getByTestId('bulk-invalid')).toHaveAttribute('data-error', 'media_corrupt');
  await expect(page.getByTestId('bulk-invalid')).toContainText(t(lang, 'bulk.problem.media_corrupt'));

  await page.locator('#bulk-media').setInputFiles(ZIP);
  const many = Array.from(
    { length: 1001 },
    (_, i) => `p${i}@bulk.example.test,A,B,M-${i},photos/ane.jpg\r\n`,
  );
  await chooseMetadata(page, HEADER + many.join(''));
  await expect(page.getByTestId('bulk-invalid')).toHaveAttribute('data-error', 'too_many_elements');
  await expect(page.getByTestId('bulk-invalid')).toContainText(/1[,.\s]?001/);
  await expectAccessible(page);
});

/**
 * A zip of three photos by their names: a real JPEG, a text file named .jpg, and a real JPEG whose entry's local
 * header is broken (its directory record still lists it).
 */
function photosByBytes(): Buffer {
  const real = unzipSync(readFileSync(ZIP));
  const zip = zipSync(
    {
      'photos/ane.jpg': real['photos/ane.jpg'] as Uint8Array,
      'photos/fake.jpg': new TextEncoder().encode('This is not a photo. '.repeat(500)),
      'photos/broken.jpg': real['photos/jon.jpg'] as Uint8Array,
    },
    { level: 0 },
  );
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let at = 0; ; ) {
    const nameLength = view.getUint16(at + 26, true);
    const start = at + 30 + nameLength + view.getUint16(at + 28, true);
    if (new TextDecoder().decode(zip.subarray(at + 30, at + 30 + nameLength)) === 'photos/broken.jpg') {
      zip[at] = 0;
      break;
    }
    at = start + view.getUint32(at + 18, true);
  }
  return Buffer.from(zip);
}

for (const lang of ['es', 'en', 'eu'] as const) {
  test(`each photo is judged by its bytes before upload, with a message per row (${lang})`, async ({
    page,
  }) => {
    await openAs(page, 'usermanager', '/bulk-registration', lang);
    await expect(page.locator('[data-screen="AddUsersFromPhotos"]')).toBeVisible();
    const id = stamp();
    await chooseMetadata(
      page,
      `${HEADER}ane-${id}@bulk.example.test,Ane,Etxeberria,BYTES-${id}-1,photos/ane.jpg\r\n` +
        `fake-${id}@bulk.example.test,Jon,Ruiz,BYTES-${id}-2,photos/fake.jpg\r\n` +
        `broken-${id}@bulk.example.test,Miren,Aranburu,BYTES-${id}-3,photos/broken.jpg\r\n`,
    );
    await page.locator('#bulk-media').setInputFiles({
      name: 'photos.zip',
      mimeType: 'application/zip',
      buffer: photosByBytes(),
    });
    await expect(page.getByTestId('bulk-invalid')).toHaveAttribute('data-error', 'invalid_rows');
    await expect(page.getByTestId('bulk-problem-1')).toHaveCount(0);
    await expect(page.getByTestId('bulk-problem-2')).toContainText(t(lang, 'bulk.reason.image_not_picture'));
    await expect(page.getByTestId('bulk-problem-3')).toContainText(t(lang, 'bulk.reason.image_corrupt'));
    await expectAccessible(page);
    await page.screenshot({ path: `test-results/bulk-bytes-${lang}.png`, fullPage: true });
  });
}
