import { expect, type Page, type Route } from '@playwright/test';
import { seededUser } from '../../../server/db/seed-users';
import { fixture, type Lang, port, t } from '../support';
import { type Driver, retryButton } from './driver';

// The enrolment's calls: the onboarding, the document and selfie portrayals, liveness, rights and the QR hand-off.
// Each journey is a newcomer no other journey signs in as (tests/e2e/*.spec.ts take 1–12, 16–22, 24, 26, 27, 29,
// 30): the steps before the faulted call are made for real, on that person's own onboarding.
//
// This area's rule is that nothing done is lost: after a failure the person goes on from the same step, and after a
// 401 and signing in again the enrolment resumes where it was (kept in this browser, src/actors/enrolment.ts). The
// journeys past Start read that back as their "form": the step on screen and the onboarding kept in the browser.

/** The onboarding this browser keeps for the signed-in person (spec §3: the onboarding state persists). */
const keptOnboarding = (page: Page) =>
  page.evaluate(() => {
    for (const key of Object.keys(localStorage)) {
      if (!key.startsWith('portal.enrolment:')) continue;
      const snapshot = JSON.parse(localStorage.getItem(key) ?? '{}') as {
        context?: { onboardingId?: string | null };
      };
      return snapshot.context?.onboardingId ?? '';
    }
    return '';
  });

/** Where the enrolment stands: the screen on show and the onboarding kept in this browser. */
async function enrolmentStep(page: Page): Promise<Record<string, string>> {
  return {
    screen: (await page.locator('main[data-route]').first().getAttribute('data-route')) ?? '',
    onboarding: await keptOnboarding(page),
  };
}

/** From Landing, Start made for real: on PrivacyOnboarding with the terms shown. */
async function startForReal(page: Page) {
  await page.getByTestId('enrolment-start').click();
  await expect(page).toHaveURL(/\/privacy-onboarding$/);
  await expect(page.getByTestId('privacy-accept')).toBeEnabled();
}

/** From PrivacyOnboarding, the terms accepted for real: on RegisterDocuments. */
async function acceptForReal(page: Page) {
  await page.locator('#accept-terms').check();
  await page.getByTestId('privacy-accept').click();
  await expect(page).toHaveURL(/\/register-documents$/);
}

/** From RegisterDocuments, a passport chosen for real (one side, no back): on DocumentScan, its front. */
async function choosePassportForReal(page: Page) {
  await page.locator('input[name="document-type"][value="passport"]').check();
  await page.getByTestId('documents-continue').click();
  await expect(page).toHaveURL(/\/document-scan$/);
}

const sentBy = (testId: string) => async (page: Page) => {
  await page.getByTestId(testId).click();
};

/** The capture step's file chooser: a picture from a file instead of the camera, then Use. */
async function pictureFromFile(page: Page, name: string) {
  await page.getByTestId('capture-file').setInputFiles(fixture(name));
  await page.getByTestId('capture-use').click();
}

/**
 * From DocumentScan, the passport's page and the selfie sent for real: the engine judges them (up to a minute on a
 * busy machine) and ReviewRegister shows what it read from the passport's MRZ.
 */
async function picturesForReal(page: Page) {
  await pictureFromFile(page, 'passport.jpg');
  await expect(page).toHaveURL(/\/take-selfie$/);
  await pictureFromFile(page, 'selfie.jpg');
  await expect(page.getByTestId('review-confirm')).toBeVisible({ timeout: 90_000 });
}

const CHALLENGES = /\/api\/internal\/challenges$/;

/** TakeSelfieAlive's retry when its proof could not be sent. */
const uploadRetry = (page: Page, lang: Lang) =>
  page.locator('main [role="alert"]').getByRole('button', { name: t(lang, 'upload.retry'), exact: true });

/** TakeSelfieAlive's retry when its challenge could not be had. */
const challengeRetry = (page: Page, lang: Lang) =>
  page.locator('main [role="alert"]').getByRole('button', { name: t(lang, 'enrolment.retry'), exact: true });

const RESULT = /\/api\/internal\/portrayals\/[\w-]+$/;

/**
 * The pictures' uploads answered as the server does, without the server: it never has pictures to judge, so the
 * engine never works for this journey, and the poll of the result is the only call that goes out.
 */
