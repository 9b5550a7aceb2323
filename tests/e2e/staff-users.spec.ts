import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { STAFF_ACTIONS_CSV_COLUMNS } from '../../contract/api/staff-actions';
import { parseCsv } from '../../contract/domain/csv';
import { seededUser } from '../../server/db/seed-users';
import { expectFocusVisible, tabTo } from './keyboard';
import {
  accessTokenOf,
  expectAccessible,
  expectPaintGaveWay,
  layoutShiftOf,
  openAs,
  port,
  t,
  watchLayoutShifts,
  watchPaint,
} from './support';

// Staff users through the real portal: a user manager finds a seeded user by national id and by email, opens every
// tab and evidence of the detail, deactivates and reactivates the user's credentials; an account manager completes a
// pending onboarding; the auditor finds the selfie read and the deactivation in the record of staff actions and
// exports them; an admin deletes all data of the demo tenant behind the typed-name dialog, and the API then
// has no user and no image. axe on every screen in es, en and eu.

async function search(page: Page, text: string) {
  await page.getByTestId('users-search').fill(text);
  await page.getByTestId('users-search').press('Enter');
}

test.describe('staff users', () => {
  test('a user manager finds a user by national id and email and manages their credentials', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const person = seededUser('gambling', 17);
    await openAs(page, 'usermanager', '/users', 'es');
    await expect(page.getByTestId('users').locator('tbody tr')).toHaveCount(20);
    await expectAccessible(page);

    await search(page, 'no es nada');
    await expect(page.getByText(t('es', 'users.searchInvalid'))).toBeVisible();

    await search(page, person.id_number.toLowerCase());
    await expect(page.getByTestId('users').locator('tbody tr')).toHaveCount(1);
    await expect(page.getByTestId('users')).toContainText(person.acs_id);
    await search(page, person.email);
    await expect(page.getByTestId('users').locator('tbody tr')).toHaveCount(1);
    await page.getByRole('link', { name: `${person.last_name}, ${person.first_name}` }).click();

    await expect(page.locator('[data-screen="PortalUserDetail"]')).toBeVisible();
    await expect(page.getByTestId('user-personal')).toContainText(person.id_number);
    // Shown DD/MM/YYYY (spec §9), the API's YYYY-MM-DD turned round.
    await expect(page.getByTestId('user-personal')).toContainText(
      person.birth_date.split('-').reverse().join('/'),
    );
    await expectAccessible(page);
    await page.getByTestId('user-tab-security').click();
    await expect(page.getByTestId('user-security').locator('[data-result]')).toHaveCount(5);
    for (const kind of ['selfie', 'obverse', 'reverse'] as const) {
      await page.getByTestId(`user-tab-${kind}`).click();
      const image = page.getByTestId(`user-evidence-${kind}`);
      await expect(image).toBeVisible();
      expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    }
    await expectAccessible(page);

    await page.getByTestId('user-tab-credentials').click();
    await expect(page.getByTestId('user-activated')).toHaveAttribute('data-active', 'true');
    await page.getByTestId('user-deactivate').click();
    await expect(page.getByTestId('user-activated')).toHaveAttribute('data-active', 'false');
    await expectAccessible(page);
    await page.getByTestId('user-activate').click();
    await expect(page.getByTestId('user-activated')).toHaveAttribute('data-active', 'true');

    // The auditor finds what the user manager did to this person in the record of staff actions, and exports it.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await openAs(page, 'auditor', '/audit-accesses', 'es');
    await page.getByTestId('audit-tab-staff').click();
    await page.getByTestId('staff-actions-person').fill(person.id_number);
    await page.getByTestId('staff-actions-apply').click();
    const rows = page.getByTestId('staff-action-row');
    await expect(rows.filter({ hasText: t('es', 'staffActions.action.user.deactivate') })).toHaveCount(1);
    await expect(rows.filter({ hasText: t('es', 'staffActions.action.evidence.read') })).toHaveCount(3);
    await expect(rows.first()).toContainText(`${person.first_name} ${person.last_name}`);
    await expect(rows.first()).toContainText(t('es', 'staffActions.role.usermanager'));
    await expectAccessible(page);
    const download = page.waitForEvent('download');
    await page.getByTestId('staff-actions-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^staff-actions-.*\.csv$/);
    const [header, ...records] = parseCsv(readFileSync((await file.path()) as string, 'utf8'));
    expect(header).toEqual([...STAFF_ACTIONS_CSV_COLUMNS]);
    expect(records.map((record) => record[4]).sort()).toEqual([
      'evidence.read',
      'evidence.read',
      'evidence.read',
      'user.activate',
      'user.deactivate',
    ]);
    expect(
      records.every((record) => record[2] === 'usermanager' && record[6]?.includes(person.first_name)),
    ).toBe(true);
  });

  test("the portal's menu comes with its heading painted by the server; the greeting and the entries follow below it, and nothing painted moves", async ({
    page,
  }) => {
    await watchLayoutShifts(page);
    const selectors = ['header img', 'header button[aria-haspopup]', 'h1'];
    await watchPaint(page, selectors);
    await openAs(page, 'admin', '/portal-management');
    await page.reload();
    await expect(page.getByTestId('portal-entries').getByRole('link')).toHaveCount(8);
    await expectPaintGaveWay(page, { heading: /^Portal de gestión$/, selectors, label: 'PortalManagement' });
    expect(await layoutShiftOf(page)).toBeLessThanOrEqual(0.05);
  });

  for (const lang of ['es', 'en', 'eu'] as const) {
    test(`PortalManagement, PortalAccounts and Administration are accessible in ${lang}; every entry opens its screen`, async ({
      page,
    }) => {
      test.setTimeout(90_000);
      await openAs(page, 'admin', '/portal-management', lang);
      await expect(page.getByRole('heading', { name: t(lang, 'screen.PortalManagement') })).toBeVisible();
      const entries = page.getByTestId('portal-entries').getByRole('link');
      // admin holds every right, and is a user manager: all but the three screens of assistants who are not.
      await expect(entries).toHaveCount(8);
      await expectAccessible(page);
      const targets = await entries.evaluateAll((links) =>
        links.map((link) => [link.getAttribute('data-testid'), link.getAttribute('href')] as const),
      );
      for (const [entry, href] of targets) {
        await page.getByTestId(entry as string).click();
        await expect(page).toHaveURL(new RegExp(`${href}$`));
        await expect(page.locator('[data-screen]').first()).toBeVisible();
        // The back button returns to the menu, inside the running portal.
        await page.goBack();
        await expect(page).toHaveURL(/\/portal-management$/);
      }
      for (const path of ['/accounts', '/administration']) {
        await page.goto(path);
        await expect(page.locator('[data-screen]').first()).toBeVisible();
        await expectAccessible(page);
      }
    });
  }

  for (const lang of ['en', 'eu'] as const) {
    test(`the users list and a user's detail are accessible in ${lang}`, async ({ page }) => {
      await openAs(page, 'usermanager', '/users', lang);
      await expect(page.getByRole('heading', { name: t(lang, 'screen.PortalUsers') })).toBeVisible();
      await expect(page.getByTestId('users').locator('tbody tr').first()).toBeVisible();
      await expectAccessible(page);
      // By keyboard: the first person opened with Enter; the tabs are one stop, the arrows and Home/End move
      // between them and show each panel.
      await tabTo(page, page.getByTestId('users').getByRole('link').first(), { max: 40 });
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('user-personal')).toBeVisible();
      await expectAccessible(page);
      await tabTo(page, page.getByTestId('user-tab-personal'));
      await page.keyboard.press('ArrowRight');
      await expect(page.getByTestId('user-tab-security')).toBeFocused();
      await expect(page.getByTestId('user-tab-security')).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('user-security')).toBeVisible();
      await expectFocusVisible(page);
      await expectAccessible(page);
      await page.keyboard.press('End');
      const last = page.getByRole('tab').last();
      await expect(last).toBeFocused();
      await expect(last).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Home');
      await expect(page.getByTestId('user-tab-personal')).toBeFocused();
      await expect(page.getByTestId('user-personal')).toBeVisible();
    });
  }

  test('an account manager completes a pending onboarding', async ({ page }) => {
    await openAs(page, 'accountmanager', '/accounts', 'es');
    await page.getByRole('searchbox').fill('pending-01');
    await page.getByRole('searchbox').press('Enter');
    await expect(page.getByTestId('account-status-pending-01')).toHaveText(
      t('es', 'accounts.status.incompleted'),
    );
    await expectAccessible(page);
    await page.getByTestId('account-complete-pending-01').click();
    await expect(page.getByTestId('account-status-pending-01')).toHaveText(
      t('es', 'accounts.status.completed'),
    );
    await expect(page.getByTestId('account-complete-pending-01')).toHaveCount(0);
  });

  test('an admin deletes all data of the tenant behind the typed-name dialog', async ({ page, request }) => {
    const base = `http://demo.localhost:${port}`;
    await openAs(page, 'admin', '/portal-management', 'eu', base);
    await page.getByTestId('portal-allUsers').click();
    await expect(page.locator('[data-screen="Administration"]')).toBeVisible();
    await expectAccessible(page);
    await page.getByTestId('admin-deleteAllData').click();
    await expect(page.getByTestId('admin-confirm')).toBeVisible();
    await page.getByTestId('admin-confirm-name').fill('gambling');
    await expect(page.getByTestId('admin-confirm-yes')).toBeDisabled();
    await expectAccessible(page);
    await page.getByTestId('admin-confirm-name').fill('demo');
    await page.getByTestId('admin-confirm-yes').click();
    await expect(page.getByTestId('admin-result')).toContainText(/\d+/);

    // Node does not resolve demo.localhost: the API is asked on localhost, naming the tenant in its header.
    const local = `http://localhost:${port}`;
    const countOf = async (tenant: string) => {
      const token = await accessTokenOf(local, tenant, 'admin');
      const res = await request.get(`${local}/api/public/users?pageSize=1`, {
        headers: { authorization: `Bearer ${token}`, 'tenant-id': tenant },
      });
      expect(res.status()).toBe(200);
      return (await res.json()).totalItems as number;
    };
    expect(await countOf('demo')).toBe(0);
    expect(await countOf('gambling')).toBeGreaterThanOrEqual(60);
  });
});
