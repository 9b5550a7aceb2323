// Interaction to Next Paint of the heaviest interactions, on a phone's CPU: Chromium on a Pixel 7 profile with the CPU
// slowed down four times (CDP Emulation.setCPUThrottlingRate), the built portal on a data folder seeded as usual and
// grown to INP_AUDIT_ROWS accesses (bench/audit-export.ts). Each interaction is read from the Event Timing API (a
// PerformanceObserver of `event` entries, durationThreshold 16 ms): an entry's duration runs from the person's input
// to the next paint after its handlers; entries of one interaction share an interactionId, and choosing a file
// (its `input` and `change` come from the browser, with no interactionId) counts too. The worst one of each must be
// ≤ INP_BUDGET_MS. `npx tsx bench/inp.ts` runs it alone and prints the table; `npm run bench -- --only inp`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, devices, type Page } from '@playwright/test';
import { unzipSync, zipSync } from 'fflate';
import { formatTable } from '../scripts/table';
import { startServer } from '../server/main';
import { basicEngine } from '../server/onboarding/engine';
import { seedAuditAccesses } from './audit-export';
import { launchChromium } from './chromium';

export const INP_BUDGET_MS = 200;
export const INP_AUDIT_ROWS = 100_000;
/** AddUsersFromPhotos takes up to 1,000 rows (BULK_MAX_ROWS): the zip holds that many photos. */
export const INP_ZIP_ROWS = 1_000;
const CPU_SLOWDOWN = 4;
const PHOTO = 'tests/fixtures/generated/bulk-photos.zip';

export interface InpRow {
  interaction: string;
  /** The worst entry's duration (input to next paint), 0 when none reached 16 ms. */
  worstMs: number;
  /** Its event type, and where its time went (input delay / handlers / to the paint, ms). */
  worstEvent: string;
  worstSplit: string;
  /** Interactions (distinct interactionIds) and entries of 16 ms or more. */
  interactions: number;
  entries: number;
  /** Every entry over the budget: event, duration and its split. */
  over: string[];
  ok: boolean;
}

export interface InpBench {
  rows: InpRow[];
  /** The machine's load average (1, 5, 15 min) when the bench started: timings move with it. */
  loadAverage: number[];
}

interface Entry {
  name: string;
  duration: number;
  interactionId: number;
  /** Where the time went: before the handlers ran, in them, and from them to the paint. */
  inputDelay: number;
  processing: number;
  presentation: number;
}

/** Collects every `event` entry of 16 ms or more from the page's start (window.__events). */
async function observeEvents(context: BrowserContext) {
  await context.addInitScript(() => {
    const w = window as unknown as { __events: Entry[] };
    w.__events = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[]) {
        w.__events.push({
          name: entry.name,
          duration: entry.duration,
          interactionId: entry.interactionId ?? 0,
          inputDelay: Math.round(entry.processingStart - entry.startTime),
          processing: Math.round(entry.processingEnd - entry.processingStart),
          presentation: Math.round(entry.startTime + entry.duration - entry.processingEnd),
        });
      }
      // biome-ignore lint/suspicious/noExplicitAny: durationThreshold is not in every lib.dom yet
    }).observe({ type: 'event', durationThreshold: 16, buffered: true } as any);
  });
}

const clearEvents = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { __events: Entry[] }).__events = [];
  });

async function rowOf(page: Page, interaction: string, counts: (e: Entry) => boolean): Promise<InpRow> {
  // Entries are queued until the next paint after the interaction's work: give the page a frame to report them.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
  const events = (await page.evaluate(() => (window as unknown as { __events: Entry[] }).__events)).filter(
    counts,
  );
  const worst = events.reduce<Entry | undefined>(
    (w, e) => (!w || e.duration > w.duration ? e : w),
    undefined,
  );
  return {
    interaction,
    worstMs: Math.round(worst?.duration ?? 0),
    worstEvent: worst?.name ?? '—',
    worstSplit: worst ? `${worst.inputDelay} / ${worst.processing} / ${worst.presentation}` : '—',
    interactions: new Set(events.map((e) => e.interactionId).filter((id) => id > 0)).size,
    entries: events.length,
    over: events
      .filter((e) => e.duration > INP_BUDGET_MS)
      .map(
        (e) =>
          `${e.name} ${Math.round(e.duration)} ms (${e.inputDelay} / ${e.processing} / ${e.presentation})`,
      ),
    ok: (worst?.duration ?? 0) <= INP_BUDGET_MS,
  };
}