async function picturesAnsweredHere(page: Page) {
  await page.route(/\/api\/internal\/portrayals\/([\w-]+)\/(obverse|selfie)$/, (route) => {
    const [, portrayal, image] = /portrayals\/([\w-]+)\/(\w+)$/.exec(route.request().url()) ?? [];
    return route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        portrayal_id: portrayal,
        image,
        format: 'jpeg',
        width: 1200,
        height: 800,
        bytes: 90_000,
      }),
    });
  });
}

/**
 * Sends the pictures (or, after a failure, asks for their result again) and waits for the first look at the result to
 * be answered; a poll that keeps failing gives up after 16 s, which the page's clock jumps to. A look that is held
 * (the delay) is left to the runner, and so is a 401 (the person is signed out).
 */
async function lookForResult(page: Page) {
  const again = page.getByTestId('result-retry');
  const looked = Promise.race([
    page.waitForEvent('requestfinished', { predicate: (r) => RESULT.test(r.url()), timeout: 5_000 }),
    page.waitForEvent('requestfailed', { predicate: (r) => RESULT.test(r.url()), timeout: 5_000 }),
  ]).catch(() => null);
  if (await again.isVisible()) await again.click();
  else {
    await pictureFromFile(page, 'passport.jpg');
    await expect(page).toHaveURL(/\/take-selfie$/);
    await pictureFromFile(page, 'selfie.jpg');
  }
  const request = await looked;
  if (!request) return;
  if ((await request.response())?.status() === 401) return;
  await page.clock.fastForward(16_000);
  await expect(page.getByTestId('scan-failure')).toBeVisible();
}

/** RegisterForm's contact fields as the person left them. */
const contactValues = async (page: Page) => ({
  ...(await enrolmentStep(page)),
  email: await page.locator('#form-email').inputValue(),
  phone: await page.locator('#form-phone').inputValue(),
  nie: await page.locator('#form-nie').inputValue(),
});

// --- The QR hand-off (DeviceDetect): a computer shows a user code and follows the phone; a phone continues by it ---

const ONBOARDING_ID = '00000000-0000-4000-8000-00000000fa27';
const json = (body: unknown) => ({
  status: 200,
  contentType: 'application/json',
  body: JSON.stringify(body),
});
const USER_CODE = /\/api\/user-code\/generate$/;
const STATUS = /\/api\/internal\/onboardings\/[\w-]+\/status$/;

/** Where the hand-off's onboarding stands, as the server answers it: nothing done on the phone yet. */
const answerStatus = (route: Route) =>
  route.fulfill(
    json({
      onboarding_id: ONBOARDING_ID,
      status: 'started',
      legal_terms_accepted: false,
      portrayals: [],
      outcome: null,
      reason: null,
      user_id: null,
      qr_sid: null,
      updated_at: new Date(0).toISOString(),
    }),
  );

const answerCode = (route: Route) =>
  route.fulfill(
    json({
      code: 'ABCD2345',
      onboarding_id: ONBOARDING_ID,
      expires_at: new Date(Date.now() + 600_000).toISOString(),
      expires_in: 600,
    }),
  );

/**
 * On a computer, Start answered here (no onboarding is made on the server): the enrolment sends the person to
 * DeviceDetect, which generates a user code and follows the onboarding's status. The status is answered as the
 * server would, nothing done on the phone yet.
 */
async function startOnComputer(page: Page) {
  await page.route(/\/api\/internal\/onboardings$/, (route) =>
    route.request().method() === 'POST'
      ? route.fulfill(
          json({
            onboarding_id: ONBOARDING_ID,
            identity_proofing: true,
            life_proofing: false,
            biometric_qr: false,
            supported_docs: ['passport'],
          }),
        )
      : route.fallback(),
  );
  await page.route(STATUS, answerStatus);
  await page.getByTestId('enrolment-start').click();
  await expect(page).toHaveURL(/\/device-detect$/);
}

const newCode = (page: Page) => page.getByTestId('device-detect-new-code');

const ONBOARDING = /\/api\/internal\/onboardings\/[\w-]+$/;

/** What an onboarding is, as the server answers it to a phone that continues it. */
const answerOnboarding = (route: Route) =>
  route.request().method() === 'GET'
    ? route.fulfill(
        json({
          onboarding_id: ONBOARDING_ID,
          identity_proofing: true,
          life_proofing: false,
          biometric_qr: false,
          supported_docs: ['passport'],
        }),
      )
    : route.fallback();

/**
 * A phone that continues an onboarding by its code: it loads the onboarding and its status at once, and either
 * failing sends the person back to Landing, told why. The code's redemption and the call not faulted are answered
 * here, so no code is spent and no onboarding is touched.
 */
