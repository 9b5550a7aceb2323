import { readFileSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { AUDIT_CSV_COLUMNS } from '../../contract/api/audit';
import { parseCsv } from '../../contract/domain/csv';
import { startOfDayIn } from '../../contract/domain/visits';
import { tabThrough, tabTo } from './keyboard';
import {
  accessTokenOf,
  demoUrl,
  expectAccessible,
  logIn,
  openAs,
  openSignedIn,
  port,
  startEnrolment,
} from './support';

// CheckInterdictions as the seeded `assistant` of gambling (an assistant who is not a user manager): each of the
// five results, decided by the server against the prohibited lists. The enrolled members member-07 and member-08
// (SEED_MEMBERS, born 1988-03-09, DNI 400000NN) are only read here; member-08 is put on a list of the es-ct legal
// domain, which no other journey uses.

const base = `http://localhost:${port}`;
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const dniOf = (n: number) => {
  const number = 40_000_000 + n;
  return `${number}${LETTERS[number % 23]}`;
};
const BIRTH = '1988-03-09';

async function signIn(page: Page, username: string) {
  await openSignedIn(page, username, '/');
  await expect(page.locator('[data-screen="PortalManagement"]')).toBeVisible();
}

async function check(page: Page, idNumber: string, birthDate: string) {
  await page.getByTestId('interdictions-id_number').fill(idNumber);
  await page.getByTestId('interdictions-birth_date').fill(birthDate);
  await page.getByTestId('interdictions-submit').click();
}

/** Puts member-08 on the es-ct list (the same whole list each time: uploads replace it, so this is idempotent). */
async function listMember8(request: APIRequestContext) {
  const token = await accessTokenOf(base, 'gambling', 'admin');
  const upload = await request.post(`${base}/api/public/watchlists`, {
    headers: { authorization: `Bearer ${token}`, 'tenant-id': 'gambling' },
    multipart: {
      domain: 'es-ct',
      watch_type: 'interdicted',
      upload: {
        name: 'es-ct.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`dni;fecha_nacimiento\n${dniOf(8)};09/03/1988\n`),
      },
    },
  });
  expect(upload.status()).toBe(201);
}

test.describe('CheckInterdictions', () => {
  test.use({ baseURL: base });

  test('an assistant gets each of the five results, and the form asks for what is missing', async ({
    page,
    request,
  }) => {
    await listMember8(request);

    await signIn(page, 'assistant');
    await page.getByTestId('portal-checkProhibited').click();
    await expect(page.locator('[data-screen="CheckInterdictions"]')).toBeVisible();
    await expectAccessible(page);

    await page.getByTestId('interdictions-submit').click();
    await expect(page.getByTestId('interdictions-id_number')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('interdictions-birth_date')).toHaveAttribute('aria-invalid', 'true');

    const cases: [string, string, string][] = [
      ['Z9999999H', '1980-01-01', 'user_not_found'],
      [dniOf(7), '2015-06-01', 'underaged'],
      [dniOf(7), '1950-01-01', 'indeterminate'],
      [dniOf(7), BIRTH, 'granted'],
      [dniOf(8), BIRTH, 'denied'],
    ];
    for (const [idNumber, birthDate, result] of cases) {
      await check(page, idNumber, birthDate);
      await expect(page.getByTestId('interdictions-result')).toHaveAttribute('data-result', result);
    }
    await expect(page.getByTestId('interdictions-result')).toContainText(/prohibidos/);
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/check-interdictions-es.png', fullPage: true });
  });

  for (const [locale, denied] of [
    ['en', /prohibited list/],
    ['eu', /debekatuen zerrenda/],
  ] as const) {
    test(`in ${locale}: the screen reads in the language and is accessible`, async ({ page, request }) => {
      await listMember8(request);
      await openAs(page, 'assistant', '/check-interdictions', locale);
      await expect(page.locator('[data-screen="CheckInterdictions"]')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await check(page, dniOf(8), BIRTH);
      const result = page.getByTestId('interdictions-result');
      await expect(result).toHaveAttribute('data-result', 'denied');
      await expect(result).toContainText(denied);
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/check-interdictions-${locale}.png`, fullPage: true });
    });
  }

  test('a user manager does not reach it', async ({ page }) => {
    await signIn(page, 'usermanager');
    await expect(page.getByTestId('portal-checkProhibited')).toHaveCount(0);
  });
});

// Prohibited-list uploads, the door terminal and the access audit. Gambling's es-ri list is uploaded through
// UploadWatchlist with member-05 on it; at /dev/terminal member-05 is refused and member-06 let in; the auditor
// finds both, filters, opens one and exports the filtered rows (the download read back). The people journey runs on
// gambling because staff-users.spec deletes every user of demo while the journeys run in parallel; demo's es-demo
// list is uploaded through the screens in the English run below. An es-nc list names a document number that
// newcomer-26 then types at enrolment (user_interdicted).

const MAX_CSV = 10 * 1024 * 1024;

async function signInAt(page: Page, origin: string, username: string) {
  if (origin === base) {
    await openSignedIn(page, username, '/');
  } else {
    await page.goto(`${origin}/`);
    await page.getByTestId('login').click();
    await logIn(page, username);
  }
  await expect(page.locator('[data-screen="PortalManagement"]')).toBeVisible();
}

/** The sid of a member's valid QR, read through the staff API as the tenant's admin (Node resolves only localhost). */
async function qrSidOf(request: APIRequestContext, token: string, tenant: string, idNumber: string) {
  const origin = base;
  const headers = { authorization: `Bearer ${token}`, 'tenant-id': tenant };
  const users = await request.get(`${origin}/api/public/users?pageSize=5&idNumber=${idNumber}`, { headers });
  const { items } = (await users.json()) as { items: { user_id: string }[] };
  const userId = items[0]?.user_id;
  expect(userId).toBeTruthy();
  const held = await request.get(`${origin}/api/public/credentials/${userId}`, { headers });
  const { credentials } = (await held.json()) as {
    credentials: Record<string, { credential_type: string; valid?: boolean }>;
  };
  const sid = Object.entries(credentials).find(
    ([, c]) => c.credential_type === 'qr' && c.valid !== false,
  )?.[0];
  expect(sid).toBeTruthy();
  return sid as string;
}

/** Uploads a watchlist through UploadWatchlist: domain, file, the worker's preview, then the result screen. */
async function uploadThroughScreen(page: Page, domain: string, name: string, csv: string, valid: number) {
  await expect(page.locator('[data-screen="UploadWatchlist"]')).toBeVisible();
  await page.getByTestId('watchlist-domain').selectOption(domain);
  await page
    .getByTestId('watchlist-file')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('watchlist-counts')).toHaveAttribute('data-valid', String(valid));
  await expect(page.getByTestId('watchlist-counts')).toHaveAttribute('data-invalid', '0');
  await expectAccessible(page);
  await page.getByTestId('watchlist-upload').click();
  await expect(page).toHaveURL(/\/upload-watchlist-result\/true\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('watchlist-result')).toHaveAttribute('data-success', 'true');
  await expect(page.getByTestId('watchlist-result-domain')).toHaveText(domain);
  await expect(page.getByTestId('watchlist-result-rows')).toHaveText(String(valid));
  // The route carries the upload's id: a reload reads the same result back from the server.
  const url = page.url();
  await page.reload();
  await expect(page).toHaveURL(url);
  await expect(page.getByTestId('watchlist-result')).toHaveAttribute('data-success', 'true');
  await expect(page.getByTestId('watchlist-result-domain')).toHaveText(domain);
  await expect(page.getByTestId('watchlist-result-rows')).toHaveText(String(valid));
  await expect(page.getByTestId('watchlist-result-file')).toHaveText(name);
}

async function presentAtTerminal(page: Page, tenant: string, facilityId: string, credential: string) {
  await page.goto(`${base}/dev/terminal?tenant=${tenant}`);
  await page.getByTestId('terminal-facility').selectOption(facilityId);
  await page.getByTestId('terminal-credential').fill(credential);
  await page.getByTestId('terminal-present').click();
  return page.getByTestId('terminal-decision');
}

test.describe('prohibited lists, the door terminal and the access audit', () => {
  test.use({ baseURL: base });

  test('an admin uploads a list, the terminal refuses the person on it, the auditor finds and exports it', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const listed = dniOf(5);
    const csv = `\uFEFFdni;fecha_nacimiento;nombre;apellidos\r\n${listed};09/03/1988;Miren;"Socia 5"\r\nX1234567L;01/02/1970;"Ana; María";Pérez\r\n`;
    await signInAt(page, base, 'admin');
    await page.getByTestId('portal-addProhibited').click();
    await uploadThroughScreen(page, 'es-ri', 'es-ri.csv', csv, 2);
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/upload-watchlist-result-es.png', fullPage: true });
    await page.getByTestId('watchlist-again').click();
    await expect(page).toHaveURL(/\/upload-watchlist$/);

    // The door (a facility that reads every legal domain): member-05 (on the list) is refused, member-06 let in.
    // One sign-in for both look-ups (the request context keeps the provider's session).
    const token = await accessTokenOf(base, 'gambling', 'admin');
    const refusedSid = await qrSidOf(request, token, 'gambling', listed);
    const grantedSid = await qrSidOf(request, token, 'gambling', dniOf(6));
    // The terminal lives under the site's own strict CSP: nothing on it may be refused.
    const refusedByCsp: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refusedByCsp.push(message.text());
    });
    await page.goto(`${base}/dev/terminal?tenant=gambling`);
    expect((await page.request.get(`${base}/dev/terminal`)).headers()['content-security-policy']).toContain(
      "script-src 'self'",
    );
    const everyDomain = page.getByTestId('terminal-facility').locator('option:not(:has-text("("))');
    const facilityId = await everyDomain.first().getAttribute('value');
    expect(facilityId).toBeTruthy();
    const refused = await presentAtTerminal(page, 'gambling', facilityId as string, refusedSid);
    await expect(refused).toHaveAttribute('data-granted', 'false');
    await expect(refused).toHaveAttribute('data-reason', 'user_interdicted');
    const granted = await presentAtTerminal(
      page,
      'gambling',
      facilityId as string,
      `acs:gambling:ACS-GAMBLING-M006:${grantedSid}`,
    );
    await expect(granted).toHaveAttribute('data-granted', 'true');
    expect(refusedByCsp).toEqual([]);

    // The auditor: today at that facility, denied, then granted.
    await page.context().clearCookies();
    await page.goto(`${base}/`);
    await page.evaluate(() => localStorage.clear());
    await signInAt(page, base, 'auditor');
    await page.getByTestId('portal-audit').click();
    await expect(page.locator('[data-screen="AuditAccesses"]')).toBeVisible();
    await expect(page.getByTestId('audit-row').first()).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Hoy' }).click();
    await page.getByTestId('audit-facility').selectOption(facilityId as string);
    await page.getByTestId('audit-result-filter').selectOption('denied');
    const denied = page.locator('[data-testid="audit-row"][data-reason="user_interdicted"]');
    await expect(denied.first()).toBeVisible();
    await expect(page.locator('[data-testid="audit-row"] [data-result="granted"]')).toHaveCount(0);
    await denied.first().getByTestId('audit-open').click();
    const detail = page.getByTestId('audit-detail');
    await expect(detail.locator('[data-field="id_number"]')).toHaveText(listed);
    await expect(detail.locator('[data-field="watchlists_checked"]')).toContainText('es-ri');
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/audit-accesses-detail-es.png', fullPage: true });
    await page.getByTestId('audit-detail-close').click();

    // The export holds exactly the rows the list shows under the same filter.
    const rows = page.getByTestId('audit-row');
    const shown = await rows.evaluateAll((items) =>
      items.map((item) => `${item.getAttribute('data-user-id')}|${item.getAttribute('data-reason')}`).sort(),
    );
    await expect(page.getByTestId('audit-summary')).toContainText(`${shown.length}`);
    const download = page.waitForEvent('download');
    await page.getByTestId('audit-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-accesses-.*\.csv$/);
    const text = readFileSync((await file.path()) as string, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [header, ...records] = parseCsv(text);
    expect(header).toEqual([...AUDIT_CSV_COLUMNS]);
    const exported = records.map((record) => `${record[1] ?? ''}|${record[5] ?? ''}`).sort();
    expect(exported).toEqual(shown);
    expect(records.every((record) => record[4] === 'denied')).toBe(true);
    await expect(page.getByTestId('audit-export-done')).toHaveAttribute('data-rows', String(records.length));

    await page.getByTestId('audit-result-filter').selectOption('granted');
    await expect(page.locator(`[data-testid="audit-row"][data-reason="granted"]`).first()).toBeVisible();
    await expect(page.locator('[data-testid="audit-row"] [data-result="denied"]')).toHaveCount(0);
    await page.screenshot({ path: 'test-results/audit-accesses-es.png', fullPage: true });

    // The refusal's enforcement source opens inside the portal: the es-ri list version that held member-05.
    await page.getByTestId('audit-result-filter').selectOption('denied');
    await denied.first().getByTestId('audit-source-link').click();
    await expect(page).toHaveURL(/\/upload-watchlist-result\/true\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('watchlist-result-domain')).toHaveText('es-ri');
    await expect(page.getByTestId('watchlist-result-file')).toHaveText('es-ri.csv');
    // An auditor reads it; uploading is not theirs.
    await expect(page.getByTestId('watchlist-again')).toHaveCount(0);
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/audit-source-es.png', fullPage: true });
  });

  test('an export of a few thousand rows shows its progress and holds exactly the filtered total', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.addInitScript(() => {
      const w = window as unknown as { progressSeen: boolean };
      w.progressSeen = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="audit-export-progress"]')) w.progressSeen = true;
      }).observe(document, { childList: true, subtree: true });
    });
    await signInAt(page, base, 'auditor');
    await page.goto('/audit-accesses');
    const summary = page.getByTestId('audit-summary');
    await expect(summary).toHaveAttribute('data-lower-bound', 'false');
    const total = Number(await summary.getAttribute('data-total'));
    expect(total).toBeGreaterThan(2000);
    const download = page.waitForEvent('download');
    await page.getByTestId('audit-export').click();
    const file = await download;
    await expect(page.getByTestId('audit-export-done')).toHaveAttribute('data-rows', String(total));
    expect(await page.evaluate(() => (window as unknown as { progressSeen: boolean }).progressSeen)).toBe(
      true,
    );
    const [, ...records] = parseCsv(readFileSync((await file.path()) as string, 'utf8'));
    expect(records).toHaveLength(total);
  });

  test('a refusal kept by the server still says why when its result is opened again', async ({
    page,
    request,
  }) => {
    const token = await accessTokenOf(base, 'gambling', 'admin');
    const refused = await request.post(`${base}/api/public/watchlists`, {
      headers: { authorization: `Bearer ${token}`, 'tenant-id': 'gambling' },
      multipart: {
        domain: 'es-mc',
        watch_type: 'interdicted',
        upload: {
          name: 'mala.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from('dni;fecha_nacimiento\nnope;1980\n'),
        },
      },
    });
    expect(refused.status()).toBe(422);
    const { upload_id } = (await refused.json()) as { upload_id: string };
    await signInAt(page, base, 'admin');
    await page.goto(`/upload-watchlist-result/false/${upload_id}`);
    const result = page.getByTestId('watchlist-result');
    await expect(result).toHaveAttribute('data-success', 'false');
    await expect(result).toHaveAttribute('data-code', 'invalid_rows');
    await expect(result).toContainText('mala.csv');
    await page.reload();
    await expect(result).toHaveAttribute('data-code', 'invalid_rows');
    await expectAccessible(page);
    // An id that names nothing of this tenant.
    await page.goto('/upload-watchlist-result/true/00000000-0000-4000-8000-000000000000');
    await expect(result).toHaveAttribute('data-code', 'upload_not_found');
    await page.getByTestId('watchlist-again').click();
    await expect(page).toHaveURL(/\/upload-watchlist$/);
  });

  test('a 12 MB file and a picture are refused before anything is sent, with their messages', async ({
    page,
  }) => {
    // 21 MB of files go through the browser protocol as base64: on a busy machine that alone takes tens of seconds.
    test.setTimeout(120_000);
    const sent: string[] = [];
    page.on('request', (req) => {
      if (/\/api\/(public\/)?watchlists/.test(req.url()) && req.method() === 'POST') sent.push(req.url());
    });
    await signInAt(page, base, 'admin');
    await page.goto('/upload-watchlist');
    await expect(page.locator('[data-screen="UploadWatchlist"]')).toBeVisible();
    await page.getByTestId('watchlist-file').setInputFiles({
      name: 'huge.csv',
      mimeType: 'text/csv',
      buffer: Buffer.alloc(MAX_CSV + 2 * 1024 * 1024, 'a'),
    });
    const refused = page.getByTestId('watchlist-refused');
    await expect(refused).toHaveAttribute('data-code', 'file_too_large');
    await expect(refused).toContainText('ocupa más de 10 MB');
    await expectAccessible(page);
    await page.getByTestId('watchlist-file').setInputFiles({
      name: 'photo.png',
      mimeType: 'image/png',
      buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    });
    await expect(refused).toHaveAttribute('data-code', 'not_csv');
    await expect(refused).toContainText('no es un fichero csv');
    // A csv whose rows are not all valid is previewed with its bad lines and cannot be sent.
    await page.getByTestId('watchlist-file').setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('dni,birth_date\n12345678Z,1980-01-01\nnope,31/02/1980\n'),
    });
    await expect(page.getByTestId('watchlist-counts')).toHaveAttribute('data-invalid', '1');
    await expect(page.getByTestId('watchlist-invalid')).toContainText('Línea 3');
    await expect(page.getByTestId('watchlist-upload')).toBeDisabled();
    await page.screenshot({ path: 'test-results/upload-watchlist-es.png', fullPage: true });
    // One line of 9 MB, without a single line break: refused at that line, with its words.
    await page.getByTestId('watchlist-file').setInputFiles({
      name: 'una-linea.csv',
      mimeType: 'text/csv',
      buffer: Buffer.alloc(9 * 1024 * 1024, 'a'),
    });
    await expect(refused).toHaveAttribute('data-code', 'not_csv');
    await expect(refused).toContainText(/La línea 1 tiene más de 4\.?096 caracteres/);
    expect(sent).toEqual([]);
  });

  test("a row the server finds too long is named on the result, in the reader's language", async ({
    page,
    request,
  }) => {
    // The preview refuses such a file before it is sent; so the real server's answer to one is given to the portal's
    // own upload of a file the preview passed.
    const token = await accessTokenOf(base, 'gambling', 'admin');
    const real = await request.post(`${base}/api/public/watchlists`, {
      headers: { authorization: `Bearer ${token}`, 'tenant-id': 'gambling' },
      multipart: {
        domain: 'es-mc',
        watch_type: 'interdicted',
        upload: {
          name: 'larga.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(`dni;fecha_nacimiento\n12345678Z;01/01/1980\n${'9'.repeat(5000)};01/01/1980\n`),
        },
      },
    });
    expect(real.status()).toBe(422);
    const answer = await real.text();
    await page.route(/\/api\/(public\/)?watchlists$/, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 422, contentType: 'application/problem+json', body: answer })
        : route.continue(),
    );
    await signInAt(page, base, 'admin');
    await page.goto('/upload-watchlist');
    // With the keyboard alone: the list's domain chosen with the arrows, the file set on the chooser reached with
    // Tab (a person opens it with Enter), the upload sent with Enter.
    const domain = page.getByTestId('watchlist-domain');
    await tabTo(page, domain);
    for (let presses = 0; presses < 10 && (await domain.inputValue()) !== 'es-mc'; presses++)
      await page.keyboard.press('ArrowDown');
    await expect(domain).toHaveValue('es-mc');
    await tabThrough(page, [page.getByTestId('watchlist-file')]);
    await page.locator('[data-testid="watchlist-file"]:focus').setInputFiles({
      name: 'larga.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('dni;fecha_nacimiento\n12345678Z;01/01/1980\n'),
    });
    await expect(page.getByTestId('watchlist-counts')).toHaveAttribute('data-valid', '1');
    await tabTo(page, page.getByTestId('watchlist-upload'));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('watchlist-result')).toHaveAttribute('data-code', 'not_csv');
    await expect(page.getByTestId('watchlist-result-problem')).toHaveText(
      /La línea 3 tiene más de 4\.?096 caracteres/,
    );
    await expectAccessible(page);
  });

  test('an assistant with post_accesses_myscope sees only their facilities', async ({ page }) => {
    test.setTimeout(180_000);
    await signInAt(page, base, 'assistant');
    await page.goto('/audit-accesses');
    await expect(page.locator('[data-screen="AuditAccesses"]')).toBeVisible();
    await expect(page.getByTestId('audit-row').first()).toBeVisible();
    const options = page.getByTestId('audit-facility').locator('option');
    // "All my facilities" and the one facility the seeded assistant is in charge of.
    await expect(options).toHaveCount(2);
    const mine = await options.nth(1).getAttribute('value');
    const facilities = await page
      .getByTestId('audit-row')
      .evaluateAll((rows) => [...new Set(rows.map((row) => row.getAttribute('data-facility-id')))]);
    expect(facilities).toEqual([mine]);
    await expectAccessible(page);
  });

  for (const [locale, origin, tenant, texts] of [
    ['en', demoUrl, 'demo', { audit: 'Access audit', upload: 'Update prohibited list' }],
    ['eu', base, 'gambling', { audit: 'Sarbideen auditoria', upload: 'Debekatuen zerrenda eguneratu' }],
  ] as const) {
    test(`in ${locale}: the three screens read in the language and are accessible`, async ({ page }) => {
      test.setTimeout(180_000);
      await openAs(page, 'admin', '/audit-accesses', locale, origin);
      await expect(page.locator('[data-screen="AuditAccesses"]')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.audit);
      await expect(page.getByTestId('audit-row').first()).toBeVisible();
      await expectAccessible(page);
      await page.getByTestId('audit-open').first().click();
      await expect(page.getByTestId('audit-detail')).toBeVisible();
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/audit-accesses-${locale}.png`, fullPage: true });
      await page.getByTestId('audit-detail-close').click();
      // The Staff actions tab, reached with the arrow keys as tabs are.
      await page.getByTestId('audit-tab-accesses').focus();
      await page.keyboard.press('ArrowRight');
      await expect(page.getByTestId('audit-tab-staff')).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('staff-actions-filters')).toBeVisible();
      await expect(
        page.locator('[data-testid="staff-action-row"], [data-testid="staff-actions-empty"]').first(),
      ).toBeVisible();
      await expectAccessible(page);

      await page.goto(`${origin}/upload-watchlist`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.upload);
      // demo's es-demo list, and a list of es-mc (which no other journey reads) for gambling.
      const domain = tenant === 'demo' ? 'es-demo' : 'es-mc';
      const listed = tenant === 'demo' ? dniOf(5) : 'Y1234567X';
      await uploadThroughScreen(
        page,
        domain,
        `${domain}.csv`,
        `dni;fecha_nacimiento;nombre;apellidos\n${listed};09/03/1988;Miren;"Socia 5"\nX1234567L;01/02/1970;"Ana; María";Pérez\n`,
        2,
      );
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/upload-watchlist-result-${locale}.png`, fullPage: true });
    });
  }
});

test.describe('a browser in another timezone than the tenant', () => {
  test.use({ baseURL: base, timezoneId: 'America/Mexico_City' });

  test("the presets count Madrid's days and the times say their facility's zone", async ({ page }) => {
    test.setTimeout(120_000);
    await signInAt(page, base, 'auditor');
    await page.goto('/audit-accesses');
    await expect(page.locator('[data-screen="AuditAccesses"]')).toBeVisible();
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(
      'America/Mexico_City',
    );
    await expect(page.getByTestId('audit-presets-zone')).toContainText('Europe/Madrid');
    // The screen's first list (its default period) has come, so the request below is the preset's own.
    await expect(page.getByTestId('audit-row').first()).toBeVisible();
    const asked = page.waitForRequest((req) => req.url().includes('/api/public/audit_accesses?'));
    const clickedAt = new Date();
    await page.getByRole('button', { name: 'Hoy' }).click();
    const from = new URL((await asked).url()).searchParams.get('from');
    // Midnight in Madrid of the day it is there (one of two around a midnight crossing).
    expect(
      [startOfDayIn(clickedAt, 'Europe/Madrid'), startOfDayIn(new Date(), 'Europe/Madrid')].map(String),
    ).toContain(String(new Date(from ?? '')));
    await page.getByRole('button', { name: 'Últimos 30 días' }).click();
    const first = page.getByTestId('audit-row').first();
    await expect(first).toBeVisible();
    await expect(first).toContainText(/\((Europe\/Madrid|Atlantic\/Canary)\)/);
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/audit-accesses-timezone-es.png', fullPage: true });
  });
});

test.describe('enrolment against an uploaded list', () => {
  test.use({ baseURL: base });

  test('a person whose document is on the uploaded es-nc list is refused at enrolment (user_interdicted)', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const documentNumber = 'WATCHE2E26';
    // The admin's upload (the screen's own request, as in the journeys above): es-nc, which no other journey reads.
    const token = await accessTokenOf(base, 'gambling', 'admin');
    const upload = await request.post(`${base}/api/public/watchlists`, {
      headers: { authorization: `Bearer ${token}`, 'tenant-id': 'gambling' },
      multipart: {
        domain: 'es-nc',
        watch_type: 'interdicted',
        upload: {
          name: 'es-nc.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(
            `id_number,birth_date,document_number\nZ7654321X,1975-05-05,${documentNumber}\n`,
          ),
        },
      },
    });
    expect(upload.status()).toBe(201);

    // newcomer-26 enrols with the camera (the specimen card) and types that document number on ReviewRegister.
    await page.goto('/');
    await page.getByTestId('login').click();
    await logIn(page, 'newcomer-26');
    await expect(page).toHaveURL(/\/landing$/);
    await startEnrolment(page, 'DNI o tarjeta de identidad');
    for (const side of ['Parte delantera del documento', 'Parte trasera del documento']) {
      await expect(page.getByRole('heading', { name: side })).toBeVisible();
      const take = page.getByTestId('capture-take');
      const use = page.getByTestId('capture-use');
      await expect(take.or(use)).toBeVisible({ timeout: 60_000 });
      if (await take.isVisible()) await take.click({ timeout: 2_000 }).catch(() => undefined);
      await use.click();
    }
    await expect(page).toHaveURL(/\/take-selfie$/);
    await page.getByTestId('capture-file').setInputFiles('tests/fixtures/generated/selfie.jpg');
    await page.getByTestId('capture-use').click();
    await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
    await page.getByLabel(/^Nombre/).fill('Carmen');
    await page.getByLabel(/^Apellidos/).fill('Española Española');
    await page.getByLabel(/^Fecha de nacimiento/).fill('01/01/1980');
    await page.getByLabel(/^Fecha de caducidad/).fill('01/01/2031');
    await page.getByLabel(/^Número de documento/).fill(documentNumber);
    await page.getByTestId('review-confirm').click();
    await expect(page).toHaveURL(/\/register-form$/);
    await page.getByTestId('form-submit').click();
    await expect(page).toHaveURL(/\/finish-register-error\/forbidden-list$/, { timeout: 60_000 });
    await expect(page.getByRole('alert')).toContainText(/prohibid/i);
  });
});
