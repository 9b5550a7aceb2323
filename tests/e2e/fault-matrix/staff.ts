import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { t, withTenantSettings } from '../support';
import { type Driver, retryButton } from './driver';

// The staff's calls beyond their lists: administration, watchlists, bulk registration, reception and the audit's tabs.

/**
 * The tenant's settings with useWatch on, from now on in this page: the portal then sends its interdiction checks
 * and watchlists to the watch service (POST /enforcements, /watchlists with the alternate host header, spec §7).
 * No tenant the journeys serve has it on, so the journey turns it on for itself, and opens the screen again.
 */
async function onWatchHost(page: Page) {
  await withTenantSettings(page, (settings) => ({ ...settings, useWatch: true }));
  await page.reload();
}

type AdminAction = 'activateAll' | 'deactivateAll' | 'deleteUsers' | 'deleteAllData';

/**
 * Administration: one of its four tenant-wide actions, behind the dialog where the admin types the tenant's name.
 * Every answer is the interception's: nobody is activated, deactivated or deleted (`action`: the runner never makes
 * the call for real). The retry is the action's own button, which asks for the name again.
 */
function adminDriver(name: string, action: AdminAction, call: string, url: RegExp, method: string): Driver {
  const button = (page: Page) => page.getByTestId(`admin-${action}`);
  return {
    name,
    screen: 'Administration',
    calls: [call],
    user: 'admin',
    path: '/administration',
    url,
    method,
    ready: async (page) => {
      await expect(button(page)).toBeEnabled();
    },
    trigger: async (page) => {
      await button(page).click();
      const dialog = page.getByTestId('admin-confirm');
      const tenant = (await dialog.locator('strong').first().textContent()) ?? '';
      await page.getByTestId('admin-confirm-name').fill(tenant);
      await page.getByTestId('admin-confirm-yes').click();
    },
    retry: { id: `admin.${action}.title`, button },
    failure: (page) => page.locator('main [role="alert"] > p'),
    action: true,
  };
}

/** CheckInterdictions: an assistant checks one person; what was typed stays for the retry. */
function interdictionsDriver(name: string, call: string, url: RegExp, watch: boolean): Driver {
  const driver: Driver = {
    name,
    screen: 'CheckInterdictions',
    calls: [call],
    user: 'assistant',
    path: '/check-interdictions',
    url,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('interdictions-submit')).toBeEnabled();
    },
    trigger: async (page) => {
      await page.getByTestId('interdictions-submit').click();
    },
    // Checking again is the retry: the same button, with the form as it was.
    retry: {
      id: 'interdictions.submit',
      button: (page) => page.getByTestId('interdictions-submit'),
    },
    failure: (page) => page.locator('[data-testid="interdictions-error"] > p'),
    form: {
      fill: async (page) => {
        await page.getByTestId('interdictions-id_number').fill('12345678Z');
        await page.getByTestId('interdictions-birth_date').fill('1980-01-01');
      },
      values: async (page) => ({
        idNumber: await page.getByTestId('interdictions-id_number').inputValue(),
        birthDate: await page.getByTestId('interdictions-birth_date').inputValue(),
      }),
    },
  };
  if (watch) driver.enter = onWatchHost;
  return driver;
}

// --- AddUsersFromPhotos ---------------------------------------------------------------------------------------------

/** The fixture zip's two people (scripts/make-fixtures.mjs); the answers are the interception's, nobody is added. */
const BULK_METADATA = Buffer.from(
  'email,first_name,last_name,acs_id,image\r\n' +
    'ane.fault@bulk.example.test,Ane,Etxeberria,FAULT-BULK-1,photos/ane.jpg\r\n' +
    'jon.fault@bulk.example.test,Jon,Ruiz,FAULT-BULK-2,photos/jon.jpg\r\n',
);
const BULK_JOB = 'fault-matrix-job';
/** The job of the fixture's two people, finished: both registered (an answer of the journey's own). */
const BULK_DONE = {
  job_id: BULK_JOB,
  status: 'done',
  total: 2,
  done: 2,
  accepted: 2,
  rejected: 0,
  rows: [
    {
      row: 1,
      email: 'ane.fault@bulk.example.test',
      outcome: 'accepted',
      reason: null,
      code: 0,
      user_id: null,
    },
    {
      row: 2,
      email: 'jon.fault@bulk.example.test',
      outcome: 'accepted',
      reason: null,
      code: 0,
      user_id: null,
    },
  ],
};

async function chooseBulkFiles(page: Page) {
  await page.locator('#bulk-metadata').setInputFiles({
    name: 'people.csv',
    mimeType: 'text/csv',
    buffer: BULK_METADATA,
  });
  await page.locator('#bulk-media').setInputFiles({
    name: 'photos.zip',
    mimeType: 'application/zip',
    buffer: readFileSync('tests/fixtures/generated/bulk-photos.zip'),
  });
  await expect(page.getByTestId('bulk-ready')).toBeVisible();
}