function continueDriver(name: string, call: string, url: RegExp, answered: RegExp): Driver {
  return {
    name,
    screen: 'DeviceDetect',
    calls: [call],
    user: 'newcomer-14',
    path: '/device-detect',
    enter: async (page) => {
      await page.route(/\/api\/user-code\/redeem$/, (route) =>
        route.fulfill(
          json({ onboarding_id: ONBOARDING_ID, expires_at: new Date(Date.now() + 600_000).toISOString() }),
        ),
      );
      await page.route(answered, answered === STATUS ? answerStatus : answerOnboarding);
    },
    url,
    method: 'GET',
    ready: async (page) => {
      await expect(page.getByTestId('device-detect-code-form')).toBeVisible();
    },
    // A failed continuation leaves the person on Landing: they open DeviceDetect and send the code again.
    trigger: async (page) => {
      if (!new URL(page.url()).pathname.endsWith('/device-detect')) await page.goto('/device-detect');
      const form = page.getByTestId('device-detect-code-form');
      await form.locator('input').fill('ABCD2345');
      await form.getByRole('button').click();
    },
    retry: { none: 'the person is back on Landing, and sends the code again from DeviceDetect' },
    action: true,
  };
}

export const ENROLMENT_DRIVERS: Driver[] = [
  {
    name: 'EnrolmentStart',
    screen: 'Landing',
    calls: ['POST /internal/onboardings'],
    // Start never reaches the server here: every answer is the interception's.
    user: 'newcomer-13',
    path: '/landing',
    url: /\/api\/internal\/onboardings$/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('enrolment-start')).toBeEnabled();
    },
    // Start again is the retry: the enrolment is back on Landing, nothing begun.
    trigger: sentBy('enrolment-start'),
    retry: { id: 'landing.start', button: (page) => page.getByTestId('enrolment-start') },
    action: true,
  },
  {
    name: 'PrivacyOnboarding',
    calls: ['PUT /internal/onboardings/{onboardingId}/legal_terms'],
    user: 'newcomer-14',
    path: '/landing',
    enter: startForReal,
    url: /\/api\/internal\/onboardings\/[\w-]+\/legal_terms$/,
    method: 'PUT',
    ready: async (page) => {
      await expect(page.getByTestId('privacy-accept')).toBeEnabled();
    },
    trigger: sentBy('privacy-accept'),
    retry: retryButton('privacy.submit'),
    action: true,
    form: {
      // The tick stays for the retry; a sign-out takes it (consent is given again, signed in), not the step.
      fill: async (page) => {
        await page.locator('#accept-terms').check();
      },
      values: enrolmentStep,
    },
  },
  {
    name: 'RegisterDocuments',
    calls: ['POST /internal/portrayals'],
    user: 'newcomer-15',
    path: '/landing',
    enter: async (page) => {
      await startForReal(page);
      await acceptForReal(page);
    },
    url: /\/api\/internal\/portrayals$/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('documents-continue')).toBeEnabled();
    },
    trigger: sentBy('documents-continue'),
    retry: retryButton('enrolment.continue'),
    action: true,
    form: {
      fill: async (page) => {
        await page.locator('input[name="document-type"][value="passport"]').check();
      },
      values: enrolmentStep,
    },
  },
  {
    name: 'DocumentScanUpload',
    screen: 'DocumentScan',
    calls: ['PUT /internal/portrayals/{portrayalId}/{kind}'],
    user: 'newcomer-23',
    path: '/landing',
    enter: async (page) => {
      await startForReal(page);
      await acceptForReal(page);
      await choosePassportForReal(page);
    },
    url: /\/api\/internal\/portrayals\/[\w-]+\/obverse$/,
    method: 'PUT',
    ready: async (page) => {
      await expect(page.getByTestId('capture-file').or(page.getByTestId('upload-retry'))).toHaveCount(1);
    },
    // The passport's page from a file (the fake camera's card is not what a passport step reads); after a failure
    // the same picture is sent again, not taken again.
    trigger: async (page) => {
      const again = page.getByTestId('upload-retry');
      if (await again.isVisible()) {
        await again.click();
        return;
      }
      await pictureFromFile(page, 'passport.jpg');
    },
    retry: { id: 'upload.retry', button: (page) => page.getByTestId('upload-retry') },
    failure: (page) => page.getByTestId('upload-failed').locator('p'),
    action: true,
    form: {
      fill: async () => {},
      // The step, and whether the picture is still there to send again (the step does not ask for it again).
      values: async (page) => ({
        ...(await enrolmentStep(page)),
        picture: (await page
          .locator('main [role="alert"]')
          .filter({ hasText: t('es', 'upload.imageNotAvailable') })
          .isVisible())
          ? 'asked for again'
          : 'kept',
      }),
      // Signed in again, the front is on screen and asks for the picture again, in words.
      notKeptOnSignOut: {
        fields: ['picture'],
        shown: (page, lang) =>
          page.locator('main [role="alert"] > p').filter({ hasText: t(lang, 'upload.imageNotAvailable') }),
        why: "a picture of a document lives in the page's memory only, never in the browser's storage: a sign-out leaves the page, and the step asks for the picture again",
      },
    },
  },
  {
    name: 'ReviewRegisterConfirm',
    screen: 'RegisterForm',
    calls: ['PUT /internal/onboardings/{onboardingId}/portrayals/{portrayalId}'],
    // The confirmation never reaches the server: the person stays unenrolled, their document number unused.
    user: 'newcomer-25',
    path: '/landing',
    enter: async (page) => {
      await startForReal(page);
      await acceptForReal(page);
      await choosePassportForReal(page);
      await picturesForReal(page);
      await page.getByTestId('review-confirm').click();
      await expect(page).toHaveURL(/\/register-form$/);
    },
    url: /\/api\/internal\/onboardings\/[\w-]+\/portrayals\/[\w-]+$/,
    method: 'PUT',
    ready: async (page) => {
      await expect(page.getByTestId('form-submit')).toBeEnabled();
    },
    trigger: sentBy('form-submit'),
    retry: retryButton('registerForm.submit'),
    // What the form says above its fields (a refusal the server gave no field for), beside the client's notice.
    failure: (page) => page.locator('main [role="alert"] > p'),
    action: true,
    form: {
      fill: async (page) => {
        await page.locator('#form-email').fill('fault.matrix@example.test');
        await page.locator('#form-phone').fill('+34 600 000 000');
      },
      values: contactValues,
    },
  },
  {
    name: 'EnrolmentCancel',
    screen: 'PrivacyOnboarding',
    calls: ['DELETE /internal/onboardings/{onboardingId}'],
    // Start is made for real before each cancel; the account is EnrolmentStart's, whose Start never reaches the
    // server, so neither sees the other's onboardings.
    user: 'newcomer-13',
    path: '/landing',
    url: /\/api\/internal\/onboardings\/[\w-]+$/,
    method: 'DELETE',
    ready: async (page) => {
      await expect(page.getByTestId('enrolment-start')).toBeEnabled();
    },
    // From Landing: Start, then Cancel on the terms, confirmed.
    trigger: async (page) => {
      await startForReal(page);
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByTestId('enrolment-cancel').click();
    },
    retry: { none: 'the person asked to leave' },
    answers: Object.fromEntries(
      (['abort', '500', '403', '404', '409', 'delay', 'malformed'] as const).map((fault) => [
        fault,
        {
          shown: (page: Page) => page.locator('[data-screen="Landing"] h1'),
          why: 'the person asked to leave and is on Landing whatever the server says; an onboarding left on the server is forgotten in its own time',
        },
      ]),
    ),
    action: true,
  },
  {
    name: 'PortrayalResult',
    screen: 'ReviewRegister',
    calls: ['GET /internal/portrayals/{portrayalId}'],
    user: 'newcomer-28',
    path: '/landing',
    enter: async (page) => {
      await startForReal(page);
      await acceptForReal(page);
      await choosePassportForReal(page);
      await picturesAnsweredHere(page);
    },
    url: RESULT,
    method: 'GET',
    ready: async (page) => {
      await expect(page.getByTestId('capture-file').or(page.getByTestId('result-retry'))).toHaveCount(1);
    },
    trigger: lookForResult,
    // The pictures are on the server: asking again for their result is the retry, not taking them again.
    retry: { id: 'scanFailure.checkAgain', button: (page) => page.getByTestId('result-retry') },
    // The poll says nothing of each failed look (it looks again every 2 s); the screen says when it gives up.
    failure: (page) => page.getByTestId('scan-failure').locator('h2, p'),
    action: true,
    form: {
      fill: async () => {},
      values: enrolmentStep,
    },
  },
  {
    name: 'AccreditFace',
    calls: ['POST /internal/rights'],
    // An enrolled person whose accreditations the journeys only read: every answer here is the interception's.
    user: 'user',
    path: '/accredit-face',
    url: /\/api\/internal\/rights$/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('accredit-request')).toBeEnabled();
    },
    // Asking again is the retry the failure offers.
    trigger: async (page, lang) => {
      const again = page.getByRole('button', { name: t(lang, 'accreditation.retry'), exact: true });
      if (await again.isVisible()) await again.click();
      else await page.getByTestId('accredit-request').click();
    },
    retry: retryButton('accreditation.retry'),
    failure: (page) => page.locator('main [role="alert"] > p'),
    action: true,
  },
  {
    name: 'DeviceDetectRedeem',
    screen: 'DeviceDetect',
    calls: ['POST /user-code/redeem'],
    // The phone that redeems the code a computer shows; every answer here is the interception's.
    user: 'newcomer-14',
    path: '/device-detect',
    url: /\/api\/user-code\/redeem$/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('device-detect-code-form')).toBeVisible();
    },
    trigger: async (page) => {
      await page.getByTestId('device-detect-code-form').getByRole('button').click();
    },
    // The code stays in the field: sending it again is the retry.
    retry: retryButton('deviceDetect.codeForm.submit'),
    failure: (page) => page.getByTestId('device-detect-redeem-error').locator('p'),
    action: true,
    form: {
      fill: async (page) => {
        await page.getByTestId('device-detect-code-form').locator('input').fill('ABCD2345');
      },
      values: async (page) => ({
        code: await page.getByTestId('device-detect-code-form').locator('input').inputValue(),
      }),
    },
  },
  {
    name: 'TakeSelfieAliveChallenge',
    screen: 'TakeSelfieAlive',
    calls: ['POST /internal/challenges'],
    // The tenant whose enrolment is a selfie with the liveness proof (tests/fixtures/tenants/selfie); its
    // newcomer-01 is enrolment-screens.spec.ts'.
    origin: `http://selfie.localhost:${port}`,
    user: 'newcomer-02',
    path: '/landing',
    // To TakeSelfieAlive for real, its first challenge not answered (the network): the screen then offers to ask
    // for one again, which is how every cell makes the call.
    enter: async (page) => {
      await startForReal(page);
      await page.locator('#accept-terms').check();
      await page.getByTestId('privacy-accept').click();
      await expect(page).toHaveURL(/\/register-selfie$/);
      const lost = (route: Route) => route.abort('failed');
      await page.route(CHALLENGES, lost);
      await page.getByTestId('selfie-start').click();
      await expect(page).toHaveURL(/\/take-selfie-alive$/);
      await expect(challengeRetry(page, 'es')).toBeVisible();
      await page.unroute(CHALLENGES, lost);
    },
    url: CHALLENGES,
    method: 'POST',
    ready: async (page, lang) => {
      await expect(challengeRetry(page, lang)).toBeEnabled();
    },
    trigger: async (page, lang) => {
      await challengeRetry(page, lang).click();
    },
    retry: { id: 'enrolment.retry', button: challengeRetry },
    failure: (page) => page.locator('main [role="alert"] > p'),
    action: true,
  },
  {
    name: 'PortalUserLocation',
    screen: 'PortalUserDetail',
    calls: ['POST /public/credentials/{userId}/locations'],
    // Every answer here is the interception's: the person's locations stay as seeded (staff-actions.spec.ts adds
    // one to user 31 for real).
    user: 'admin',
    path: '/users',
    enter: async (page) => {
      await page.getByTestId('users-search').fill(seededUser('gambling', 37).id_number);
      await page.getByTestId('users-search').press('Enter');
      await expect(page.getByTestId('users').locator('tbody tr')).toHaveCount(1);
      await page.getByTestId('users').getByRole('link').first().click();
      await page.getByTestId('user-tab-credentials').click();
    },
    url: /\/api\/public\/credentials\/[\w-]+\/locations$/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('user-location-add')).toBeEnabled();
    },
    // Adding again is the retry: the same facility is still chosen.
    trigger: sentBy('user-location-add'),
    retry: { id: 'userDetail.locations.add', button: (page) => page.getByTestId('user-location-add') },
    failure: (page) => page.locator('[data-testid="user-locations"] [role="alert"] > p'),
    action: true,
  },
  {
    name: 'DeviceDetectCode',
    screen: 'DeviceDetect',
    calls: ['POST /user-code/generate'],
    desktop: true,
    // Every answer here is the interception's: the onboarding is made up, and so is every code.
    user: 'newcomer-13',
    path: '/landing',
    // To DeviceDetect with the first code not had (the network): the screen then offers a new one, which is how
    // every cell makes the call.
    enter: async (page) => {
      const lost = (route: Route) => route.abort('failed');
      await page.route(USER_CODE, lost);
      await startOnComputer(page);
      await expect(newCode(page)).toBeVisible();
      await page.unroute(USER_CODE, lost);
    },
    url: USER_CODE,
    method: 'POST',
    ready: async (page) => {
      await expect(newCode(page)).toBeEnabled();
    },
    trigger: sentBy('device-detect-new-code'),
    retry: { id: 'deviceDetect.code.renew', button: newCode },
    failure: (page) => page.getByTestId('device-detect-code').locator('[role="alert"] p'),
    action: true,
  },
  {
    name: 'DeviceDetectProgress',
    screen: 'DeviceDetect',
    calls: ['GET /internal/onboardings/{onboardingId}/status'],
    desktop: true,
    user: 'newcomer-13',
    path: '/landing',
    enter: async (page) => {
      await page.route(USER_CODE, answerCode);
      await startOnComputer(page);
    },
    url: STATUS,
    method: 'GET',
    ready: async (page) => {
      await expect(page.getByTestId('device-detect-user-code')).toBeVisible();
      await expect(page.getByTestId('device-detect-progress')).toBeVisible();
    },
    // The computer asks again every 3 s by itself: the next question is the call. After a failure the page is
    // opened again, so that what the cell reads is said of its own question, not left from the one before (and
    // once the onboarding is gone nothing is asked any more).
    trigger: async (page) => {
      const said = page
        .getByTestId('device-detect-progress-failed')
        .or(page.getByTestId('device-detect-gone'));
      if (await said.isVisible()) await page.reload();
      else await page.clock.fastForward(3_000);
    },
    retry: { none: 'the computer asks again by itself every 3 s' },
    // A question unanswered: the steps stay as last known, and the screen says they could not be checked. The
    // onboarding gone (a 404): the screen says so and offers to start again.
    failure: (page) =>
      page
        .getByTestId('device-detect-progress-failed')
        .or(page.getByTestId('device-detect-gone'))
        .locator('p'),
    action: true,
  },
  continueDriver('DeviceDetectContinue', 'GET /internal/onboardings/{onboardingId}', ONBOARDING, STATUS),
  continueDriver(
    'DeviceDetectContinueStatus',
    'GET /internal/onboardings/{onboardingId}/status',
    STATUS,
    ONBOARDING,
  ),
  {
    name: 'TakeSelfieAliveUpload',
    screen: 'TakeSelfieAlive',
    calls: ['PUT /internal/portrayals/{portrayalId}/lifeproof'],
    // The selfie tenant's newcomer no other journey signs in as (01 is enrolment-screens.spec.ts', 02 the
    // challenge's journey above). The steps before are made for real; the challenge is answered here (one turn, so
    // that one picture from a file is the whole proof) and the proof never reaches the engine.
    origin: `http://selfie.localhost:${port}`,
    user: 'newcomer-03',
    path: '/landing',
    enter: async (page) => {
      await page.route(CHALLENGES, (route) =>
        route.fulfill({
          status: 201,
          contentType: 'application/json',
          body: JSON.stringify({
            challenge_id: 'fault-matrix-challenge',
            actions: ['turn_left'],
            expiration: 600,
            expires_at: new Date(Date.now() + 600_000).toISOString(),
          }),
        }),
      );
      await startForReal(page);
      await page.locator('#accept-terms').check();
      await page.getByTestId('privacy-accept').click();
      await expect(page).toHaveURL(/\/register-selfie$/);
      await page.getByTestId('selfie-start').click();
      await expect(page).toHaveURL(/\/take-selfie-alive$/);
    },
    url: /\/api\/internal\/portrayals\/[\w-]+\/lifeproof$/,
    method: 'PUT',
    ready: async (page) => {
      await expect(page.getByTestId('capture-file').or(uploadRetry(page, 'es'))).toHaveCount(1);
    },
    // The pictures are kept for the retry: sending them again is the retry, not doing the turns again.
    trigger: async (page, lang) => {
      const again = uploadRetry(page, lang);
      if (await again.isVisible()) await again.click();
      else await pictureFromFile(page, 'selfie.jpg');
    },
    retry: { id: 'upload.retry', button: uploadRetry },
    failure: (page) => page.locator('main [role="alert"] > p'),
    action: true,
  },
];
