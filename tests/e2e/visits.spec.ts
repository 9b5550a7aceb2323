import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type APIRequestContext,
  type Browser,
  chromium,
  expect,
  type Page,
  request as playwrightRequest,
  test,
} from '@playwright/test';
import sharp from 'sharp';
import { zonedInstant } from '../../contract/domain/visits';
import { chromiumWithCamera } from './camera';
import { expectFocusVisible, openAndEscape, tabThrough, tabTo, typeDateOrTime } from './keyboard';
import {
  accessTokenOf,
  expectAccessible,
  expectPaintGaveWay,
  layoutShiftOf,
  openAs,
  port,
  t,
  watchLayoutShifts,
  watchPaint,
} from './support';

// The visits journeys through the real portal: a visitor requests a visit, the host accepts it from the mailbox
// link, reception finds it under "today", checks the visitor in by scanning their QR with the fake camera and out
// again; the history shows each step; the confirmation link refuses a second answer and an expired one; cancelling
// after check-in is refused with the server's reason; every NewVisit rule has its message in es, en and eu and
// nothing typed is lost; axe finds nothing on any visit screen.

const MADRID = 'Europe/Madrid';

/** YYYY-MM-DD and HH:mm of an instant in Madrid (Sala Bilbao's timezone). */
function madrid(instant: Date) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: MADRID,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/**
 * The journey runs at a Madrid time of day it names, not at the hour it happens to run: E2E_VISITS_AT (HH:mm,
 * 11:00 by default; 23:30 and 00:30 show the day's edges). The last such moment before now: a clock never ahead
 * of the real one, so the access tokens the browser holds never look expired to it.
 */
function pinnedInstant(hhmm = process.env.E2E_VISITS_AT || '11:00'): Date {
  const now = Date.now();
  const today = zonedInstant(madrid(new Date(now)).date, hhmm, MADRID) as Date;
  if (today.getTime() <= now) return today;
  return zonedInstant(madrid(new Date(now - 86_400_000)).date, hhmm, MADRID) as Date;
}

/** The server's clock of the visit rules, moved (a development route, with an administrator's token) or read. */
async function serverClock(request: APIRequestContext, base: string, admin: string, at?: Date | null) {
  const headers = { 'tenant-id': 'gambling', authorization: `Bearer ${admin}` };
  const res =
    at === undefined
      ? await request.get(`${base}/api/dev/clock`, { headers })
      : await request.put(`${base}/api/dev/clock`, { headers, data: { at: at?.toISOString() ?? null } });
  expect(res.ok(), await res.text()).toBe(true);
  return new Date(((await res.json()) as { now: string }).now);
}

async function fillVisit(
  page: Page,
  values: Partial<Record<'host' | 'date' | 'startAt' | 'endAt' | 'title' | 'visitorName', string>> & {
    plan?: boolean;
  },
) {
  for (const [name, value] of Object.entries(values)) {
    if (name === 'plan') continue;
    await page.locator(`[name="${name}"]`).fill(value as string);
  }
  if (values.plan !== undefined) await page.locator('input[name="planRead"]').setChecked(values.plan);
}

/** The newest confirmation link mailed to `to` (the development mailbox). */
async function mailedLink(page: Page, to: string, base = ''): Promise<string> {
  await page.goto(`${base}/dev/mailbox`);
  const mail = page.locator('article', { hasText: to }).first();
  await expect(mail).toBeVisible();
  return (await mail.locator('a').first().getAttribute('href')) as string;
}

/** A y4m video (what Chromium's fake camera reads) of a PNG on white, grey only (U = V = 128). */
async function qrVideo(png: Buffer): Promise<string> {
  const width = 640;
  const height = 480;
  const qr = await sharp(png)
    .resize(360, 360, { kernel: 'nearest' })
    .flatten({ background: '#fff' })
    .toBuffer();
  const y = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite([{ input: qr, left: 140, top: 60 }])
    .greyscale()
    .raw()
    .toBuffer();
  const luma = Buffer.alloc(width * height);
  for (let i = 0; i < luma.length; i++)
    luma[i] = Math.round(0.859 * (y[i * (y.length / luma.length)] ?? 255) + 16);
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const file = join(mkdtempSync(join(tmpdir(), 'visit-qr-')), 'qr.y4m');
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from(`YUV4MPEG2 W${width} H${height} F5:1 Ip A1:1 C420jpeg\n`),
      ...Array.from({ length: 10 }, () => frame),
    ]),
  );
  return file;
}