/** The chosen files (name and size): on the choosers, or, once a failure replaced them, what the screen keeps. */
async function bulkFiles(page: Page): Promise<Record<string, string>> {
  const kept = page.getByTestId('bulk-kept');
  if (await kept.isVisible()) {
    return {
      metadata: (await kept.getAttribute('data-metadata')) ?? '',
      media: (await kept.getAttribute('data-media')) ?? '',
    };
  }
  const chosen = (id: string) =>
    page
      .locator(`#${id}`)
      .evaluate((input: HTMLInputElement) =>
        [...(input.files ?? [])].map((f) => `${f.name} ${f.size}`).join(),
      );
  return { metadata: await chosen('bulk-metadata'), media: await chosen('bulk-media') };
}

const bulkFailure = (page: Page) => page.locator('[data-testid="bulk-failed"] > p');

// --- UploadWatchlist ----------------------------------------------------------------------------------------------

/** A list of one valid row; every answer is the interception's, no domain's list is replaced. */
const WATCHLIST_CSV = Buffer.from('dni;fecha_nacimiento\n99999990S;01/01/1980\n');

function watchlistDriver(name: string, call: string, url: RegExp, watch: boolean): Driver {
  const driver: Driver = {
    name,
    screen: 'UploadWatchlist',
    calls: [call],
    user: 'admin',
    path: '/upload-watchlist',
    url,
    method: 'POST',
    ready: async (page) => {
      await expect(page.getByTestId('watchlist-file')).toBeEnabled();
    },
    trigger: async (page) => {
      await page.getByTestId('watchlist-upload').click();
    },
    // Uploading again is the retry: the same button, the same file and legal domain.
    retry: { id: 'watchlist.upload', button: (page) => page.getByTestId('watchlist-upload') },
    failure: (page) => page.locator('[data-testid="watchlist-send-failed"] > p'),
    form: {
      fill: async (page) => {
        await page.getByTestId('watchlist-domain').selectOption({ index: 1 });
        await page.getByTestId('watchlist-file').setInputFiles({
          name: 'fault-matrix.csv',
          mimeType: 'text/csv',
          buffer: WATCHLIST_CSV,
        });
        await expect(page.getByTestId('watchlist-upload')).toBeEnabled();
      },
      // The chooser is emptied once read (the same file may be chosen again): the preview names the file kept.
      values: async (page) => {
        const preview = page.getByTestId('watchlist-preview');
        return {
          domain: await page.getByTestId('watchlist-domain').inputValue(),
          file: (await preview.count()) > 0 ? ((await preview.getAttribute('data-file-name')) ?? '') : '',
        };
      },
      // The legal domain is kept in the tab's draft; the csv is not.
      notKeptOnSignOut: {
        fields: ['file'],
        shown: (page) => page.getByTestId('watchlist-choose-again'),
        why: 'the csv is personal data of the people listed: it is never stored in the browser, and the form asks for it again',
      },
    },
    action: true,
  };
  if (watch) driver.enter = onWatchHost;
  return driver;
}

/** What GET /public/watchlists/uploads/{id} answers for a stored version (the journey's own, no server's). */
const STORED_UPLOAD = {
  success: true,
  stored: {
    watchlist_id: 'fault-matrix-upload',
    legal_domain: 'es-ri',
    row_count: 1,
    created_at: '2026-01-05T09:30:00Z',
    file_name: 'fault-matrix.csv',
    current: true,
  },
};

