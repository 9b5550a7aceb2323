import { readFileSync } from 'node:fs';
import { devices, expect, type Page, type Response, test } from '@playwright/test';
import pg from 'pg';
import { CLUSTER_STATE_FILE } from '../../playwright.cluster.config';
import { signInFromWelcome, startEnrolment } from '../e2e/support';

// One person's journey across two server processes behind HAProxy (npm run cluster), with requests alternating
// between them (HAProxy names the one that answered in X-Served-By), a process restarted in the middle (SIGTERM: it
// drains, the cluster starts it again), and the login throttle counting the failures made through either process in
// the shared database.

interface ClusterState {
  balancer: string;
  databaseUrl?: string;
  processes: { port: number; pid: number | null }[];
}
const state = (): ClusterState => JSON.parse(readFileSync(CLUSTER_STATE_FILE, 'utf8'));

const fixture = (name: string) => `tests/fixtures/generated/${name}`;

/** Who answered each response of the page through the balancer. */
function servedBy(page: Page): Set<string> {
  const seen = new Set<string>();
  page.on('response', (response: Response) => {
    const by = response.headers()['x-served-by'];
    if (by) seen.add(by);
  });
  return seen;
}

async function capture(page: Page) {
  const take = page.getByTestId('capture-take');
  const use = page.getByTestId('capture-use');
  await expect(take.or(use)).toBeVisible({ timeout: 15_000 });
  if (await take.isVisible()) await take.click({ timeout: 2_000 }).catch(() => undefined);
  await use.click();
}

/** SIGTERM to the first process; resolves once the cluster has started it again and it answers. */
async function restartFirstProcess(): Promise<() => Promise<void>> {
  const before = state().processes[0];
  if (!before?.pid) throw new Error('no first process');
  process.kill(before.pid, 'SIGTERM');
  return async () => {
    await expect
      .poll(() => state().processes[0]?.pid, { timeout: 120_000, intervals: [500] })
      .not.toBe(before.pid);
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${before.port}/health`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 120_000, intervals: [500] },
      )
      .toBe(200);
  };
}

test('a person enrols, renews and a staff member signs in across two processes, one restarted midway', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const servers = servedBy(page);
  let renewals = 0;
  page.on('requestfinished', async (request) => {
    if (request.url().endsWith('/token') && (request.postData() ?? '').includes('grant_type=refresh_token')) {
      if ((await request.response())?.ok()) renewals += 1;
    }
  });

  await signInFromWelcome(page, 'newcomer-01');
  await expect(page).toHaveURL(/\/landing$/);
  await startEnrolment(page, 'DNI o tarjeta de identidad');
  await capture(page);
  await expect(page.getByRole('heading', { name: 'Parte trasera del documento' })).toBeVisible();

  // Mid-journey: the first process is stopped (it drains) and started again while the person goes on.
  const restarted = await restartFirstProcess();
  await capture(page);
  await expect(page).toHaveURL(/\/take-selfie$/);
  await page.getByTestId('capture-file').setInputFiles(fixture('selfie.jpg'));
  await page.getByTestId('capture-use').click();
  await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 30_000 });
  await restarted();

  await page.getByLabel(/^Nombre/).fill('Carmen');
  await page.getByLabel(/^Apellidos/).fill('Española Española');
  await page.getByLabel(/^Fecha de nacimiento/).fill('01/01/1980');
  await page.getByLabel(/^Fecha de caducidad/).fill('01/01/2031');
  await page.getByLabel(/^Número de documento/).fill(`CLU${Date.now().toString(36).toUpperCase()}`);
  await page.getByTestId('review-confirm').click();
  await expect(page).toHaveURL(/\/register-form$/);
  await page.getByTestId('form-submit').click();
  await expect(page).toHaveURL(/\/finish-register\/[\w-]+\/[\w-]+$/, { timeout: 30_000 });
  await expect(page.getByRole('img', { name: /QR/i })).toBeVisible();

  // The session renews (20-second tokens) with refresh tokens kept in the shared database.
  await expect.poll(() => renewals, { timeout: 90_000, intervals: [1000] }).toBeGreaterThanOrEqual(1);
  await page.getByTestId('finish-continue').click();
  await expect(page).toHaveURL(/\/home$/);
  expect([...servers].sort()).toEqual(['p1', 'p2']);

  // A staff member signs in on another phone.
  const staff = await browser.newContext({ ...devices['Pixel 7'], baseURL: state().balancer });
  const staffPage = await staff.newPage();
  const staffServers = servedBy(staffPage);
  await signInFromWelcome(staffPage, 'receptionist');
  await expect(staffPage).toHaveURL(/\/portal-management$/);
  await expect(staffPage.getByTestId('logout')).toBeVisible();
  expect([...staffServers].sort()).toEqual(['p1', 'p2']);
  await staff.close();
});

test('the login throttle counts wrong passwords made through either process', async ({ request }) => {
  const { balancer, databaseUrl } = state();
  const realm = `${balancer}/auth/realms/gambling`;
  const query = new URLSearchParams({
    client_id: 'portal',
    response_type: 'code',
    scope: 'openid profile roles email',
    redirect_uri: `${balancer}/callback`,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'cluster',
  });
  const started = await request.get(`${realm}/auth?${query}`, { maxRedirects: 0 });
  const login = `${new URL(started.headers().location ?? '', balancer).toString()}/login`;
  const answeredBy: string[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await request.post(login, {
      form: { username: 'visitor', password: 'wrong' },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(200);
    answeredBy.push(res.headers()['x-served-by'] ?? '');
  }
  // Round-robin: the four guesses went to both processes.
  expect(new Set(answeredBy)).toEqual(new Set(['p1', 'p2']));
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      "select failures from login_throttle where tenant = 'gambling' and key = 'account|visitor'",
    );
    expect(rows).toEqual([{ failures: 4 }]);
    // The right password, through whichever process, clears the count for everyone.
    const ok = await request.post(login, {
      form: { username: 'visitor', password: 'visitor' },
      maxRedirects: 0,
    });
    expect(ok.status()).toBeGreaterThanOrEqual(300);
    const after = await db.query(
      "select count(*)::int as n from login_throttle where tenant = 'gambling' and key = 'account|visitor'",
    );
    expect(after.rows).toEqual([{ n: 0 }]);
  } finally {
    await db.end();
  }
});