/** A Chromium whose camera shows `video` (the fake device reads its file once per launch). */
function browserWithCamera(video: string): Promise<Browser> {
  return chromium.launch(chromiumWithCamera(video));
}

/** The visits journey, with `now` the pinned clock of the server's visit rules (see pinnedInstant). */
async function visitJourney(
  page: Page,
  browser: Browser,
  request: APIRequestContext,
  base: string,
  now: () => Date,
) {
  await page.clock.install({ time: now() });
  // 1. The visitor requests a visit for today, a little later than now, at Sala Bilbao (Madrid).
  const start = madrid(new Date(now().getTime() + 10 * 60_000));
  const end = madrid(new Date(now().getTime() + 70 * 60_000));
  const title = `Journey ${Date.now()}`;
  await openAs(page, 'visitor', '/new-visit', 'en');
  await page.locator('select[name="location"]').selectOption({ label: 'Sala Bilbao (Europe/Madrid)' });
  await fillVisit(page, {
    host: 'assistant@gambling.example',
    date: start.date,
    startAt: start.time,
    endAt: end.date === start.date ? end.time : '23:59',
    title,
    plan: true,
  });
  await page.getByTestId('new-visit-submit').click();
  await expect(page.getByTestId('new-visit-done')).toHaveText(t('en', 'newVisit.requested'));
  await page.getByTestId('new-visit-detail').click();
  await expect(page).toHaveURL(/\/visit-detail\?data=/);
  const visitId = new URL(page.url()).searchParams.get('data') as string;
  await expect(page.getByTestId('visit-status')).toHaveAttribute('data-status', 'requested');

  // 2. The host opens the mailed link (not signed in) and accepts; the link works once.
  const host = await browser.newContext({ baseURL: base });
  await host.clock.install({ time: now() });
  const hostPage = await host.newPage();
  const link = await mailedLink(hostPage, 'assistant@gambling.example');
  expect(link).toMatch(new RegExp(`^${base}/confirmation/[\\w.-]+/${visitId}$`));
  await hostPage.goto(link);
  await hostPage.getByTestId('confirmation-accept').click();
  await expect(hostPage.getByTestId('confirmation-done')).toHaveText(t('es', 'confirmation.accepted'));
  await expectAccessible(hostPage);
  await hostPage.goto(link);
  await hostPage.getByTestId('confirmation-reject').click();
  await expect(hostPage.getByTestId('visit-refusal')).toHaveAttribute('data-code', 'visit_already_accepted');
  await expect(hostPage.getByTestId('visit-refusal')).toContainText(
    t('es', 'common.errors.visit_already_accepted'),
  );
  await host.close();

  // 3. Reception finds it under "today".
  const receptionToken = await accessTokenOf(base, 'gambling', 'receptionist');
  const qr = await request.get(`${base}/api/public/visits/${visitId}/qr`, {
    headers: { 'tenant-id': 'gambling', authorization: `Bearer ${receptionToken}` },
  });
  expect(qr.ok()).toBe(true);
  const camera = await browserWithCamera(await qrVideo(await qr.body()));
  try {
    const reception = await camera.newContext({
      baseURL: base,
      viewport: { width: 412, height: 915 },
      permissions: ['camera'],
    });
    await reception.clock.install({ time: now() });
    const desk = await reception.newPage();
    await openAs(desk, 'receptionist', '/visits', 'en');
    await desk.getByTestId('visit-presets').locator('[data-preset="today"]').click();
    const row = desk.getByTestId('visit-row').filter({ hasText: title });
    await expect(row).toBeVisible();
    await expect(row.getByTestId('visit-status')).toHaveAttribute('data-status', 'accepted');
    await expect(desk.getByTestId('visits-summary')).toContainText(/\d+ of \d+ · page 1 of \d+/);

    // 4. …and checks the visitor in by scanning their QR with the (fake) camera.
    await desk.goto('/process-visit');
    await desk.getByTestId('process-visit-scan').click();
    const arrival = desk.getByTestId('arrival');
    await expect(arrival).toBeVisible({ timeout: 60_000 });
    await expect(desk.getByTestId('arrival-person')).toHaveText('Vera Visitante');
    await expect(arrival).toContainText(title);
    await arrival.getByTestId('visit-check-in').click();
    await expect(arrival.getByTestId('visit-status')).toHaveAttribute('data-status', 'checked_in');

    // 5. The visitor, still on the detail, tries to cancel: the server refuses, with its reason.
    await page.getByTestId('visit-cancel').click();
    await page.getByTestId('visit-cancel-confirm').click();
    const refusal = page.getByTestId('visit-refusal');
    await expect(refusal).toHaveAttribute('data-code', 'visit_already_has_checkins');
    await expect(refusal).toContainText(t('en', 'common.errors.visit_already_has_checkins'));
    await expect(refusal).toContainText('The visit already has check-ins; it can no longer be cancelled.');

    // 6. A second scan finds the visitor inside; one tap checks them out.
    await desk.reload();
    await desk.getByTestId('process-visit-code').fill('wrong-code');
    await desk.getByRole('button', { name: t('en', 'processVisit.find') }).click();
    await expect(desk.getByTestId('visit-refusal')).toHaveAttribute('data-code', 'no_visit_today');
    await desk.getByTestId('process-visit-scan').click();
    await expect(desk.getByTestId('arrival-already-in')).toHaveText(
      t('en', 'common.errors.visit_already_checked_in'),
    );
    await desk.getByTestId('arrival').getByTestId('visit-check-out').click();
    await expect(desk.getByTestId('arrival').getByTestId('visit-status')).toHaveAttribute(
      'data-status',
      'checked_out',
    );
    await expectAccessible(desk);
    await reception.close();
  } finally {
    await camera.close();
  }

  // 7. The history tab shows each step with who and when, in Madrid time.
  await page.getByTestId('visit-refusal').waitFor();
  await page.getByRole('button', { name: t('en', 'visits.reload') }).click();
  await expect(page.getByTestId('visit-status')).toHaveAttribute('data-status', 'checked_out');
  await page.getByTestId('visit-tab-history').click();
  const history = page.getByTestId('visit-history').locator('li');
  await expect(history).toHaveCount(4);
  const steps = [
    ['requested', 'Requested by Vera Visitante'],
    ['approved', 'Approved by Asier Asistente'],
    ['checked_in', 'Checked in by kiosk'],
    ['checked_out', 'Checked out by terminal'],
  ];
  const today = madrid(now()).date.split('-').reverse().join('/');
  for (const [index, [action, text]] of steps.entries()) {
    const step = history.nth(index);
    await expect(step).toHaveAttribute('data-action', action as string);
    await expect(step).toContainText(text as string);
    await expect(step).toContainText(new RegExp(`${today} \\d{2}:\\d{2} \\(Europe/Madrid\\)`));
  }
  await expectAccessible(page);
}

