import { readFileSync } from 'node:fs';
import { type Browser, devices, expect, type Page, test } from '@playwright/test';
import { unzip } from '../../server/accounts/zip';
import { expectFocusTrapped, tabThrough, tabTo, typeInto } from './keyboard';
import {
  accessTokenOf,
  expectAccessible,
  expectPaintGaveWay,
  jwtPayload,
  layoutShiftOf,
  logIn,
  openAs,
  port,
  signInFromWelcome,
  watchLayoutShifts,
  watchPaint,
} from './support';

// The enrolled person's account: UserProfile, download my data, the language saved to the account, ResetCredentials
// through the mailbox link, DeleteAccount. Each journey has a person of its own: the enrolled accounts member-01…
// that SEED_MEMBERS seeds (playwright.config.ts), each with a user record, a 15-day QR and evidence images;
// member-NN's DNI is 400000NN with its letter (server/db/seed-people.ts).

const base = `http://localhost:${port}`;
const member = (n: number) => `member-${String(n).padStart(2, '0')}`;
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const dniOf = (n: number) => {
  const number = 40_000_000 + n;
  return `${number}${LETTERS[number % 23]}`;
};

/** An enrolled member signs in from Welcome and lands on their home. */
async function signInHome(page: Page, username: string) {
  await signInFromWelcome(page, username);
  await expect(page).toHaveURL(/\/home$/);
}

/** The newest reset link the mailbox holds for an address. */
async function resetLinkFor(page: Page, email: string): Promise<string> {
  const html = await (await page.request.get('/dev/mailbox')).text();
  const article = html.split('<article>').find((part) => part.includes(`<strong>${email}</strong>`));
  const link = /href="([^"]*\/reset-credentials\?token=[\w-]+)"/.exec(article ?? '')?.[1];
  if (!link) throw new Error(`no reset mail for ${email}`);
  return link;
}

const jwtSub = (token: string) => jwtPayload(token).sub as string;

async function apiGet(page: Page, token: string, path: string) {
  return page.request.get(`${base}/api${path}`, {
    headers: { authorization: `Bearer ${token}`, 'tenant-id': 'gambling' },
  });
}

async function phone(browser: Browser) {
  return browser.newContext({ ...devices['Pixel 7'], baseURL: base });
}

