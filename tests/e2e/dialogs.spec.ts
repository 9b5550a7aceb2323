import { expect, test } from '@playwright/test';
import { expectAccessibleInEachLanguage, openAndEscape, reopenAndClose, tabTo } from './keyboard';
import { logIn, openSignedIn, port, t } from './support';

// The portal's dialogs with the keyboard alone: opened with Enter from their button, the focus inside them and
// visible, Tab kept within them, closed with Escape or their own button, and the focus back on the button that
// opened them. axe checks each open dialog in es, en and eu. Nothing is confirmed that would change what other
// journeys read (the seeded admin's tenant-wide actions, the seeded user's QR): the confirmations themselves are
// the journeys of staff-actions.spec.ts and accreditations.spec.ts.

test('staff dialogs: an access in the audit and the typed-name confirmation, by keyboard', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openSignedIn(page, 'admin', '/audit-accesses', { lang: 'es' });
  const opener = page.getByTestId('audit-open').first();
  await expect(opener).toBeVisible({ timeout: 30_000 });
  const detail = page.getByTestId('audit-detail');
  await openAndEscape(page, opener, detail);
  // Its own Close button, with Enter, gives the focus back too.
  await reopenAndClose(page, opener, detail, page.getByTestId('audit-detail-close'), 'Enter');

  await page.goto('/administration');
  const deactivate = page.getByTestId('admin-deactivateAll');
  const confirm = page.getByTestId('admin-confirm');
  await openAndEscape(page, deactivate, confirm);
  // Typed by keyboard: a wrong name leaves the confirmation disabled; Enter in the field submits nothing.
  await page.keyboard.press('Enter');
  await expect(confirm).toBeVisible();
  await tabTo(page, page.getByTestId('admin-confirm-name'));
  await page.keyboard.type('not-this-tenant');
  await expect(page.getByTestId('admin-confirm-yes')).toBeDisabled();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(deactivate).toBeFocused();
});

test("a person's dialog: revoking the QR asks first, and Cancel gives the focus back", async ({ page }) => {
  test.setTimeout(90_000);
  await openSignedIn(page, 'user', '/home', { lang: 'es' });
  await tabTo(page, page.getByTestId('home-qr-detail'));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/accreditation-detail\/[\w-]+$/);
  const revoke = page.getByTestId('accreditation-revoke');
  const dialog = page.getByTestId('revoke-dialog');
  await expect(revoke).toBeVisible();
  await openAndEscape(page, revoke, dialog);
  await reopenAndClose(page, revoke, dialog, page.getByTestId('revoke-cancel'), 'Space');
  await expect(page.getByTestId('accreditation-revoked')).toHaveCount(0);
});

// Lists with nothing to show: the sentence that says so, in each language (axe and 360 px), reached by a search
// that matches nobody, typed and sent with the keyboard, or on a tenant with nothing to list.
test('staff lists that match nobody say so, in three languages', async ({ page }) => {
  test.setTimeout(150_000);
  await openSignedIn(page, 'usermanager', '/users', { lang: 'es' });
  // The search takes an email or a DNI/NIE: anything else is refused in words, and nothing typed is lost.
  const search = page.getByTestId('users-search');
  await tabTo(page, search);
  await page.keyboard.type('nadie');
  await page.keyboard.press('Enter');
  await expect(page.getByText(t('es', 'users.searchInvalid'))).toBeVisible();
  await expect(search).toHaveValue('nadie');
  await page.keyboard.type('@ninguno.example');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('users-empty')).toBeVisible();
  await expectAccessibleInEachLanguage(page);

  await openSignedIn(page, 'receptionist', '/visits', { lang: 'es' });
  await tabTo(page, page.getByLabel(t('es', 'visits.filter.visitor')));
  await page.keyboard.type('Nadie Inexistente Zzz');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('visits-empty')).toBeVisible();
  await expectAccessibleInEachLanguage(page);

  // The steps tenant has no door at all: its audit is empty, and stays so with a result chosen by keyboard.
  await page.goto(`http://steps.localhost:${port}/audit-accesses`);
  await logIn(page, 'auditor');
  await expect(page).toHaveURL(/\/audit-accesses$/);
  await expect(page.getByTestId('audit-empty')).toBeVisible({ timeout: 30_000 });
  await tabTo(page, page.getByTestId('audit-result-filter'));
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('audit-result-filter')).toHaveValue('granted');
  await expect(page.getByTestId('audit-empty')).toBeVisible();
  await expectAccessibleInEachLanguage(page);
});
