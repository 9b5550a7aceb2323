import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { accessTokenOf, expectAccessible, port } from './support';

// CheckInterdictions (issue 12) as the seeded `assistant` of gambling (an assistant who is not a user manager):
// each of the five results, decided by the server against the prohibited lists. The enrolled members member-07 and
// member-08 (SEED_MEMBERS, born 1988-03-09, DNI 400000NN) are only read here; member-08 is put on a list of the
// es-ct legal domain, which no other journey uses.

const base = `http://localhost:${port}`;
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const dniOf = (n: number) => {
  const number = 40_000_000 + n;
  return `${number}${LETTERS[number % 23]}`;
};
const BIRTH = '1988-03-09';

async function logIn(page: Page, username: string) {
  await page.getByLabel(/^(usuario|username|erabiltzailea)/i).fill(username);
  await page.getByLabel(/^(contraseña|password|pasahitza)/i).fill(username);
  await page.getByRole('button', { name: /^(entrar|log in|sign in|sartu|hasi saioa)$/i }).click();
}

async function signIn(page: Page, username: string) {
  await page.goto('/');
  await page.getByTestId('login').click();
  await logIn(page, username);
  await expect(page.locator('[data-screen="PortalManagement"]')).toBeVisible();
}

async function check(page: Page, idNumber: string, birthDate: string) {
  await page.getByTestId('interdictions-id_number').fill(idNumber);
  await page.getByTestId('interdictions-birth_date').fill(birthDate);
  await page.getByTestId('interdictions-submit').click();
}

/** Puts member-08 on the es-ct list (the same whole list each time: uploads replace it, so this is idempotent). */
async function listMember8(request: APIRequestContext) {
  const token = await accessTokenOf(request, base, 'gambling', 'admin');
  const upload = await request.post(`${base}/api/public/watchlists`, {
    headers: { authorization: `Bearer ${token}`, 'tenant-id': 'gambling' },
    multipart: {
      domain: 'es-ct',
      watch_type: 'interdicted',
      upload: {
        name: 'es-ct.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`dni;fecha_nacimiento\n${dniOf(8)};09/03/1988\n`),
      },
    },
  });
  expect(upload.status()).toBe(201);
}

test.describe('CheckInterdictions', () => {
  test.use({ baseURL: base });

  test('an assistant gets each of the five results, and the form asks for what is missing', async ({
    page,
    request,
  }) => {
    await listMember8(request);

    await signIn(page, 'assistant');
    await page.getByTestId('portal-checkProhibited').click();
    await expect(page.locator('[data-screen="CheckInterdictions"]')).toBeVisible();
    await expectAccessible(page);

    await page.getByTestId('interdictions-submit').click();
    await expect(page.getByTestId('interdictions-id_number')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('interdictions-birth_date')).toHaveAttribute('aria-invalid', 'true');

    const cases: [string, string, string][] = [
      ['Z9999999H', '1980-01-01', 'user_not_found'],
      [dniOf(7), '2015-06-01', 'underaged'],
      [dniOf(7), '1950-01-01', 'indeterminate'],
      [dniOf(7), BIRTH, 'granted'],
      [dniOf(8), BIRTH, 'denied'],
    ];
    for (const [idNumber, birthDate, result] of cases) {
      await check(page, idNumber, birthDate);
      await expect(page.getByTestId('interdictions-result')).toHaveAttribute('data-result', result);
    }
    await expect(page.getByTestId('interdictions-result')).toContainText(/prohibidos/);
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/check-interdictions-es.png', fullPage: true });
  });

  for (const [locale, denied] of [
    ['en', /prohibited list/],
    ['eu', /debekatuen zerrenda/],
  ] as const) {
    test(`in ${locale}: the screen reads in the language and is accessible`, async ({ page, request }) => {
      await listMember8(request);
      await page.goto('/');
      await page.evaluate((lang) => localStorage.setItem('portal.locale', lang), locale);
      await page.goto('/check-interdictions');
      await logIn(page, 'assistant');
      await expect(page.locator('[data-screen="CheckInterdictions"]')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await check(page, dniOf(8), BIRTH);
      const result = page.getByTestId('interdictions-result');
      await expect(result).toHaveAttribute('data-result', 'denied');
      await expect(result).toContainText(denied);
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/check-interdictions-${locale}.png`, fullPage: true });
    });
  }

  test('a user manager does not reach it', async ({ page }) => {
    await signIn(page, 'usermanager');
    await expect(page.getByTestId('portal-checkProhibited')).toHaveCount(0);
  });
});