test.describe('visits', () => {
  test('request, host accepts by link, reception checks in by QR and out; history, refusals', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(240_000);
    const base = `http://localhost:${port}`;
    // The server's visit rules and every browser's clock at the pinned moment, all running on from there.
    const adminApi = await playwrightRequest.newContext();
    const admin = await accessTokenOf(base, 'gambling', 'admin');
    const since = Date.now();
    const pinned = await serverClock(adminApi, base, admin, pinnedInstant());
    const now = () => new Date(pinned.getTime() + (Date.now() - since));
    try {
      await visitJourney(page, browser, request, base, now);
    } finally {
      await serverClock(adminApi, base, admin, null);
      await adminApi.dispose();
    }
  });

  test('an expired confirmation link says so', async ({ page, request }) => {
    test.setTimeout(120_000);
    // The second server (port + 1) gives confirmation links a 1-second life (VISIT_TOKEN_TTL).
    const base = `http://localhost:${port + 1}`;
    const token = await accessTokenOf(base, 'gambling', 'visitor');
    const facilities = (await (
      await request.get(`${base}/api/internal/facilities`, {
        headers: { 'tenant-id': 'gambling', authorization: `Bearer ${token}` },
      })
    ).json()) as { facility_id: string; alias: string }[];
    const start = new Date(Date.now() + 5 * 86_400_000);
    const created = await request.post(`${base}/api/public/visits`, {
      headers: { 'tenant-id': 'gambling', authorization: `Bearer ${token}` },
      data: {
        start_at: start.toISOString(),
        end_at: new Date(start.getTime() + 3600_000).toISOString(),
        host: 'auditor@gambling.example',
        visitor: { name: 'Vera Visitante', email: 'visitor@gambling.example' },
        location: facilities.find((f) => f.alias === 'Sala Bilbao')?.facility_id,
        extra_fields: { emergency_instructions: { accepted: true } },
      },
    });
    expect(created.status()).toBe(201);
    const link = await mailedLink(page, 'auditor@gambling.example', base);
    // Past its second of life, whatever the time the steps above took.
    await page.waitForTimeout(1500);
    await page.goto(link);
    await page.getByTestId('confirmation-accept').click();
    await expect(page.getByTestId('visit-refusal')).toHaveAttribute('data-code', 'token_expired');
    await expect(page.getByTestId('visit-refusal')).toContainText(t('es', 'common.errors.token_expired'));
  });

  test('NewVisit comes painted with the page for a visitor, and nothing painted moves when the app takes over; reception, whose form is another, never sees that paint', async ({
    page,
    browser,
  }) => {
    await watchLayoutShifts(page);
    const selectors = ['header img', 'h1', '[name="visitorName"]', '[name="visitorEmail"]'];
    await watchPaint(page, selectors);
    await openAs(page, 'visitor', '/new-visit');
    await page.reload();
    await expect(page.locator('[name="visitorName"]')).toHaveValue('Vera Visitante');
    // The places in: the list stands where its loading state stood.
    await expect(page.locator('select[name="location"]')).toBeVisible();
    await expectPaintGaveWay(page, { heading: /^Nueva visita$/, selectors, label: 'NewVisit (visitor)' });
    expect(await layoutShiftOf(page)).toBeLessThanOrEqual(0.05);

    const desk = await browser.newPage();
    await watchPaint(desk, ['h1']);
    await openAs(desk, 'receptionist', '/new-visit');
    await desk.reload();
    await expect(desk.locator('[name="visitorName"]')).toBeEditable();
    // The inline script took the visitor's paint away before the page was first drawn: none to see.
    const painted = await desk.evaluate(
      () => (window as { __painted?: { heading: string | null } }).__painted,
    );
    expect(painted?.heading).toBeNull();
    await desk.close();
  });

  for (const [index, lang] of (['es', 'en', 'eu'] as const).entries()) {
    test(`NewVisit: every rule has its own message in ${lang}, and nothing typed is lost`, async ({
      page,
      request,
    }) => {
      test.setTimeout(180_000);
      const base = `http://localhost:${port}`;
      const message = (code: string) => page.getByText(t(lang, `common.errors.${code}`), { exact: true });
      await openAs(page, 'visitor', '/new-visit', lang);
      await page.locator('select[name="location"]').selectOption({ label: 'Sala Bilbao (Europe/Madrid)' });
      await fillVisit(page, {
        host: 'nobody@gambling.example',
        date: '2020-01-01',
        startAt: '10:00',
        endAt: '09:00',
        title: 'x'.repeat(201),
      });
      // The visitor is the signed-in person: their account's name and email, not to be typed over.
      await expect(page.locator('[name="visitorName"]')).toHaveValue('Vera Visitante');
      await expect(page.locator('[name="visitorEmail"]')).toHaveValue('visitor@gambling.example');
      await expect(page.locator('[name="visitorName"]')).not.toBeEditable();
      await expect(page.locator('[name="visitorEmail"]')).not.toBeEditable();
      await page.getByTestId('new-visit-submit').click();
      for (const code of [
        'visit_date_past',
        'visit_end_before_arrival',
        'visit_title_invalid',
        'emergency_plan_not_read',
      ])
        await expect(message(code)).toBeVisible();
      // Today at midnight has already begun: the start must be later than now.
      await fillVisit(page, { date: madrid(new Date()).date, startAt: '00:00', endAt: '00:30' });
      await expect(message('visit_start_past')).toBeVisible();
      await expectAccessible(page);

      // A valid form: the server says the host is not found, and a reload keeps every value typed.
      const day = madrid(new Date(Date.now() + (30 + index) * 86_400_000)).date;
      await fillVisit(page, {
        date: day,
        startAt: '10:00',
        endAt: '11:00',
        title: `Rules ${lang}`,
        plan: true,
      });
      await page.getByTestId('new-visit-submit').click();
      await expect(page.getByTestId('new-visit-invalid')).toHaveText(t(lang, 'common.errors.validation'));
      await expect(message('host_not_found')).toBeVisible();
      await page.reload();
      await expect(page.locator('[name="host"]')).toHaveValue('nobody@gambling.example');
      await expect(page.locator('[name="date"]')).toHaveValue(day);
      await expect(page.locator('[name="startAt"]')).toHaveValue('10:00');
      await expect(page.locator('[name="endAt"]')).toHaveValue('11:00');
      await expect(page.locator('[name="title"]')).toHaveValue(`Rules ${lang}`);
      await expect(page.locator('[name="visitorName"]')).toHaveValue('Vera Visitante');
      await expect(page.locator('[name="planRead"]')).toBeChecked();

      // The host already has a visit then (booked by reception): host_busy, on the start.
      const receptionToken = await accessTokenOf(base, 'gambling', 'receptionist');
      const facilities = (await (
        await request.get(`${base}/api/internal/facilities`, {
          headers: { 'tenant-id': 'gambling', authorization: `Bearer ${receptionToken}` },
        })
      ).json()) as { facility_id: string; alias: string }[];
      const booked = await request.post(`${base}/api/public/visits`, {
        headers: { 'tenant-id': 'gambling', authorization: `Bearer ${receptionToken}` },
        data: {
          start_at: new Date(`${day}T08:30:00Z`).toISOString(),
          end_at: new Date(`${day}T10:00:00Z`).toISOString(),
          host: 'usermanager@gambling.example',
          visitor: { name: 'Otro Visitante', email: 'otro@example.org' },
          location: facilities.find((f) => f.alias === 'Sala Bilbao')?.facility_id,
          extra_fields: { emergency_instructions: { accepted: true } },
        },
      });
      expect(booked.status()).toBe(201);
      await fillVisit(page, { host: 'usermanager@gambling.example' });
      await page.getByTestId('new-visit-submit').click();
      await expect(message('host_busy')).toBeVisible();
      await expect(page.locator('[name="title"]')).toHaveValue(`Rules ${lang}`);

      // The visitor cannot be their own host: the message is under the host field.
      await fillVisit(page, { host: 'visitor@gambling.example' });
      await expect(message('host_is_visitor')).toBeVisible();
      await expect(page.locator('[name="host"]')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator('[name="title"]')).toHaveValue(`Rules ${lang}`);
    });

    test(`the visitor's visit screens pass axe in ${lang}, and work with the keyboard alone`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await openAs(page, 'visitor', '/my-visits', lang);
      await expect(page.getByTestId('visit-row').first()).toBeVisible();
      await expectAccessible(page);
      // A visit still to be answered, opened from its row with Enter.
      const pending = page
        .getByTestId('visit-row')
        .filter({ has: page.locator('[data-testid="visit-status"][data-status="requested"]') })
        .first();
      await tabTo(page, pending.getByRole('link'), { max: 80 });
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('visit-info')).toBeVisible();
      await expectAccessible(page);
      // The tabs are one stop; the arrows move between them and show each one's panel.
      await tabTo(page, page.getByTestId('visit-tab-info'));
      await page.keyboard.press('ArrowRight');
      await expect(page.getByTestId('visit-tab-history')).toBeFocused();
      await expectFocusVisible(page);
      await expect(page.getByTestId('visit-history')).toBeVisible();
      await expectAccessible(page);
      await page.keyboard.press('ArrowLeft');
      await expect(page.getByTestId('visit-tab-info')).toBeFocused();
      await expect(page.getByTestId('visit-info')).toBeVisible();
      // Cancelling asks first: Escape, or Keep it, and the visit stays as it was with the focus back on Cancel.
      const cancel = page.getByTestId('visit-cancel');
      const dialog = page.getByTestId('visit-cancel-dialog');
      await openAndEscape(page, cancel, dialog, false);
      // Again with Enter: axe on the open dialog, then "Keep it" with Space.
      await page.keyboard.press('Enter');
      await expect(dialog).toBeVisible();
      await expectAccessible(page);
      await tabTo(page, dialog.getByRole('button', { name: t(lang, 'visits.cancelKeep') }));
      await page.keyboard.press('Space');
      await expect(dialog).toHaveCount(0);
      await expect(cancel).toBeFocused();
      await expect(page.getByTestId('visit-status')).toHaveAttribute('data-status', 'requested');

      // NewVisit: Enter in the empty form refuses it in words and brings the focus to the first field to mend.
      await page.goto('/new-visit');
      const field = (name: string) => page.locator(`[name="${name}"]`);
      await expect(field('location')).toBeVisible();
      await tabTo(page, field('host'));
      await page.keyboard.press('Enter');
      await expect(page.getByText(t(lang, 'common.errors.required')).first()).toBeVisible();
      await expect(field('host')).toBeFocused();
      await expectAccessible(page);
      // Every control in reading order, filled from the keyboard, and sent with Enter: the host is nobody.
      await page.keyboard.type('nobody@gambling.example');
      await tabThrough(page, [field('location')]);
      await page.keyboard.press('ArrowDown');
      await expect(field('location')).not.toHaveValue('');
      const day = madrid(new Date(Date.now() + (40 + ['es', 'en', 'eu'].indexOf(lang)) * 86_400_000)).date;
      await tabThrough(page, [field('date')]);
      await typeDateOrTime(page, day);
      await tabThrough(page, [field('startAt')]);
      await typeDateOrTime(page, '10:00');
      await tabThrough(page, [field('endAt')]);
      await typeDateOrTime(page, '11:00');
      await tabThrough(page, [field('title')]);
      await page.keyboard.type(`Keyboard ${lang}`);
      // The visitor's own name and email are read-only, and still reached to be read.
      await tabThrough(page, [field('visitorName'), field('visitorEmail'), field('guests')]);
      await page.keyboard.type('1');
      await tabThrough(page, [field('planRead')]);
      await page.keyboard.press('Space');
      await expect(field('planRead')).toBeChecked();
      await tabThrough(page, [page.getByTestId('new-visit-submit')]);
      await page.keyboard.press('Enter');
      await expect(page.getByText(t(lang, 'common.errors.host_not_found'), { exact: true })).toBeVisible();
      await expect(field('date')).toHaveValue(day);
      await expect(field('startAt')).toHaveValue('10:00');
      await expect(field('endAt')).toHaveValue('11:00');
      await expect(field('title')).toHaveValue(`Keyboard ${lang}`);
      await expect(field('guests')).toHaveValue('1');
    });

    test(`reception's visit screens and VisitConfirmation pass axe in ${lang}`, async ({ page, request }) => {
      test.setTimeout(180_000);
      await openAs(page, 'receptionist', '/visits', lang);
      await expect(page.getByTestId('visits')).toBeVisible();
      // All pending: an accepted visit of another day says when its check-in opens instead of offering it.
      const later = page
        .getByTestId('visit-row')
        .filter({ has: page.getByTestId('visit-check-in-day') })
        .first();
      await expect(later).toBeVisible();
      await expect(later.getByTestId('visit-check-in')).toHaveCount(0);
      await expectAccessible(page);
      await later.screenshot({ path: `test-results/visits-check-in-day-${lang}.png` });
      // NewVisit for a person, from a visit's visitor: the form comes filled with their name and email.
      const token = await accessTokenOf(`http://localhost:${port}`, 'gambling', 'receptionist');
      const found = await request.get(`http://localhost:${port}/api/public/visits?visitor=Vera&pageSize=1`, {
        headers: { 'tenant-id': 'gambling', authorization: `Bearer ${token}` },
      });
      const visitId = ((await found.json()) as { items: { id: string }[] }).items[0]?.id;
      await page.goto(`/visit-detail?data=${visitId}`);
      await page.getByTestId('visit-new-for-visitor').click();
      await expect(page).toHaveURL(/\/new-visit\/[\w-]+$/);
      await expect(page.locator('[name="visitorName"]')).toHaveValue('Vera Visitante');
      await expect(page.locator('[name="visitorEmail"]')).toHaveValue('visitor@gambling.example');
      await expect(page.getByTestId('new-visit-for')).toHaveText(
        t(lang, 'newVisit.forVisitor').replace('{name}', 'Vera Visitante'),
      );
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/visits-new-for-visitor-${lang}.png`, fullPage: true });
      // Nobody with that id: the message says so, and the form stays usable.
      await page.goto('/new-visit/00000000-0000-4000-8000-000000000000');
      await expect(page.getByTestId('new-visit-visitor-missing')).toHaveText(
        t(lang, 'common.errors.visitor_not_found'),
      );
      await expect(page.locator('[name="visitorEmail"]')).toHaveValue('');
      // Reception types the visitor's name and email, reached in the form's order by keyboard, once the places
      // have come (the place's list is not there before, and a Tab would pass it by).
      const field = (name: string) => page.locator(`[name="${name}"]`);
      await expect(field('location')).toBeVisible();
      await tabTo(page, field('host'));
      await tabThrough(page, [
        field('location'),
        field('date'),
        field('startAt'),
        field('endAt'),
        field('title'),
      ]);
      await tabThrough(page, [field('visitorName')]);
      await page.keyboard.type('Otra Persona');
      await tabThrough(page, [field('visitorEmail')]);
      await page.keyboard.type('otra@example.org');
      await tabThrough(page, [field('guests'), field('planRead'), page.getByTestId('new-visit-submit')]);
      await expect(field('visitorName')).toHaveValue('Otra Persona');
      await expect(field('visitorEmail')).toHaveValue('otra@example.org');
      await expect(page.getByTestId('new-visit-submit')).toBeEnabled();
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/visits-visitor-missing-${lang}.png`, fullPage: true });

      await page.goto('/process-visit');
      await page.getByTestId('process-visit-code').fill('nobody');
      await page.getByTestId('process-visit-code').press('Enter');
      await expect(page.getByTestId('visit-refusal')).toBeVisible();
      await expectAccessible(page);
      // A link that was never mailed: the public confirmation screen says so.
      await page.goto('/confirmation/not-a-token/00000000-0000-4000-8000-000000000000');
      // axe once the screen is drawn (before, the lazy chunk may still be loading: no heading yet).
      await expect(page.getByTestId('confirmation-accept')).toBeVisible();
      await expectAccessible(page);
      await page.getByTestId('confirmation-accept').click();
      await expect(page.getByTestId('visit-refusal')).toHaveAttribute('data-code', 'invalid_token');
      await expectAccessible(page);
    });
  }
});
