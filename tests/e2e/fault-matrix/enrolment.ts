import { expect, type Page } from '@playwright/test';
import { fixture } from '../support';
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
      await page.getByTestId('capture-file').setInputFiles(fixture('passport.jpg'));
      await page.getByTestId('capture-use').click();
    },
    retry: { id: 'upload.retry', button: (page) => page.getByTestId('upload-retry') },
    failure: (page) => page.getByTestId('upload-failed').locator('p'),
    action: true,
    form: {
      fill: async () => {},
      values: enrolmentStep,
    },
  },
];
