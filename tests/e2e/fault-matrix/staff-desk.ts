import { expect, type Page, type Route } from '@playwright/test';
import { type Lang, t } from '../support';
import { type Driver, formValues, loadDriver, retryButton } from './driver';

// The desk's calls beyond its lists: a person's detail and state, accounts, reception's check-in and check-out, and
// the audit's staff-actions tab.

// Seeded staff-visible people no other journey reads (server/db/seed-users.ts seededUser): 50 is active, 49 is not.
const ACTIVE_PERSON = 'lucia.romero50@correo.example';
const INACTIVE_PERSON = 'iker.zubizarreta49@correo.example';
// The seeded pending account no other journey completes (staff-users.spec.ts completes pending-01).
const PENDING_ACCOUNT = 'pending-03';
// The seeded visitor's access id (server/auth/accounts.ts: the third seeded account): today's visit is accepted.
const VISITOR_ACS_ID = 'ACS-GAMBLING-0002';

/** From PortalUsers, the detail of the person with that email, on one of its tabs. */
const personDetail = (email: string, tab: string) => async (page: Page) => {
  await page.getByTestId('users-search').fill(email);
  await page.getByTestId('users-search').press('Enter');
  const link = page.getByTestId('users').locator('tbody tr a');
  await expect(link).toHaveCount(1);
  await link.click();
  await expect(page).toHaveURL(/\/user-detail\/[\w-]+$/);
  await page.getByTestId(`user-tab-${tab}`).click();
};

/** Activating or deactivating one person (PortalUserDetail's credentials tab): the button is its own retry. */
function activationDriver(name: string, active: boolean): Driver {
  const button = active ? 'user-activate' : 'user-deactivate';
  return {
    name,
    screen: 'PortalUserDetail',
    calls: [`PUT /public/credentials/{userId}/${active ? 'active' : 'inactive'}`],
    user: 'usermanager',
    path: '/users',
    enter: personDetail(active ? INACTIVE_PERSON : ACTIVE_PERSON, 'credentials'),
    url: new RegExp(`/api/public/credentials/[\\w-]+/${active ? 'active' : 'inactive'}$`),
    method: 'PUT',
    ready: async (page) => {
      await expect(page.getByTestId(button)).toBeEnabled();
    },
    trigger: async (page) => {
      await page.getByTestId(button).click();
    },
    retry: {
      id: active ? 'userDetail.activate' : 'userDetail.deactivate',
      button: (page) => page.getByTestId(button),
    },
    failure: (page) => page.locator('[data-testid="user-change-failed"] > p'),
    // Nobody's state changes: every answer is the interception's.
    action: true,
  };
}

/** SingleRegistration's check of one field as it is typed (the email or the acs_id): a hint, never a refusal. */
function checkDriver(name: string, field: 'email' | 'acs_id', call: string, url: RegExp): Driver {
  const input = (page: Page) => page.getByTestId('single-form').locator(`input[name="${field}"]`);
  // What the field says once the check has ended (not "checking…", which shows from the first key typed).
  const hint = (page: Page, lang: Lang) =>
    page
      .getByTestId('single-form')
      .locator(`[data-slot="field"]:has(input[name="${field}"]) > p`)
      .filter({ hasNotText: t(lang, 'singles.checking') });
  const what = field === 'email' ? 'email' : 'access id';
  return {
    name,
    screen: 'SingleRegistration',
    calls: [call],
    user: 'usermanager',
    path: '/new-user-credential',
    url,
    method: 'GET',
    ready: async (page) => {
      await expect(page.getByTestId('single-form')).toBeVisible();
    },
    // Typing the value again checks it again, after the pause in typing.
    trigger: async (page) => {
      const value = await input(page).inputValue();
      await input(page).fill('');
      await input(page).fill(value);
    },
    retry: {
      none: 'the check only helps while typing: typing the value again checks it again, and the server checks it on sending',
    },
    failure: hint,
    answers: {
      '404': { shown: hint, why: `a 404 says nobody holds this ${what}: it is free, and the form says so` },
      malformed: {
        shown: hint,
        why: `the call reads no body: a 200 says somebody holds this ${what}, and the form says so`,
      },
    },
    form: {
      fill: async (page) => {
        const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
        await page.locator('input[name="mode"][value="image"]').check();
        await page.locator('[name="username"]').fill(`check.${id}`);
        await page.locator('[name="email"]').fill(`check-${id}@example.test`);
        await page.locator('[name="acs_id"]').fill(`ACS-CHECK-${id}`.toUpperCase());
        // The first checks of what was typed, answered for real, before any fault.
        await expect(hint(page, 'es')).toHaveText(t('es', 'singles.free'));
      },
      values: (page) => formValues(page.getByTestId('single-form')),
    },
  };
}

