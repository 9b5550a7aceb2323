import { expect, type Page, type Route } from '@playwright/test';
import { type Lang, t } from '../support';
import { type Driver, loadDriver, retryButton } from './driver';

// A person's own calls beyond their lists: their credentials, language, data export, mailed links and visit QR.
// Every answer of these journeys is the interception's: they read seeded data and change nothing (`user` and
// `member-09` are only read by the other journeys; reception books nobody here).

/** From the home, the detail of the person's current QR (the seeded `user` holds a valid one). */
async function openCurrentQr(page: Page) {
  await page.getByTestId('home-qr-detail').click();
  await expect(page).toHaveURL(/\/accreditation-detail\/[\w-]+$/);
}

/** What AccreditationDetail says when its accreditation could not be loaded or changed (AccreditationProblem). */
const accreditationProblem = (page: Page) => page.locator('main [role="alert"] > p');

/** A link of a mail, never sent: the answers are the interception's (a real one would be refused as unknown). */
const NO_SUCH_VISIT = '00000000-0000-4000-8000-00000000fa17';

const LOCALE_URL = /\/api\/internal\/accounts\/[\w-]+\/locale$/;
/** The page's answer to the save of the language the journey changes to before changing back. */
const OTHER_SAVED = new WeakMap<Page, (route: Route) => Promise<void>>();

