import { expect, type Page, test } from '@playwright/test';
import { demoUrl, expectAccessible, logIn, newcomer, port } from './support';

// Sign-in and session journeys through the real login page of the development identity provider, against seeded
// accounts whose password equals their username.

async function startLogin(page: Page, base = '') {
  await page.goto(`${base}/`);
  await page.getByTestId('login').click();
}

async function menuLinks(page: Page): Promise<string[]> {
  await page.getByTestId('menu-toggle').click();
  const panel = page.getByRole('dialog');
  await expect(panel).toBeVisible();
  const names = await panel.getByRole('link').allTextContents();
  await page.keyboard.press('Escape');
  return names.map((n) => n.trim());
}

// Each seeded account: where it lands after login (spec §2 home routing) and exactly the menu it sees.
const accounts = [
  { username: 'newcomer', home: '/landing', menu: ['Inicio'] },
  { username: 'user', home: '/home', menu: ['Inicio', 'Mi perfil'] },
  { username: 'visitor', home: '/my-visits', menu: ['Inicio', 'Mis visitas', 'Nueva visita', 'Mi perfil'] },
  {
    username: 'assistant',
    home: '/portal-management',
    menu: ['Inicio', 'Portal', 'Cuentas IAM', 'Auditoría de accesos'],
  },
  { username: 'receptionist', home: '/portal-management', menu: ['Inicio', 'Portal', 'Visitas'] },
  { username: 'auditor', home: '/portal-management', menu: ['Inicio', 'Portal', 'Auditoría de accesos'] },
  {
    username: 'usermanager',
    home: '/portal-management',
    menu: ['Inicio', 'Portal', 'Usuarios', 'Registrar'],
  },
  { username: 'accountmanager', home: '/portal-management', menu: ['Inicio', 'Portal', 'Cuentas IAM'] },
  {
    username: 'admin',
    home: '/portal-management',
    menu: [
      'Inicio',
      'Portal',
      'Usuarios',
      'Registrar',
      'Visitas',
      'Cuentas IAM',
      'Auditoría de accesos',
      'Actualizar lista de prohibidos',
    ],
  },
];

