import { expect, test } from '@playwright/test';
import { brandColourOf, demoUrl, expectAccessible, withTenantSettings } from './support';

test.describe('tenants', () => {
  test('gambling and demo show their own title, logo, brand colour and texts', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('welcome-title')).toHaveText('Bienvenido a Portal de identidad');
    await expect(page).toHaveTitle('Portal de identidad');
    await expect(page.getByTestId('tenant-logo')).toHaveAttribute('src', '/tenants/gambling/logo.svg');
    expect(await brandColourOf(page, 'start')).toBe('rgb(13, 85, 255)');

    await page.goto(demoUrl);
    await expect(page.getByTestId('welcome-title')).toHaveText('Bienvenido a Demo Access');
    await expect(page).toHaveTitle('Demo Access');
    await expect(page.getByTestId('tenant-logo')).toHaveAttribute('src', '/tenants/demo/logo.svg');
    expect(await brandColourOf(page, 'start')).toBe('rgb(15, 123, 95)');
    // The demo tenant's own text override replaces the portal's description.
    await expect(page.getByText('instalaciones de la demostración')).toBeVisible();
  });

  test('an unknown tenant gets an error screen that says so', async ({ page }) => {
    await page.goto(demoUrl.replace('demo.', 'nobody.'));
    const error = page.getByTestId('tenant-error');
    await expect(error).toHaveAttribute('data-problem', 'unknown-tenant');
    await expect(error).toContainText('nobody');
  });

  test('malformed settings get an error screen naming the problem', async ({ page }) => {
    await withTenantSettings(page, (settings) => ({
      ...settings,
      locales: ['es', 'fr'],
      theme: { brandColor: 'blue' },
    }));
    await page.goto('/');
    const error = page.getByTestId('tenant-error');
    await expect(error).toHaveAttribute('data-problem', 'invalid-settings');
    await expect(error).toContainText('locales[1]');
    await expect(error).toContainText('theme.brandColor');
    await expect(error).toContainText('theme.logo');
  });
});

test.describe('languages', () => {
  test('the dropdown is absent when the tenant offers one language', async ({ page }) => {
    await withTenantSettings(page, (settings) => ({ ...settings, locales: ['en'] }));
    await page.goto('/');
    await expect(page.getByTestId('welcome-title')).toHaveText('Welcome to Identity portal');
    await expect(page.getByTestId('language-menu')).toHaveCount(0);
  });

  test('gambling offers es, en and eu, and the choice survives a reload', async ({ page }) => {
    await page.goto('/');
    const menu = page.getByTestId('language-menu');
    await expect(menu.locator('option')).toHaveText(['Español', 'English', 'Euskara']);
    await menu.selectOption('eu');
    await expect(page.getByTestId('welcome-title')).toHaveText('Ongi etorri Nortasun ataria webgunera');
    await expect(page).toHaveTitle('Nortasun ataria');
    await expect(page.locator('html')).toHaveAttribute('lang', 'eu');
    await page.reload();
    await expect(page.getByTestId('welcome-title')).toHaveText('Ongi etorri Nortasun ataria webgunera');
    await expect(page.getByTestId('language-menu')).toHaveValue('eu');
  });

  test('demo offers only es and en', async ({ page }) => {
    await page.goto(demoUrl);
    await expect(page.getByTestId('language-menu').locator('option')).toHaveText(['Español', 'English']);
    await page.getByTestId('language-menu').selectOption('en');
    await expect(page.getByTestId('welcome-title')).toHaveText('Welcome to Demo Access');
  });
});