export const PERSON_DRIVERS: Driver[] = [
  loadDriver('AccreditationDetail', {
    call: 'GET /public/credentials/{userId}/sids/{sid}',
    user: 'user',
    path: '/home',
    enter: openCurrentQr,
    // The QR's picture (?format=png) is what the detail loads by this call (the JSON comes with the home's list);
    // the PDF (?format=pdf), the same call made by a button, is AccreditationPdf's.
    url: /\/api\/public\/credentials\/[\w-]+\/sids\/[\w-]+\?format=png$/,
    ready: '[data-testid="accreditation-qr"]',
    failedId: 'accreditation.error.credential_unavailable',
    retryId: 'accreditation.retry',
    failure: accreditationProblem,
    noRetry: {
      '404':
        'a 404 says the person holds no such accreditation: loading it again cannot find it; the way back is the list',
    },
  }),
  {
    name: 'AccreditationPdf',
    screen: 'AccreditationDetail',
    calls: ['GET /public/credentials/{userId}/sids/{sid}'],
    user: 'user',
    path: '/home',
    enter: openCurrentQr,
    // The same call as the QR's picture, as the printable PDF: made by its button, not by loading the screen.
    url: /\/api\/public\/credentials\/[\w-]+\/sids\/[\w-]+\?format=pdf&lang=\w+$/,
    method: 'GET',
    ready: async (page) => {
      await expect(page.getByTestId('accreditation-pdf')).toBeEnabled();
    },
    trigger: async (page) => {
      await page.getByTestId('accreditation-pdf').click();
    },
    // Saving it again is the retry: the same button.
    retry: { id: 'accreditation.pdf.download', button: (page) => page.getByTestId('accreditation-pdf') },
    failure: (page) => page.locator('[data-error-code="pdf_unavailable"] > p'),
    // Not saved for real between the cells: a PDF is made on the server at each download.
    action: true,
  },
  {
    name: 'AccreditationState',
    screen: 'AccreditationDetail',
    calls: ['PUT /public/credentials/{userId}/sids/{sid}/state'],
    user: 'user',
    path: '/home',
    enter: openCurrentQr,
    url: /\/api\/public\/credentials\/[\w-]+\/sids\/[\w-]+\/state$/,
    method: 'PUT',
    ready: async (page) => {
      await expect(page.getByTestId('accreditation-extend')).toBeEnabled();
    },
    // Extending is the change driven (revoking asks first, then makes the same call). After a failure the screen
    // offers to load the accreditation again, and then Extend.
    trigger: async (page, lang) => {
      const again = page.getByRole('button', { name: t(lang, 'accreditation.retry'), exact: true });
      if (await again.isVisible()) await again.click();
      await page.getByTestId('accreditation-extend').click();
    },
    // Retry loads the accreditation again, as it is now (a 404 included: the load says whether it is still there).
    retry: retryButton('accreditation.retry'),
    failure: accreditationProblem,
    action: true,
  },
  {
    name: 'ProfileExport',
    screen: 'UserProfile',
    calls: ['GET /internal/accounts/{accountId}/export'],
    // Read only: the account journeys change members 1 to 8.
    user: 'member-09',
    path: '/profile',
    url: /\/api\/internal\/accounts\/[\w-]+\/export$/,
    method: 'GET',
    ready: async (page) => {
      await expect(page.getByTestId('profile-download-data')).toBeEnabled();
    },
    trigger: async (page) => {
      await page.getByTestId('profile-download-data').click();
    },
    // Downloading again is the retry: the same button.
    retry: { id: 'profile.data.button', button: (page) => page.getByTestId('profile-download-data') },
    failure: (page) => page.getByTestId('profile-data-status').locator('span'),
  },
  {
    name: 'LanguageMenu',
    screen: 'the header (signed in)',
    calls: ['PUT /internal/accounts/{accountId}/locale'],
    user: 'member-09',
    path: '/profile',
    url: LOCALE_URL,
    method: 'PUT',
    ready: async (page) => {
      await expect(page.getByTestId('language-menu')).toBeVisible();
    },
    // The person changes to another language, then back to theirs: only the save of theirs is faulted (what they
    // read after is in their language); the other is answered as saved, whenever it is made.
    trigger: async (page, lang) => {
      const other: Lang = lang === 'en' ? 'es' : 'en';
      const previous = OTHER_SAVED.get(page);
      if (previous) await page.unroute(LOCALE_URL, previous);
      // Registered after the cell's fault, so it is asked first.
      const saved = async (route: Route) => {
        const body = route.request().postDataJSON() as { locale?: string } | null;
        if (body?.locale === other) await route.fulfill({ status: 204 });
        else await route.fallback();
      };
      OTHER_SAVED.set(page, saved);
      await page.route(LOCALE_URL, saved);
      await page.getByTestId('language-menu').selectOption(other);
      await expect(page.locator('html')).toHaveAttribute('lang', other);
      await page.getByTestId('language-menu').selectOption(lang);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
    },
    retry: {
      none: 'the language is changed on this device all the same; the next change of language saves it to the account',
    },
    done: {
      // The call reads no body: a 200 is the language saved, whatever follows it.
      malformed: {
        // The screen's heading in the language chosen (the runner checks that no notice says it was not saved).
        shown: (page) => page.locator('main h1'),
        check: async (page, lang) => {
          await expect(page.locator('html')).toHaveAttribute('lang', lang);
          await expect(page.getByTestId('language-menu')).toHaveValue(lang);
        },
        what: 'the language changed and saved to the account: the screen in it, no "not saved" notice',
      },
    },
    // Never made for real: member-09's language stays as the other journeys read it.
    action: true,
  },
  {
    name: 'ResetRedeem',
    screen: 'ResetCredentials',
    calls: ['POST /internal/credential-resets/redeem'],
    // The mailed link redeems signed in (signed out it asks to sign in first, and makes no call). Its first,
    // real, answer refuses the made-up token; every other is the interception's: nothing is revoked.
    user: 'member-09',
    path: '/reset-credentials?token=fault-matrix-link-that-was-never-mailed',
    url: /\/api\/internal\/credential-resets\/redeem$/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('reset-credentials-refused')).toBeVisible();
    },
    trigger: async (page, lang) => {
      const again = page.getByRole('button', { name: t(lang, 'resetCredentials.retry'), exact: true });
      if (await again.isVisible()) await again.click();
      else await page.reload();
    },
    retry: retryButton('resetCredentials.retry'),
    failure: (page) => page.getByTestId('reset-credentials-refused').locator('p'),
    noRetry: {
      '403':
        'a 403 says this account may not reset (the client has renewed the token once already): redeeming again cannot change that; the screen says to ask for a new link, or staff',
      '404':
        'a 404 says the link is not this account’s: redeeming it again cannot change that; a new one is asked for',
    },
    action: true,
  },
  {
    name: 'VisitConfirmation',
    calls: ['POST /public/visits/{id}/confirmation'],
    // Public: the host's mailed link, without a session (a 401 is one more refusal).
    path: `/confirmation/fault-matrix-token/${NO_SUCH_VISIT}`,
    url: /\/api\/public\/visits\/[\w-]+\/confirmation$/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('confirmation-accept')).toBeEnabled();
    },
    trigger: async (page) => {
      await page.getByTestId('confirmation-accept').click();
    },
    // Accepting again is the retry: the same buttons stay.
    retry: retryButton('confirmation.accept'),
    failure: (page) => page.getByTestId('visit-refusal').locator('p'),
    noRetry: {
      '401': 'the link’s token is refused: the link is not valid, and sending it again cannot change that',
    },
    done: {
      // The call reads no body: a 200 is the visit answered as the host chose, whatever follows it.
      malformed: {
        shown: (page) => page.getByTestId('confirmation-done'),
        check: async (page) => {
          await expect(page.getByTestId('confirmation-done')).toHaveAttribute('role', 'status');
          await expect(page.getByTestId('confirmation-accept')).toHaveCount(0);
          await expect(page.getByTestId('visit-refusal')).toHaveCount(0);
        },
        what: 'the visit accepted: the final screen says so, with no buttons left',
      },
    },
    action: true,
  },
  {
    name: 'VisitorLookup',
    screen: 'NewVisit',
    calls: ['GET /public/visits/visitors/{userId}'],
    user: 'receptionist',
    // Reception books for a person by their id; nobody has this one, so the real answer is "not found".
    path: `/new-visit/${NO_SUCH_VISIT}`,
    url: /\/api\/public\/visits\/visitors\/[\w-]+$/,
    method: 'GET',
    ready: async (page) => {
      await expect(page.locator('select[name="location"]')).toBeVisible();
      await expect(page.getByTestId('new-visit-visitor-missing')).toBeVisible();
    },
    trigger: async (page) => {
      await page.reload();
    },
    retry: {
      none: 'the form stays usable without the person: reception types the visitor’s name and email',
    },
    answers: {
      '404': {
        shown: (page) => page.getByTestId('new-visit-visitor-missing').locator('p'),
        why: 'a 404 says nobody has that id, and the form says so and stays usable',
      },
    },
  },
  {
    ...loadDriver('VisitQr', {
      call: 'GET /public/visits/{id}/qr',
      user: 'visitor',
      path: '/my-visits',
      enter: async (page) => {
        await page.getByTestId('visit-row').first().getByRole('link').first().click();
        await expect(page).toHaveURL(/\/visit-detail\?data=/);
      },
      url: /\/api\/public\/visits\/[\w-]+\/qr$/,
      // The visitor holds a valid QR: the detail offers to print it with the visit.
      ready: '[data-testid="visit-print"]',
      failedId: 'visits.qrFailed',
      retryId: 'visits.qrRetry',
      failure: (page) => page.getByTestId('visit-qr-failed').locator(':scope > p'),
    }),
    screen: 'VisitDetail',
    answers: {
      '404': {
        shown: (page) => page.getByTestId('visit-qr-none').locator(':scope > p'),
        why: 'a 404 says the visitor holds no valid QR credential: there is nothing to print, and the detail says so and how to have one',
      },
    },
  },
];