test.describe('the enrolled person’s account', () => {
  test('the profile shows their data, and "download my data" saves a zip that holds their selfie; neither home nor profile moves as it loads', async ({
    page,
  }) => {
    // On a phone, the QR of home and the profile's data arrive after the screen is drawn: what was drawn before
    // them stays where it was (a layout shift of 0.05 at most; 0.1 is where a person notices).
    await watchLayoutShifts(page);
    await signInHome(page, member(1));
    await expect(page.getByTestId('accreditation-qr')).toBeVisible();
    await expect(page.getByTestId('home-profile')).toBeVisible();
    expect(await layoutShiftOf(page)).toBeLessThanOrEqual(0.05);
    await page.getByTestId('menu-toggle').click();
    await page.getByRole('dialog').getByRole('link', { name: 'Mi perfil' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    const data = page.getByTestId('profile-personal-data');
    await expect(data).toContainText('Miren Socia 1');
    await expect(data).toContainText(dniOf(1));
    await expect(data).toContainText('09/03/1988');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('profile-download-data').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d\d-\d\d\.zip$/);
    await expect(page.getByTestId('profile-data-status')).toHaveText('Archivo descargado.');
    const entries = unzip(new Uint8Array(readFileSync((await download.path()) ?? '')));
    expect([...entries.keys()]).toEqual(
      expect.arrayContaining([
        'user.json',
        'credentials.json',
        'visits.json',
        'audit.json',
        'images/selfie.jpg',
      ]),
    );
    const selfie = entries.get('images/selfie.jpg') ?? new Uint8Array();
    expect([...selfie.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const user = JSON.parse(new TextDecoder().decode(entries.get('user.json'))) as { id_number: string };
    expect(user.id_number).toBe(dniOf(1));

    // The profile opened as a page of its own (a link from elsewhere, a reload): no click just before the data.
    await page.reload();
    await expect(page.getByTestId('profile-personal-data')).toContainText(dniOf(1));
    await expect(page.getByTestId('profile-download-data')).toBeEnabled();
    expect(await layoutShiftOf(page)).toBeLessThanOrEqual(0.05);

    // From the keyboard: the button keeps the focus while the file is prepared (unavailable, not disabled), and
    // after it, where the person left it.
    const button = page.getByTestId('profile-download-data');
    await button.focus();
    const [again] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(again.suggestedFilename()).toMatch(/^my-data-\d{4}-\d\d-\d\d\.zip$/);
    await expect(page.getByTestId('profile-data-status')).toHaveText('Archivo descargado.');
    await expect(button).toBeFocused();
    await expect(button).toBeEnabled();
  });

  test('on a phone, home, the profile and the face accreditation come painted with the page, and nothing moves when the app takes over', async ({
    browser,
  }) => {
    // The server paints the screen's frame into the HTML (server/shell.ts): where the header, the heading and the
    // screen's first state stand once the page is parsed, before any of the app's JS has run, is where the app
    // draws them.
    const context = await phone(browser);
    const page = await context.newPage();
    await watchLayoutShifts(page);
    const frame = ['header img', 'header button[aria-haspopup]', 'h1'];
    await watchPaint(page, [...frame, 'h2', 'main p', 'main button']);
    await signInHome(page, member(7));
    for (const [path, heading, watched, drawn] of [
      ['/home', /^Hola, /, [...frame, 'h2'], page.getByTestId('accreditation-qr')],
      [
        '/profile',
        /^Mi perfil$/,
        [...frame, 'h2'],
        page.getByTestId('profile-personal-data').getByText(dniOf(7)),
      ],
      [
        '/accredit-face',
        /^Acreditación facial$/,
        [...frame, 'main p', 'main button'],
        page.getByTestId('accredit-request'),
      ],
    ] as const) {
      await page.goto(path);
      await expect(drawn).toBeVisible();
      await expectPaintGaveWay(page, { heading, selectors: watched, label: path });
      expect(await layoutShiftOf(page), path).toBeLessThanOrEqual(0.05);
    }
    await context.close();
  });

  test('a language chosen in the profile comes back after signing out and in again', async ({
    page,
    browser,
  }) => {
    await signInHome(page, member(2));
    await page.goto('/profile');
    const saved = page.waitForResponse(
      (res) =>
        /\/api\/internal\/accounts\/[\w-]+\/locale$/.test(res.url()) && res.request().method() === 'PUT',
    );
    await page.getByTestId('profile-language').selectOption('eu');
    expect((await saved).status()).toBe(204);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nire profila');
    await page.getByTestId('logout').click();
    await expect(page).toHaveURL(`${base}/`);

    // Another phone, with nothing stored: the language is the account's.
    const context = await phone(browser);
    const other = await context.newPage();
    await other.goto('/');
    await expect(other.locator('html')).toHaveAttribute('lang', 'es');
    await other.getByTestId('login').click();
    await logIn(other, member(2));
    await expect(other).toHaveURL(/\/home$/);
    await expect(other.locator('html')).toHaveAttribute('lang', 'eu');
    await expect(other.getByTestId('language-menu')).toHaveValue('eu');
    await context.close();
  });

  test('a reset through the mailbox link revokes the old QR and shows a new one; the link works once', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const username = member(3);
    const email = `${username}@gambling.example`;
    const token = await accessTokenOf(base, 'gambling', username);
    const profile = (await (
      await apiGet(page, token, `/internal/accounts/${jwtSub(token)}/profile`)
    ).json()) as {
      user: { user_id: string };
    };
    const userId = profile.user.user_id;
    const before = (await (await apiGet(page, token, `/public/credentials/${userId}`)).json()) as {
      credentials: Record<string, { state: string }>;
    };
    const [oldSid] = Object.keys(before.credentials);

    // Signed out, the person asks for a reset by email.
    await page.goto('/reset-credentials');
    await page.getByTestId('reset-credentials-email').fill(email);
    await page.getByTestId('reset-credentials-submit').click();
    await expect(page.getByTestId('reset-credentials-sent')).toBeVisible();
    const link = await resetLinkFor(page, email);
    expect(link.startsWith(`${base}/reset-credentials?token=`)).toBe(true);

    // The link asks them to sign in, and comes back to finish.
    await page.goto(link);
    await page.getByTestId('reset-credentials-login').click();
    await logIn(page, username);
    await expect(page.getByTestId('reset-credentials-done')).toBeVisible();
    await expect(page.getByTestId('reset-credentials-done')).toContainText('Se ha anulado 1 credencial.');
    const qr = page.getByTestId('reset-credentials-qr');
    await expect(qr).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/account-reset-done-es.png', fullPage: true });
    const newSid = await qr.getAttribute('data-sid');
    expect(newSid).not.toBe(oldSid);

    // The old QR is refused; the new one is valid.
    const old = (await (
      await apiGet(page, token, `/public/credentials/${userId}/sids/${oldSid}`)
    ).json()) as {
      state: string;
      valid: boolean;
    };
    expect(old).toMatchObject({ state: 'revoked', valid: false });
    const fresh = await apiGet(page, token, `/public/credentials/${userId}/sids/${newSid}`);
    expect(await fresh.json()).toMatchObject({ state: 'active', valid: true });

    // The same link a second time is refused.
    await page.goto(link);
    await expect(page.getByTestId('reset-credentials-refused')).toHaveAttribute(
      'data-refusal',
      'reset_link_used',
    );
    await expectAccessible(page);
  });

  test('deleting the account: a wrong DNI/NIE is refused in the server’s words, the right one signs out for good', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const username = member(4);
    await signInHome(page, username);
    await page.goto('/profile');
    // As a person would, once the profile has loaded (its download button waits for it, disabled).
    await expect(page.getByTestId('profile-personal-data')).toBeVisible();
    await expect(page.getByTestId('profile-download-data')).toBeEnabled();
    // With the keyboard alone: the profile's controls in reading order, then DeleteAccount.
    await tabTo(page, page.getByTestId('profile-language'));
    await tabThrough(page, [
      page.getByTestId('profile-download-data'),
      page.getByTestId('profile-reset-credentials'),
      page.getByTestId('profile-delete-account'),
    ]);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/delete-account$/);
    const idNumber = page.getByTestId('delete-account-id-number');

    // A value no record can hold (other than letters and digits) never leaves the phone.
    await typeInto(page, idNumber, '1234/5');
    await page.keyboard.press('Enter');
    await expect(page.getByText('El formato no es válido.')).toBeVisible();

    // Enter in the field asks first; Escape leaves the dialog with the focus back in the field.
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('12345678Z');
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('delete-account-confirm');
    await expect(dialog).toBeVisible();
    await expectFocusTrapped(page, dialog);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(idNumber).toBeFocused();
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByTestId('delete-account-confirm-yes'));
    await page.keyboard.press('Enter');
    const refused = page.getByTestId('delete-account-refused');
    await expect(refused).toHaveAttribute('data-refusal', 'id_mismatch');
    await expect(refused).toContainText('El DNI / NIE no coincide con el de su cuenta.');
    await expect(page.getByTestId('delete-account-detail')).toHaveText(
      'El DNI/NIE indicado no es el que consta en esta cuenta.',
    );
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/account-delete-refused-es.png', fullPage: true });

    await typeInto(page, idNumber, dniOf(4));
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByTestId('delete-account-confirm-yes'));
    await page.keyboard.press('Enter');
    // Signed out at the provider, on the public welcome.
    await expect(page).toHaveURL(`${base}/`, { timeout: 30_000 });
    await expect(page.getByTestId('login')).toBeVisible();
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('portal.enrolment'))),
    ).toEqual([]);

    // Signing in again starts a new enrolment: the provider asks for the password, and home is Landing.
    await page.getByTestId('login').click();
    await logIn(page, username);
    await expect(page).toHaveURL(/\/landing$/);
  });

  for (const [index, locale] of (['es', 'en', 'eu'] as const).entries()) {
    test(`UserProfile, DeleteAccount and ResetCredentials are accessible in ${locale}`, async ({ page }) => {
      test.setTimeout(120_000);
      const username = member(5 + index);
      // Signed in by the code flow outside the page: the sign-in screens are the other journeys'.
      await openAs(page, username, '/profile', locale);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page.getByTestId('profile-personal-data')).toBeVisible();
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/account-profile-${locale}.png`, fullPage: true });

      await page.getByTestId('profile-delete-account').click();
      await expect(page.getByTestId('delete-account-form')).toBeVisible();
      await expectAccessible(page);
      await page.getByTestId('delete-account-id-number').fill(dniOf(5 + index));
      await page.getByTestId('delete-account-submit').click();
      await expect(page.getByTestId('delete-account-confirm')).toBeVisible();
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/account-delete-${locale}.png` });
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('delete-account-confirm')).toBeHidden();

      await page.goto('/reset-credentials');
      await expect(page.getByTestId('reset-credentials-email')).toHaveValue(`${username}@gambling.example`);
      await expectAccessible(page);
      await page.getByTestId('reset-credentials-submit').click();
      await expect(page.getByTestId('reset-credentials-sent')).toBeVisible();
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/account-reset-${locale}.png` });
    });
  }
});