test.describe('shell', () => {
  test('signed in, the header keeps logo, language, log out and menu on one line at 412 and 360 px in es, en and eu', async ({
    page,
  }) => {
    // Its own account: choosing a language while signed in is kept on the account, and the sign-in journeys of
    // session.spec.ts expect `newcomer` in Spanish.
    await page.goto('/');
    await page.getByTestId('login').click();
    await page.getByLabel(/^usuario/i).fill('newcomer-27');
    await page.getByLabel(/^contraseña/i).fill('newcomer-27');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByTestId('enrolment-start')).toBeVisible();
    const names = { es: 'Cerrar sesión', en: 'Log out', eu: 'Saioa itxi' } as const;
    for (const width of [412, 360]) {
      await page.setViewportSize({ width, height: 800 });
      for (const lang of ['es', 'en', 'eu'] as const) {
        await page.getByTestId('language-menu').selectOption(lang);
        const logout = page.getByTestId('logout');
        await expect(logout).toHaveAccessibleName(names[lang]);
        const [out, menu, logo, header] = await Promise.all([
          logout.boundingBox(),
          page.getByTestId('menu-toggle').boundingBox(),
          page.getByTestId('tenant-logo').boundingBox(),
          page.locator('header').boundingBox(),
        ]);
        if (!out || !menu || !logo || !header) throw new Error('the header is not drawn');
        // One line: log out no taller than a touch target, beside the menu, inside the screen; the header stays 64 px.
        expect(out.height, `${lang} at ${width}`).toBeLessThanOrEqual(44);
        expect(Math.abs(out.y + out.height / 2 - (menu.y + menu.height / 2))).toBeLessThan(1);
        expect(menu.x + menu.width).toBeLessThanOrEqual(width);
        expect(header.height).toBeLessThanOrEqual(65);
        expect(logo.width).toBeGreaterThan(90);
        // No visible text of the header wraps (the words of a sr-only label are not drawn).
        const wrapped = await page.locator('header').evaluate((element) => {
          const found: string[] = [];
          const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const parent = node.parentElement;
            const box = parent?.getBoundingClientRect();
            if (!node.textContent?.trim() || !box || box.width <= 1 || box.height <= 1) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
            if (lines.size > 1) found.push(node.textContent);
          }
          return found;
        });
        expect(wrapped, `${lang} at ${width}`).toEqual([]);
      }
    }
  });

  test('an unknown path lands on the root', async ({ page }) => {
    await page.goto('/no/such/place?x=1');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('welcome-title')).toBeVisible();
  });

  test('the logo returns home and the menu opens, closes with Escape or its button, and is labelled', async ({
    page,
  }) => {
    await page.goto('/reset-credentials');
    await page.getByTestId('tenant-logo').click();
    await expect(page).toHaveURL(/\/$/);
    await page.getByTestId('menu-toggle').click();
    const panel = page.getByRole('dialog', { name: 'Menú' });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('link', { name: 'Inicio' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(page.getByTestId('menu-toggle')).toBeFocused();
    await page.getByTestId('menu-toggle').click();
    await panel.getByRole('button', { name: 'Cerrar el menú' }).click();
    await expect(panel).toBeHidden();
  });

  test('the error screen only continues to a path of this portal', async ({ page }) => {
    await page.goto(`/error/${encodeURIComponent('https://evil.example/steal')}/forbidden`);
    await expect(page.getByText('No tiene permiso para ver esta página.')).toBeVisible();
    await expect(page.getByTestId('error-continue')).toHaveAttribute('href', '/');
    await page.goto(`/error/${encodeURIComponent('/landing')}/not-found`);
    await expect(page.getByTestId('error-continue')).toHaveAttribute('href', '/landing');
  });

  test('the error screen is accessible in es, en and eu', async ({ page }) => {
    await page.goto(`/error/${encodeURIComponent('/landing')}/session-expired`);
    for (const locale of ['es', 'en', 'eu']) {
      await page.getByTestId('language-menu').selectOption(locale);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page.locator('[data-screen="ErrorScreen"]')).toHaveAttribute(
        'data-reason',
        'session-expired',
      );
      await expectAccessible(page);
    }
  });

  test('the welcome screen is accessible in es, en and eu', async ({ page }) => {
    await page.goto('/');
    for (const locale of ['es', 'en', 'eu']) {
      await page.getByTestId('language-menu').selectOption(locale);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      // The welcome screen is a lazy chunk: judge it once it is there, not the spinner before it.
      await expect(page.getByTestId('welcome-title')).toBeVisible();
      await expectAccessible(page);
    }
  });
});

test.describe('server', () => {
  test('serves the portal with a Content-Security-Policy', async ({ request }) => {
    const response = await request.get('/');
    const csp = response.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(response.headers()['x-content-type-options']).toBe('nosniff');
    expect(response.headers()['referrer-policy']).toBeTruthy();
  });

  test("the page's scripts each ask to be compiled as they arrive: the compile hint is their first line", async ({
    request,
  }) => {
    const html = await (await request.get('/')).text();
    const scripts = [
      ...html.matchAll(/<(?:script type="module"|link rel="modulepreload")[^>]* (?:src|href)="([^"]+)"/g),
    ].map((match) => match[1] ?? '');
    expect(scripts.length).toBeGreaterThan(1);
    for (const src of scripts) {
      const code = await (await request.get(src)).text();
      expect(code.split('\n')[0], src).toBe('//# allFunctionsCalledOnLoad');
    }
  });

  test('the page runs under that policy without violations', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto('/');
    await expect(page.getByTestId('welcome-title')).toBeVisible();
    await page.getByTestId('menu-toggle').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(violations).toEqual([]);
  });
});