/** ProcessVisit with today's visit of the seeded visitor found by their access id, typed. */
async function arrival(page: Page) {
  await page.getByTestId('process-visit-code').fill(VISITOR_ACS_ID);
  await page.getByTestId('process-visit-code').press('Enter');
  await expect(page.getByTestId('arrival')).toBeVisible();
}

/** Check-in or check-out from ProcessVisit: a refusal offers to load the visit again, then the same button. */
function deskDriver(name: string, action: 'checkin' | 'checkout'): Driver {
  const button = action === 'checkin' ? 'visit-check-in' : 'visit-check-out';
  const reload = (page: Page, lang: Lang) =>
    page.getByRole('button', { name: t(lang, 'visits.reload'), exact: true });
  return {
    name,
    screen: 'ProcessVisit',
    calls: [`PUT /public/visits/{id}/${action}`],
    user: 'receptionist',
    path: '/process-visit',
    url: new RegExp(`/api/public/visits/[\\w-]+/${action}$`),
    method: 'PUT',
    ready: async (page) => {
      await expect(page.getByTestId('arrival').getByTestId(button)).toBeEnabled();
    },
    trigger: async (page, lang) => {
      if (await reload(page, lang).isVisible()) await reload(page, lang).click();
      await page.getByTestId('arrival').getByTestId(button).click();
    },
    retry: { id: 'visits.reload', button: reload },
    failure: (page) => page.locator('[data-testid="visit-refusal"] p'),
    // Nobody is checked in or out: every answer is the interception's.
    action: true,
  };
}

/**
 * ProcessVisit with today's visit of the seeded visitor in the status the driver needs, whatever other journeys do
 * to that visitor's visits meanwhile: the answers of the arrival and of the visit are changed, not the visit.
 */
const arrivalAs = (status: 'accepted' | 'checked_in') => async (page: Page) => {
  await page.route(/\/api\/public\/visits\/(arrival\?.*|[\w-]+)$/, async (route: Route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    const response = await route.fetch();
    const body = (await response.json()) as { visit?: { status: string }; status?: string };
    if (body.visit) body.visit.status = status;
    else body.status = status;
    return route.fulfill({ response, json: body });
  });
  await arrival(page);
};

