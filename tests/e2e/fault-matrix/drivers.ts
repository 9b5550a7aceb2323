import { expect } from '@playwright/test';
import { t } from '../support';
import { type Driver, facePhoto, formValues, loadDriver } from './driver';

// The first journeys of the fault matrix: the lists and details every role opens, and the forms of the spec's
// main flows.

export const DRIVERS: Driver[] = [
  loadDriver('MyVisits', {
    call: 'GET /public/visits',
    user: 'visitor',
    path: '/my-visits',
    url: /\/api\/public\/visits(\?|$)/,
    ready: '[data-testid="visit-row"], [data-testid="visits-empty"]',
    failedId: 'visits.listFailed',
    retryId: 'visits.retry',
  }),
  loadDriver('PortalUsers', {
    call: 'GET /public/users',
    user: 'usermanager',
    path: '/users',
    url: /\/api\/public\/users(\?|$)/,
    ready: '[data-testid="users"] tbody tr, [data-testid="users-empty"]',
    failedId: 'users.failed',
    retryId: 'accounts.retry',
  }),
  loadDriver('PortalAccounts', {
    call: 'GET /public/accounts',
    user: 'accountmanager',
    path: '/accounts',
    url: /\/api\/public\/accounts(\?|$)/,
    ready: '[data-testid="accounts"] li, [data-testid="accounts-empty"]',
    failedId: 'accounts.failed',
    retryId: 'accounts.retry',
  }),
  loadDriver('AuditAccesses', {
    call: 'GET /public/audit_accesses',
    user: 'admin',
    path: '/audit-accesses',
    url: /\/api\/public\/audit_accesses(\?|$)/,
    ready: '[data-testid="audit-accesses"] li, [data-testid="audit-empty"]',
    failedId: 'audit.listFailed',
    retryId: 'audit.retry',
  }),
  loadDriver('VisitDetail', {
    call: 'GET /public/visits/{id}',
    user: 'visitor',
    path: '/my-visits',
    enter: async (page) => {
      await page.getByTestId('visit-row').first().getByRole('link').first().click();
      await expect(page).toHaveURL(/\/visit-detail\?data=/);
    },
    url: /\/api\/public\/visits\/[\w-]+$/,
    ready: '[data-testid="visit-info"] [data-testid="visit-status"]',
    failedId: 'visits.loadFailed',
    retryId: 'visits.retry',
    // "Could not load the visit", and what the server said when the API client left it to the screen.
    failure: (page) => page.locator('[data-testid="visit-load-failure"] p'),
    noRetry: { '404': 'the visit is not there, loading it again cannot find it; the way back is the list' },
  }),
  loadDriver('PortalUserDetail', {
    call: 'GET /public/users/{id}',
    user: 'usermanager',
    path: '/users',
    enter: async (page) => {
      await page.getByTestId('users').locator('tbody tr a').first().click();
      await expect(page).toHaveURL(/\/user-detail\/[\w-]+$/);
    },
    url: /\/api\/public\/users\/[\w-]+$/,
    ready: '[data-testid="user-personal"]',
    failedId: 'userDetail.failed',
    retryId: 'accounts.retry',
  }),
  loadDriver('UserProfile', {
    call: 'GET /internal/accounts/{accountId}/profile',
    // Read only: the account journeys change members 1 to 8.
    user: 'member-09',
    path: '/profile',
    url: /\/api\/internal\/accounts\/[\w-]+\/profile$/,
    ready: '[data-testid="profile-personal-data"]',
    failedId: 'profile.failed',
    retryId: 'profile.retry',
  }),
  {
    ...loadDriver('UserHome', {
      call: 'GET /public/credentials/{userId}',
      user: 'member-09',
      path: '/home',
      url: /\/api\/public\/credentials\/[\w-]+$/,
      ready: '[data-testid="home-qr-detail"], [data-testid="home-qr-none"], [data-testid="home-qr-unusable"]',
      failedId: 'accreditation.retry',
      retryId: 'accreditation.retry',
      // What went wrong, in the words of the accreditation's problems (AccreditationProblem).
      failure: (page) => page.locator('main [role="alert"] > p'),
    }),
    answers: {
      '404': {
        shown: (page) => page.getByTestId('home-qr-none'),
        why: 'a 404 says the person holds no credential yet, and the home says so',
      },
    },
  },
  {
    ...loadDriver('NewVisitLocations', {
      call: 'GET /internal/facilities',
      user: 'visitor',
      path: '/new-visit',
      url: /\/api\/internal\/facilities(\?|$)/,
      ready: 'select[name="location"]',
      failedId: 'newVisit.locationsFailed',
      retryId: 'newVisit.locationsRetry',
      failure: (page) => page.locator('[data-testid="new-visit-locations-failed"] > p'),
    }),
    screen: 'NewVisit',
  },
  {
    name: 'ResetCredentials',
    calls: ['POST /public/credential-resets'],
    // Asked for signed out: the call carries no token, and a 401 is one more refusal, not a sign-out.
    path: '/reset-credentials',
    url: /\/api\/public\/credential-resets(\?|$)/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('reset-credentials-email')).toBeVisible();
    },
    trigger: async (page) => {
      await page.getByTestId('reset-credentials-submit').click();
    },
    retry: { id: 'resetCredentials.submit', button: (page) => page.getByTestId('reset-credentials-submit') },
    answers: {
      malformed: {
        shown: (page) => page.getByTestId('reset-credentials-sent'),
        why: 'the call reads no body: a 200 is the mail sent, whatever follows it',
      },
    },
    failure: (page) => page.locator('main [role="alert"] > p'),
    form: {
      fill: async (page) => {
        await page.getByTestId('reset-credentials-email').fill('fault.matrix@gambling.example');
      },
      values: (page) => formValues(page.getByTestId('reset-credentials-form')),
    },
  },
  {
    name: 'SingleRegistration',
    calls: ['POST /public/singles'],
    user: 'usermanager',
    path: '/new-user-credential',
    url: /\/api\/public\/singles(\?|$)/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('single-form')).toBeVisible();
    },
    trigger: async (page) => {
      await page.getByTestId('single-form').locator('button[type="submit"]').click();
    },
    retry: {
      id: 'singles.submit',
      button: (page, lang) => page.getByRole('button', { name: t(lang, 'singles.submit'), exact: true }),
    },
    failure: (page) => page.locator('main [role="alert"] > p'),
    form: {
      fill: async (page) => {
        const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
        await page.locator('input[name="mode"][value="image"]').check();
        await page.locator('[name="username"]').fill(`fault.${id}`);
        await page.locator('[name="email"]').fill(`fault-${id}@example.test`);
        await page.locator('[name="acs_id"]').fill(`ACS-FAULT-${id}`.toUpperCase());
        await page.locator('#single-image').setInputFiles({
          name: 'face.jpg',
          mimeType: 'image/jpeg',
          buffer: await facePhoto(),
        });
      },
      values: (page) => formValues(page.getByTestId('single-form')),
      notKeptOnSignOut: {
        fields: ['image'],
        shown: (page) => page.getByTestId('single-image-choose-again'),
        why: 'a photo of a face is biometric data: it is never stored, and the form asks for it again',
      },
    },
  },
  {
    name: 'AuditExport',
    screen: 'AuditAccesses',
    calls: ['POST /public/audit_accesses'],
    user: 'admin',
    path: '/audit-accesses',
    url: /\/api\/public\/audit_accesses(\?|$)/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('audit-export')).toBeEnabled();
    },
    trigger: async (page) => {
      await page.getByTestId('audit-export').click();
    },
    // Exporting again is the retry: the same button, the same filter.
    retry: { id: 'audit.export', button: (page) => page.getByTestId('audit-export') },
    failure: (page) => page.locator('[data-testid="audit-export-failed"] > p'),
    answers: {
      malformed: {
        shown: (page) => page.getByTestId('audit-export-done'),
        why: 'the export is a csv file, not JSON: a 200 with any body is a file saved',
      },
    },
    // A large export takes longer to start than a page (src/api/audit.ts).
    timeoutMs: 120_000,
  },
  {
    name: 'ActivateUsers',
    calls: ['POST /public/users/activation'],
    user: 'assistant',
    path: '/activate-users',
    url: /\/api\/public\/users\/activation(\?|$)/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('activate-submit')).toBeEnabled();
    },
    trigger: async (page) => {
      await page.getByTestId('activate-submit').click();
    },
    retry: { id: 'activateUsers.submit', button: (page) => page.getByTestId('activate-submit') },
    failure: (page) => page.locator('[data-testid="activate-error"] > p'),
    form: {
      fill: async (page) => {
        await page.getByTestId('activate-region').selectOption({ index: 0 });
        await page.getByTestId('activate-id-number').fill('12345678Z');
      },
      values: async (page) => ({
        region: await page.getByTestId('activate-region').inputValue(),
        idNumber: await page.getByTestId('activate-id-number').inputValue(),
      }),
    },
  },
  {
    name: 'VisitCancel',
    screen: 'VisitDetail',
    calls: ['POST /public/visits/{id}/cancellation'],
    user: 'visitor',
    path: '/my-visits',
    // A visit still to be answered: one the visitor may cancel.
    enter: async (page) => {
      await page
        .getByTestId('visit-row')
        .filter({ has: page.locator('[data-testid="visit-status"][data-status="requested"]') })
        .first()
        .getByRole('link')
        .first()
        .click();
      await expect(page).toHaveURL(/\/visit-detail\?data=/);
    },
    url: /\/api\/public\/visits\/[\w-]+\/cancellation$/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('visit-cancel')).toBeEnabled();
    },
    // Cancelling asks first; after a failure the screen offers to load the visit again, and then Cancel.
    trigger: async (page, lang) => {
      const reload = page.getByRole('button', { name: t(lang, 'visits.reload'), exact: true });
      if (await reload.isVisible()) await reload.click();
      await page.getByTestId('visit-cancel').click();
      await page.getByTestId('visit-cancel-confirm').click();
    },
    retry: {
      id: 'visits.reload',
      button: (page, lang) => page.getByRole('button', { name: t(lang, 'visits.reload'), exact: true }),
    },
    failure: (page) => page.locator('[data-testid="visit-refusal"] p'),
    action: true,
  },
  {
    name: 'DeleteAccount',
    calls: ['DELETE /internal/accounts/{accountId}'],
    // Every answer here is the interception's: nobody is deleted. Read only: the account journeys change 1 to 8.
    user: 'member-09',
    path: '/delete-account',
    url: /\/api\/internal\/accounts\/[\w-]+$/,
    method: 'DELETE',
    ready: async (page) => {
      await expect(page.getByTestId('delete-account-submit')).toBeEnabled();
    },
    // Deleting asks first, in a dialog.
    trigger: async (page) => {
      await page.getByTestId('delete-account-submit').click();
      await page.getByTestId('delete-account-confirm-yes').click();
    },
    retry: { id: 'deleteAccount.submit', button: (page) => page.getByTestId('delete-account-submit') },
    failure: (page) => page.locator('main [role="alert"] > p'),
    done: {
      // The call reads no body: a 200 is the account deleted, whatever follows it.
      malformed: {
        shown: (page) =>
          page
            .locator('main[data-route="Welcome"]')
            .locator('[data-testid="welcome-title"], [data-testid="login"]'),
        check: async (page) => {
          await expect(page).toHaveURL((url) => url.pathname === '/');
          // Signed out for good: the browser keeps no session, and opening the portal again finds none.
          const sessions = () =>
            page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('oidc.user:')));
          expect(await sessions()).toEqual([]);
          await page.reload();
          await expect(page.getByTestId('login')).toBeVisible();
          expect(await sessions()).toEqual([]);
        },
        what: 'the account deleted: signed out for good (no session kept, a reload stays signed out), on the public Welcome',
      },
    },
    form: {
      fill: async (page) => {
        await page.getByTestId('delete-account-id-number').fill('12345678Z');
      },
      values: async (page) => ({ idNumber: await page.getByTestId('delete-account-id-number').inputValue() }),
    },
  },
  {
    name: 'NewVisit',
    calls: ['POST /public/visits'],
    user: 'visitor',
    path: '/new-visit',
    url: /\/api\/public\/visits(\?|$)/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.locator('select[name="location"]')).toBeVisible();
    },
    trigger: async (page) => {
      await page.getByTestId('new-visit-submit').click();
    },
    // Sending again is the retry: the same button, with the form as it was.
    retry: {
      id: 'newVisit.submit',
      button: (page) => page.getByTestId('new-visit-submit'),
    },
    // "Could not send", and the words of a refusal the API client left to the form.
    failure: (page) => page.locator('main [role="alert"] p'),
    form: {
      fill: async (page) => {
        await page.locator('select[name="location"]').selectOption({ index: 1 });
        const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
        await page.locator('[name="host"]').fill('assistant@gambling.example');
        await page.locator('[name="date"]').fill(tomorrow);
        await page.locator('[name="startAt"]').fill('10:00');
        await page.locator('[name="endAt"]').fill('11:00');
        await page.locator('[name="title"]').fill('Fault matrix visit');
        const plan = page.locator('input[name="planRead"]');
        if ((await plan.count()) > 0) await plan.setChecked(true);
      },
      values: (page) =>
        page
          .locator('[data-testid="new-visit-form"]')
          .evaluate((form) =>
            Object.fromEntries(
              [
                ...form.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[name], select[name]'),
              ].map((el) => [
                el.name,
                el instanceof HTMLInputElement && el.type === 'checkbox' ? String(el.checked) : el.value,
              ]),
            ),
          ),
    },
  },
];