test.describe('sign-in', () => {
  for (const account of accounts) {
    test(`${account.username} logs in, lands on ${account.home} and sees exactly their menu`, async ({
      page,
    }) => {
      await startLogin(page);
      await logIn(page, account.username);
      await expect(page).toHaveURL(new RegExp(`${account.home}$`));
      await expect(page.getByTestId('logout')).toBeVisible();
      expect(await menuLinks(page)).toEqual(account.menu);
    });
  }

  test('the portal offers an assistant only their own entries', async ({ page }) => {
    await startLogin(page);
    await logIn(page, 'assistant');
    await expect(page).toHaveURL(/\/portal-management$/);
    await expect(page.getByTestId('portal-entries').getByRole('link')).toHaveText([
      'Completar registros',
      'Registro asistido',
      'Auditar accesos',
      'Activar usuarios de otra región',
      'Consultar prohibidos',
      'Cancelar la cuenta de un usuario',
    ]);
    await expectAccessible(page);
  });

  test('a wrong password says so, keeps the username, and the right one then works', async ({ page }) => {
    await startLogin(page);
    await logIn(page, 'user', 'not-the-password');
    await expect(page.getByRole('alert')).toContainText('Usuario o contraseña incorrectos');
    await expect(page.getByLabel(/^usuario/i)).toHaveValue('user');
    await page.getByLabel(/^contraseña/i).fill('user');
    await page.getByRole('button', { name: /^(entrar|iniciar sesión)$/i }).click();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('a guarded screen typed by hand as the wrong account goes to login, which says why', async ({
    page,
  }) => {
    await startLogin(page);
    await logIn(page, 'user');
    await expect(page).toHaveURL(/\/home$/);
    await page.goto('/users');
    await expect(page).toHaveURL(/\/auth\/realms\/gambling\//);
    await expect(page.getByRole('status')).toHaveText(
      'La página que ha abierto necesita otros permisos. Inicie sesión con una cuenta que los tenga.',
    );
    // Signing in there as someone who may see it continues to the screen that was asked for.
    await logIn(page, 'usermanager');
    await expect(page).toHaveURL(/\/users$/);
  });

  test('a guarded screen typed by hand while signed out goes to login, then on to it', async ({ page }) => {
    await page.goto('/audit-accesses');
    // An ordinary sign-in: nothing to explain.
    await expect(page.getByLabel(/^contraseña/i)).toBeVisible();
    await expect(page.getByRole('status')).toHaveCount(0);
    await logIn(page, 'auditor');
    await expect(page).toHaveURL(/\/audit-accesses$/);
  });

  test('logout ends the session at the provider too', async ({ page }) => {
    await startLogin(page);
    await logIn(page, 'receptionist');
    await expect(page).toHaveURL(/\/portal-management$/);
    await page.getByTestId('logout').click();
    await expect(page).toHaveURL(`http://localhost:${port}/`);
    await expect(page.getByTestId('login')).toBeVisible();
    // The provider's session is gone: signing in asks for the password again.
    await page.getByTestId('login').click();
    await expect(page.getByLabel(/^contraseña/i)).toBeVisible();
  });

  test('the login page speaks the portal language', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('language-menu').selectOption('eu');
    await page.getByTestId('login').click();
    await expect(page.getByLabel(/^pasahitza/i)).toBeVisible();
    await expectAccessible(page);
  });

  test('a demo token is refused on gambling calls (tenant isolation)', async ({ page, request }) => {
    await startLogin(page, demoUrl);
    await logIn(page, 'accountmanager');
    await expect(page).toHaveURL(/\/portal-management$/);
    const token = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:'));
      return key
        ? (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token
        : undefined;
    });
    expect(token).toBeTruthy();
    const own = await request.get(`http://localhost:${port}/api/public/accounts`, {
      headers: { 'tenant-id': 'demo', authorization: `Bearer ${token}` },
    });
    expect(own.status()).toBe(200);
    const other = await request.get(`http://localhost:${port}/api/public/accounts`, {
      headers: { 'tenant-id': 'gambling', authorization: `Bearer ${token}` },
    });
    expect(other.status()).toBe(403);
  });
});

const RESET_ACCOUNT = newcomer(30);

test.describe('password reset', () => {
  test('a reset link from the mailbox sets a new password that then logs in', async ({ page }) => {
    await startLogin(page);
    await page.getByRole('link', { name: /olvidado|forgot/i }).click();
    // An account no other journey signs in as (SEED_NEWCOMERS in playwright.config.ts): the new password must not
    // meet a journey that signs in with the seeded one, whatever the order the workers run them in.
    await page.getByLabel(/usuario o correo|username or email/i).fill(RESET_ACCOUNT);
    await page.getByRole('button', { name: /enviar|send/i }).click();
    await expect(page.getByText(/si existe una cuenta|if an account exists/i)).toBeVisible();

    await page.goto('/dev/mailbox');
    const mail = page
      .locator('article, li, tr')
      .filter({ hasText: `${RESET_ACCOUNT}@gambling.example` })
      .first();
    await mail.getByRole('link', { name: /reset/i }).first().click();

    await page.getByLabel(/^nueva contraseña|^new password/i).fill('weak');
    await page.getByLabel(/^repita|^repeat|^confirm/i).fill('weak');
    await page.getByRole('button', { name: /guardar|save|cambiar|change/i }).click();
    await expect(page.getByRole('alert')).toBeVisible();

    await page.getByLabel(/^nueva contraseña|^new password/i).fill('Nerea-2026');
    await page.getByLabel(/^repita|^repeat|^confirm/i).fill('Nerea-2026');
    await page.getByRole('button', { name: /guardar|save|cambiar|change/i }).click();
    await expect(page.getByText(/contraseña cambiada|password changed|actualizada|updated/i)).toBeVisible();

    await startLogin(page);
    await logIn(page, RESET_ACCOUNT, RESET_ACCOUNT);
    await expect(page.getByRole('alert')).toContainText('Usuario o contraseña incorrectos');
    await logIn(page, RESET_ACCOUNT, 'Nerea-2026');
    await expect(page).toHaveURL(/\/landing$/);
  });
});

test.describe('API rules', () => {
  test('a 403 leads to exactly one renewal and one retry, and nothing more', async ({ page }) => {
    await startLogin(page);
    await logIn(page, 'accountmanager');
    await expect(page).toHaveURL(/\/portal-management$/);
    let accountCalls = 0;
    let renewals = 0;
    page.on('request', (request) => {
      if (
        request.url().includes('/token') &&
        (request.postData() ?? '').includes('grant_type=refresh_token')
      ) {
        renewals += 1;
      }
    });
    await page.route('**/api/public/accounts**', async (route) => {
      accountCalls += 1;
      await route.fulfill({
        status: 403,
        contentType: 'application/problem+json',
        body: JSON.stringify({ status: 403, title: 'Forbidden', detail: 'forbidden' }),
      });
    });
    await page.getByTestId('menu-toggle').click();
    await page.getByRole('dialog').getByRole('link', { name: 'Cuentas IAM' }).click();
    await expect(page.getByText('No se han podido cargar las cuentas.')).toBeVisible();
    await page.waitForTimeout(1500);
    expect(accountCalls).toBe(2);
    expect(renewals).toBe(1);
    await expect(page).toHaveURL(/\/accounts$/);
  });

  test('a 401 signs the person out', async ({ page }) => {
    await startLogin(page);
    await logIn(page, 'accountmanager');
    await expect(page).toHaveURL(/\/portal-management$/);
    await page.route('**/api/public/accounts**', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/problem+json',
        body: JSON.stringify({ status: 401, title: 'Unauthorized', detail: 'invalid_token' }),
      }),
    );
    await page.getByTestId('menu-toggle').click();
    await page.getByRole('dialog').getByRole('link', { name: 'Cuentas IAM' }).click();
    await expect(page).toHaveURL(`http://localhost:${port}/`);
    await expect(page.getByTestId('login')).toBeVisible();
    const stored = await page.evaluate(() =>
      Object.keys(localStorage).filter((k) => k.startsWith('oidc.user:')),
    );
    expect(stored).toEqual([]);
  });

  test('the IAM accounts list searches and pages', async ({ page }) => {
    await startLogin(page);
    await logIn(page, 'accountmanager');
    await page.goto('/accounts');
    await expect(page.getByTestId('accounts-summary')).toContainText(/de \d+/);
    await page.getByLabel('Buscar por usuario, nombre o correo').fill('visitor');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect(page.getByTestId('accounts').getByRole('listitem')).toHaveCount(1);
    await expect(page.getByTestId('accounts')).toContainText('visitor@gambling.example');
    await page.getByLabel('Buscar por usuario, nombre o correo').fill('nobody-at-all');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect(page.getByTestId('accounts-empty')).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe('renewal (20-second access tokens)', () => {
  const shortLived = `http://localhost:${port + 1}`;

  test('a person stays on the page across several renewals without losing what they had open', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    let renewals = 0;
    page.on('requestfinished', async (request) => {
      if (
        request.url().endsWith('/token') &&
        (request.postData() ?? '').includes('grant_type=refresh_token')
      ) {
        const response = await request.response();
        if (response?.ok()) renewals += 1;
      }
    });
    await startLogin(page, shortLived);
    await logIn(page, 'accountmanager');
    await expect(page).toHaveURL(/\/portal-management$/);
    await page.goto(`${shortLived}/accounts`);
    await page.getByLabel('Buscar por usuario, nombre o correo').fill('visitor');
    await expect.poll(() => renewals, { timeout: 60_000, intervals: [1000] }).toBeGreaterThanOrEqual(3);
    await expect(page).toHaveURL(/\/accounts$/);
    await expect(page.getByLabel('Buscar por usuario, nombre o correo')).toHaveValue('visitor');
    // The renewed token works: the search runs with it.
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect(page.getByTestId('accounts')).toContainText('visitor@gambling.example');
  });

  test('a revoked refresh token makes the next renewal fail and sends the person to login', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await startLogin(page, shortLived);
    await logIn(page, 'accountmanager');
    await expect(page).toHaveURL(/\/portal-management$/);
    await page.goto(`${shortLived}/accounts`);
    // The list has loaded before the revocation: a call made after it would be refused at once (the grant has
    // ended, so the access token goes with it: a 401 that signs the person out), and this journey is about
    // the renewal that follows.
    await expect(page.getByTestId('accounts')).toContainText('accountmanager@gambling.example');
    const refreshToken = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:'));
      return key
        ? (JSON.parse(localStorage.getItem(key) ?? '{}') as { refresh_token?: string }).refresh_token
        : undefined;
    });
    expect(refreshToken).toBeTruthy();
    const revoked = await page.request.post(`${shortLived}/auth/realms/gambling/token/revocation`, {
      form: { token: refreshToken ?? '', token_type_hint: 'refresh_token', client_id: 'portal' },
    });
    expect(revoked.ok()).toBe(true);
    // The login page asks for the password again, even though the provider's own session is alive, and says why…
    await expect(page).toHaveURL(/\/auth\/realms\/gambling\//, { timeout: 30_000 });
    await expect(page.getByLabel(/^contraseña/i)).toBeVisible();
    await expect(page.getByRole('status')).toHaveText(
      'Su sesión ha terminado. Inicie sesión de nuevo para seguir donde estaba.',
    );
    // …and signing in brings the person back to where they were.
    await logIn(page, 'accountmanager');
    await expect(page).toHaveURL(/\/accounts$/);
  });
});