async function signedIn(browserContext: BrowserContext, portal: string, account: string): Promise<Page> {
  const page = await browserContext.newPage();
  await page.goto(portal);
  await page.getByTestId('login').click();
  await page.locator('#username').fill(account);
  await page.locator('#password').fill(account);
  await page.locator('button[type=submit]').click();
  await page.waitForURL((url) => !/^\/(auth|callback)\b/.test(url.pathname), { timeout: 60_000 });
  await page.locator('main h1').first().waitFor({ timeout: 60_000 });
  return page;
}

async function slowDown(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  // BENCH_INP_TRACE=file.json: Chromium's trace of what follows (open it in the DevTools' Performance panel).
  if (process.env.BENCH_INP_TRACE)
    await page
      .context()
      .browser()
      ?.startTracing(page, {
        path: process.env.BENCH_INP_TRACE,
        // With the JS samples, so the trace names the functions.
        categories: [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'v8.execute',
          'disabled-by-default-v8.cpu_profiler',
        ],
      });
}

/** A visitor types a visit's title and people's names in NewVisit, key by key. */
async function typingInNewVisit(page: Page, portal: string): Promise<InpRow> {
  await page.goto(`${portal}/new-visit`);
  await page.getByTestId('new-visit-form').waitFor();
  await page.locator('#visit-location option').nth(1).waitFor({ state: 'attached' });
  await slowDown(page);
  await clearEvents(page);
  await page.locator('input[name="title"]').click();
  await page.keyboard.type('Reunión de seguimiento del proyecto', { delay: 40 });
  return rowOf(page, 'NewVisit (visitor): typing a title, 35 keys', (e) => e.interactionId > 0);
}

/** An auditor filters 100,000 accesses: the presets, then the result. */
async function filteringAudit(page: Page, portal: string): Promise<InpRow> {
  await page.goto(`${portal}/audit-accesses`);
  await page.getByTestId('audit-row').first().waitFor({ timeout: 120_000 });
  await slowDown(page);
  await clearEvents(page);
  for (const preset of ['today', 'last7Days', 'all', 'last30Days']) {
    const answered = page.waitForResponse((r) => r.url().includes('/api/public/audit_accesses'), {
      timeout: 120_000,
    });
    await page.locator(`[data-preset="${preset}"]`).click();
    await answered;
    await page.getByTestId('audit-accesses').waitFor({ timeout: 120_000 });
  }
  // The result filter with the keyboard, as a person on a select does.
  const answered = page.waitForResponse((r) => r.url().includes('/api/public/audit_accesses'), {
    timeout: 120_000,
  });
  await page.getByTestId('audit-result-filter').focus();
  await page.keyboard.press('ArrowDown');
  await answered;
  await page.getByTestId('audit-accesses').waitFor({ timeout: 120_000 });
  if (process.env.BENCH_INP_TRACE) await page.context().browser()?.stopTracing();
  return rowOf(
    page,
    `AuditAccesses (auditor): filtering ${INP_AUDIT_ROWS.toLocaleString('en')} accesses, 4 presets and the result`,
    (e) => e.interactionId > 0,
  );
}