export const DESK_DRIVERS: Driver[] = [
  activationDriver('UserDeactivate', false),
  activationDriver('UserActivate', true),
  {
    ...loadDriver('UserEvidence', {
      call: 'GET /public/users/{id}/{kind}',
      user: 'usermanager',
      path: '/users',
      enter: personDetail(ACTIVE_PERSON, 'selfie'),
      url: /\/api\/public\/users\/[\w-]+\/(selfie|obverse|reverse)$/,
      ready: '[data-testid="user-evidence-selfie"]',
      failedId: 'userDetail.evidenceFailed',
      retryId: 'accounts.retry',
      failure: (page) => page.locator('[data-testid="user-evidence-failed"] > p'),
    }),
    screen: 'PortalUserDetail',
    // The tab is the screen's own state: a reload would open the personal data. Opening the tab again loads it.
    trigger: async (page, lang) => {
      const again = retryButton('accounts.retry').button(page, lang);
      if (await again.isVisible()) await again.click();
      else {
        await page.getByTestId('user-tab-personal').click();
        await page.getByTestId('user-tab-selfie').click();
      }
    },
  },
  {
    name: 'CompleteOnboarding',
    screen: 'PortalAccounts',
    calls: ['PUT /public/accounts/{accountId}/onboarding'],
    user: 'accountmanager',
    path: '/accounts',
    enter: async (page) => {
      await page.getByRole('searchbox').fill(PENDING_ACCOUNT);
      await page.getByRole('searchbox').press('Enter');
      await expect(page.getByTestId(`account-status-${PENDING_ACCOUNT}`)).toBeVisible();
    },
    url: /\/api\/public\/accounts\/[\w-]+\/onboarding$/,
    method: 'PUT',
    ready: async (page) => {
      await expect(page.getByTestId(`account-complete-${PENDING_ACCOUNT}`)).toBeEnabled();
    },
    trigger: async (page) => {
      await page.getByTestId(`account-complete-${PENDING_ACCOUNT}`).click();
    },
    retry: {
      id: 'accounts.complete',
      button: (page) => page.getByTestId(`account-complete-${PENDING_ACCOUNT}`),
    },
    failure: (page) => page.locator(`[data-testid="account-complete-failed-${PENDING_ACCOUNT}"] > p`),
    // Nobody's onboarding is completed: every answer is the interception's.
    action: true,
  },
  {
    name: 'AccountByEmail',
    screen: 'AssistantAccountCancellation',
    calls: ['GET /internal/accounts'],
    user: 'assistant',
    path: '/delete-account-assistant',
    url: /\/api\/internal\/accounts\?/,
    method: 'GET',
    ready: async (page) => {
      await expect(page.getByTestId('cancel-find')).toBeEnabled();
    },
    trigger: async (page) => {
      await page.getByTestId('cancel-find').click();
    },
    // Searching again is the retry: the same button, the same email.
    retry: { id: 'cancelAccount.find', button: (page) => page.getByTestId('cancel-find') },
    failure: (page) => page.locator('main [role="alert"] > p'),
    answers: {
      '404': {
        shown: (page) => page.locator('[data-testid="cancel-not-found"] > p'),
        why: 'a 404 says no account has that email, and the screen says so',
      },
    },
    form: {
      fill: async (page) => {
        await page.getByTestId('cancel-email').fill('fault.matrix@gambling.example');
      },
      values: (page) => formValues(page.getByTestId('cancel-search')),
    },
  },
  checkDriver('SingleEmailCheck', 'email', 'GET /internal/accounts', /\/api\/internal\/accounts\?email=/),
  checkDriver('SingleAcsIdCheck', 'acs_id', 'GET /public/credentials', /\/api\/public\/credentials\?acs_id=/),
  {
    ...loadDriver('StaffActions', {
      call: 'GET /public/staff_actions',
      user: 'admin',
      path: '/audit-accesses',
      enter: async (page) => {
        await page.getByTestId('audit-tab-staff').click();
      },
      url: /\/api\/public\/staff_actions(\?|$)/,
      ready: '[data-testid="staff-actions"] li, [data-testid="staff-actions-empty"]',
      failedId: 'staffActions.listFailed',
      retryId: 'audit.retry',
    }),
    screen: 'AuditAccesses',
    // The tab is the screen's own state: a reload would open the accesses' tab. Applying the filter loads again.
    trigger: async (page, lang) => {
      const again = retryButton('audit.retry').button(page, lang);
      if (await again.isVisible()) {
        // Under the tall filters the retry sits at the foot of a phone's screen, where the notice that says why
        // covers it for a few seconds: the person closes the notice to tap it at once.
        for (const close of await page.getByRole('button', { name: t(lang, 'common.dismiss') }).all()) {
          await close.click({ timeout: 2_000 }).catch(() => undefined);
        }
        await again.click();
      } else await page.getByTestId('staff-actions-apply').click();
    },
  },
  {
    name: 'StaffActionsExport',
    screen: 'AuditAccesses',
    calls: ['POST /public/staff_actions'],
    user: 'admin',
    path: '/audit-accesses',
    enter: async (page) => {
      await page.getByTestId('audit-tab-staff').click();
    },
    url: /\/api\/public\/staff_actions(\?|$)/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('staff-actions-export')).toBeEnabled();
    },
    trigger: async (page) => {
      await page.getByTestId('staff-actions-export').click();
    },
    // Exporting again is the retry: the same button, the same filter.
    retry: { id: 'audit.export', button: (page) => page.getByTestId('staff-actions-export') },
    failure: (page) => page.locator('[data-testid="staff-actions-export-failed"] > p'),
    answers: {
      malformed: {
        shown: (page) => page.getByTestId('staff-actions-export-done'),
        why: 'the export is a csv file, not JSON: a 200 with any body is a file saved',
      },
    },
    // A large export takes longer to start than a page (src/api/audit.ts).
    timeoutMs: 120_000,
  },
  {
    name: 'ProcessVisit',
    calls: ['GET /public/visits/arrival'],
    user: 'receptionist',
    path: '/process-visit',
    // A code nobody holds: the real answer is a refusal in words (no visit today), the screen ready for another.
    enter: async (page) => {
      await page.getByTestId('process-visit-code').fill('ACS-FAULT-MATRIX');
    },
    url: /\/api\/public\/visits\/arrival\?/,
    method: 'GET',
    ready: async (page) => {
      await expect(page.getByTestId('process-visit-code')).toHaveValue('ACS-FAULT-MATRIX');
      await expect(page.getByTestId('process-visit-code')).toBeEnabled();
    },
    // Looking the code up again is the retry: the same button, the code still there.
    trigger: async (page, lang) => {
      await page.getByRole('button', { name: t(lang, 'processVisit.find'), exact: true }).click();
    },
    retry: retryButton('processVisit.find'),
    failure: (page) => page.locator('[data-testid="visit-refusal"] > p'),
  },
  // The visits journey checks a visit of the same visitor in and out today: the seeded one may not come first.
  { ...deskDriver('ProcessVisitCheckIn', 'checkin'), enter: arrivalAs('accepted') },
  // No visit is seeded checked in: today's is shown so, and the screen offers to check out.
  { ...deskDriver('ProcessVisitCheckOut', 'checkout'), enter: arrivalAs('checked_in') },
];