export const STAFF_DRIVERS: Driver[] = [
  adminDriver(
    'AdminActivateAll',
    'activateAll',
    'PUT /public/credentials/active',
    /\/api\/public\/credentials\/active$/,
    'PUT',
  ),
  adminDriver(
    'AdminDeactivateAll',
    'deactivateAll',
    'PUT /public/credentials/inactive',
    /\/api\/public\/credentials\/inactive$/,
    'PUT',
  ),
  adminDriver('AdminDeleteUsers', 'deleteUsers', 'DELETE /public/users', /\/api\/public\/users$/, 'DELETE'),
  adminDriver(
    'AdminDeleteAllData',
    'deleteAllData',
    'PUT /public/users/deleteAllData',
    /\/api\/public\/users\/deleteAllData$/,
    'PUT',
  ),
  interdictionsDriver(
    'CheckInterdictions',
    'POST /internal/enforcements',
    /\/api\/internal\/enforcements$/,
    false,
  ),
  interdictionsDriver('CheckInterdictionsWatch', 'POST /enforcements', /\/api\/enforcements$/, true),
  {
    name: 'AddUsersFromPhotos',
    calls: ['POST /public/singles/bulk'],
    user: 'usermanager',
    path: '/bulk-registration',
    url: /\/api\/public\/singles\/bulk$/,
    method: 'POST',
    ready: async (page) => {
      await expect(page.locator('#bulk-metadata')).toBeEnabled();
    },
    // Uploading: the screen's Try again after a failure, the Upload button the first time.
    trigger: async (page, lang) => {
      const again = page.getByRole('button', { name: t(lang, 'bulk.retry'), exact: true });
      if (await again.isVisible()) await again.click();
      else await page.getByRole('button', { name: t(lang, 'bulk.upload'), exact: true }).click();
    },
    retry: retryButton('bulk.retry'),
    failure: bulkFailure,
    held: {
      // The upload's progress, announced (the bar bears the same words).
      waiting: (page) => page.locator('main p[role="status"]'),
      cancel: (page, lang) => page.getByRole('button', { name: t(lang, 'bulk.cancel'), exact: true }),
      // Accepted as a job the server has already finished: nobody is added.
      release: async (page, route) => {
        await page.route(/\/api\/public\/singles\/bulk\/[\w-]+$/, (job) => job.fulfill({ json: BULK_DONE }));
        await route.fulfill({ status: 202, json: { job_id: BULK_JOB, total: 2 } });
      },
      result: (page) => page.locator('#bulk-summary'),
      why: 'the upload has no timeout (a large zip on a slow line takes as long as it takes): it waits, with its progress and Cancel, and nothing gives up by itself',
    },
    form: {
      fill: chooseBulkFiles,
      values: bulkFiles,
      notKeptOnSignOut: {
        fields: ['metadata', 'media'],
        shown: (page) => page.getByTestId('bulk-choose-again'),
        why: 'the photos are biometric data and the metadata names people: neither is stored in the browser, and the screen asks for both again',
      },
    },
    action: true,
  },
  {
    name: 'AddUsersFromPhotosProgress',
    screen: 'AddUsersFromPhotos',
    calls: ['GET /public/singles/bulk/{jobId}'],
    user: 'usermanager',
    path: '/bulk-registration',
    // The upload is the journey's own (accepted as a job that keeps running): nobody is added, and the job's
    // progress is read every second until a fault lands on one reading.
    enter: async (page) => {
      await page.route(/\/api\/public\/singles\/bulk(\/[\w-]+)?$/, (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({ status: 202, json: { job_id: BULK_JOB, total: 2 } })
          : route.fulfill({
              json: {
                job_id: BULK_JOB,
                status: 'running',
                total: 2,
                done: 0,
                accepted: 0,
                rejected: 0,
                rows: [],
              },
            }),
      );
      await chooseBulkFiles(page);
      await page.getByTestId('bulk-ready').locator('xpath=..').getByRole('button').click();
    },
    url: /\/api\/public\/singles\/bulk\/[\w-]+$/,
    method: 'GET',
    ready: async (page) => {
      await expect(page.getByTestId('bulk-processing')).toBeVisible();
    },
    // The next reading comes by itself while the import runs; after a failure, the screen's Read again.
    trigger: async (page, lang) => {
      const again = page.getByRole('button', { name: t(lang, 'bulk.readAgain'), exact: true });
      if (await again.isVisible()) await again.click();
    },
    retry: retryButton('bulk.readAgain'),
    failure: bulkFailure,
    action: true,
  },
  watchlistDriver('UploadWatchlist', 'POST /public/watchlists', /\/api\/public\/watchlists$/, false),
  watchlistDriver('UploadWatchlistWatch', 'POST /watchlists', /\/api\/watchlists$/, true),
  {
    name: 'UploadWatchlistResult',
    calls: ['GET /public/watchlists/uploads/{id}'],
    user: 'admin',
    path: '/upload-watchlist',
    // The result of an upload read back by its id (after a reload, or from the audit's enforcement source link):
    // the upload is the journey's own answer, so no domain's list is replaced.
    enter: async (page) => {
      await page.route(/\/api\/public\/watchlists\/uploads\/[\w-]+$/, (route) =>
        route.fulfill({ json: STORED_UPLOAD }),
      );
      await page.goto(`/upload-watchlist-result/true/${STORED_UPLOAD.stored.watchlist_id}`);
    },
    url: /\/api\/public\/watchlists\/uploads\/[\w-]+$/,
    method: 'GET',
    ready: async (page) => {
      await expect(page.getByTestId('watchlist-result')).toHaveAttribute('data-success', 'true');
    },
    trigger: async (page) => {
      const again = page.getByTestId('watchlist-read-again');
      if (await again.isVisible()) await again.click();
      else await page.reload();
    },
    retry: { id: 'watchlist.result.readAgain', button: (page) => page.getByTestId('watchlist-read-again') },
    failure: (page) => page.locator('[data-testid="watchlist-unread"] > p'),
  },
];