/** The metadata csv and the zip of AddUsersFromPhotos with `rows` people, each with a photo of their own name. */
function bulkFiles(dir: string, rows: number): { csv: string; zip: string } {
  // One of the bulk tests' fixture photos; every person gets it under their own name.
  const photo = Object.values(unzipSync(readFileSync(PHOTO)))[0];
  if (!photo) throw new Error(`${PHOTO} holds no photo`);
  const files: Record<string, Uint8Array> = {};
  let csv = 'email,first_name,last_name,acs_id,image\r\n';
  for (let i = 0; i < rows; i++) {
    files[`photos/p${i}.jpg`] = photo;
    csv += `p${i}@inp.example.test,Ane,Etxeberria,INP-${i},photos/p${i}.jpg\r\n`;
  }
  const csvPath = join(dir, 'people.csv');
  const zipPath = join(dir, 'photos.zip');
  writeFileSync(csvPath, csv);
  writeFileSync(zipPath, zipSync(files, { level: 0 }));
  return { csv: csvPath, zip: zipPath };
}

/** A user manager chooses the people's csv, then the 1,000-photo zip, through the file chooser. */
async function choosingZip(page: Page, portal: string, files: { csv: string; zip: string }): Promise<InpRow> {
  await page.goto(`${portal}/bulk-registration`);
  await page.locator('[data-screen="AddUsersFromPhotos"]').waitFor();
  await page.locator('#bulk-metadata').setInputFiles(files.csv);
  await slowDown(page);
  await clearEvents(page);
  const chooser = page.waitForEvent('filechooser');
  await page.locator('#bulk-media').click();
  await (await chooser).setFiles(files.zip);
  await page.getByTestId('bulk-ready').waitFor({ timeout: 300_000 });
  return rowOf(
    page,
    `AddUsersFromPhotos (usermanager): choosing a ${INP_ZIP_ROWS}-row zip`,
    (e) => e.interactionId > 0 || e.name === 'input' || e.name === 'change',
  );
}

export async function benchInp(): Promise<InpBench> {
  const loadAverage = loadavg().map((n) => Math.round(n * 10) / 10);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-inp-'));
  try {
    await seedAuditAccesses(dataDir, INP_AUDIT_ROWS);
    const files = bulkFiles(dataDir, INP_ZIP_ROWS);
    const server = await startServer({
      port: 0,
      dataDir,
      logLevel: 'silent',
      onboarding: { engine: basicEngine },
    });
    const portal = server.url.replace('127.0.0.1', 'localhost');
    const browser = await launchChromium();
    try {
      const run = async (account: string, measure: (page: Page) => Promise<InpRow>) => {
        const context = await browser.newContext({ ...devices['Pixel 7'] });
        await observeEvents(context);
        try {
          return await measure(await signedIn(context, portal, account));
        } finally {
          await context.close();
        }
      };
      // BENCH_INP_ONLY=audit (or visit, zip) measures one of them, to look into it.
      const only = process.env.BENCH_INP_ONLY;
      const rows: InpRow[] = [];
      if (!only || only === 'visit')
        rows.push(await run('visitor', (page) => typingInNewVisit(page, portal)));
      if (!only || only === 'audit') rows.push(await run('auditor', (page) => filteringAudit(page, portal)));
      if (!only || only === 'zip')
        rows.push(await run('usermanager', (page) => choosingZip(page, portal, files)));
      return { rows, loadAverage };
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const inpTable = (rows: readonly InpRow[]) =>
  formatTable(
    [
      'interaction (Pixel 7, CPU ×4)',
      'worst next paint',
      'event',
      'delay / handlers / paint',
      'interactions',
      'entries ≥ 16 ms',
      'budget',
      '',
    ],
    rows.map((r) => [
      r.interaction,
      r.entries === 0 ? '< 16 ms' : `${r.worstMs} ms`,
      r.worstEvent,
      r.worstSplit,
      String(r.interactions),
      String(r.entries),
      `${INP_BUDGET_MS} ms`,
      r.ok ? 'ok' : 'OVER',
    ]),
  );

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchInp();
  console.log(`load average when it started: ${result.loadAverage.join(', ')}`);
  console.log(inpTable(result.rows));
  for (const r of result.rows)
    if (r.over.length > 0) console.log(`${r.interaction}, over: ${r.over.join('; ')}`);
  if (result.rows.some((r) => !r.ok)) process.exitCode = 1;
}
