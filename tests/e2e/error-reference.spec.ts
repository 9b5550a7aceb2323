import { expect, test } from '@playwright/test';
import { expectAccessible, type Lang, openAs, t } from './support';

// An error the portal did not expect (here a 5xx problem of the visits list) shows, under its notice, the request
// id the server gave it, so that the person can quote it to support; in each language, and axe finds nothing.

for (const lang of ['es', 'en', 'eu'] as const satisfies readonly Lang[]) {
  test(`a server fault's notice shows its reference in ${lang}`, async ({ page }) => {
    const requestId = `e2e-ref-${lang}-7f3a`;
    await page.route(/\/api\/public\/visits(\?|$)/, (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({
            status: 500,
            contentType: 'application/problem+json',
            headers: { 'X-Request-Id': requestId },
            body: JSON.stringify({
              status: 500,
              title: 'Internal Server Error',
              detail: 'An unexpected error occurred.',
              code: 'internal_error',
              request_id: requestId,
            }),
          })
        : route.continue(),
    );
    await openAs(page, 'visitor', '/my-visits', lang);
    const notice = page.getByTestId('notice').filter({ hasText: t(lang, 'common.http.serverError') });
    await expect(notice).toBeVisible();
    await expect(notice.getByTestId('notice-reference')).toHaveText(
      t(lang, 'common.reference').replace('{id}', requestId),
    );
    await expectAccessible(page);
  });
}
