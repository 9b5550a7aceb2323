// The audit's csv export of 100,000+ rows in a real browser (it must work "for 100,000 rows without freezing the
// page"): a temporary data folder seeded as usual, then grown to EXPORT_ROWS accesses of gambling; the built portal
// served on it; Chromium on a Pixel 7 profile signs in as `auditor`, picks "all" on AuditAccesses and exports.
// Measured: the time from the click to the saved file, the longest main-thread task while it ran (a
// PerformanceObserver of `longtask` entries), whether the progress was shown, and the rows of the downloaded file
// against the database's count. The budget is the longest task: the page must stay responsive while it streams.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devices } from '@playwright/test';
import { migrate } from '../server/db/migrate';
import { openDb } from '../server/db/open-db';
import { seed } from '../server/db/seed';
import { startServer } from '../server/main';
import { basicEngine } from '../server/onboarding/engine';
import { loadTenants } from '../server/tenants';
import { launchChromium } from './chromium';

export const EXPORT_ROWS = 100_000;
/** The longest main-thread task allowed while the export runs (a frozen page is one long task). */
export const EXPORT_LONGEST_TASK_BUDGET_MS = 200;
const TENANT = 'gambling';

export interface AuditExportBench {
  rowsInDb: number;
  rowsInFile: number;
  megabytes: number;
  seconds: number;
  longestTaskMs: number;
  longTasks: number;
  progressShown: boolean;
  ok: boolean;
}

/**
 * Seeds the tenant as `npm start` does, then copies its month of accesses until there are at least `rows` (also the
 * INP bench's AuditAccesses, bench/inp.ts).
 */
export async function seedAuditAccesses(dataDir: string, rows: number): Promise<number> {
  const db = await openDb({ dataDir });
  try {
    const { wasNew } = await migrate(db);
    await seed(db, { isNewDb: wasNew, nodeEnv: undefined, tenants: loadTenants('public') });
    const count = async () =>
      (
        await db.query<{ n: number }>('select count(*)::int as n from audit_accesses where tenant = $1', [
          TENANT,
        ])
      ).rows[0]?.n ?? 0;
    const seeded = await count();
    if (seeded === 0) throw new Error('the seed has no accesses');
    const copies = Math.ceil((rows - seeded) / seeded);
    // Each copy is the seeded month again, a few seconds apart, so every row is distinct and in the last 30 days.
    await db.query(
      `insert into audit_accesses (tenant, created_at, facility_id, user_id, sid, credential_type, doc_type, granted,
          reason, enforcement_source, first_name, last_name, birth_date, document_type, document_number, id_number,
          registration_date, watchlists_check_mode, watchlists_checked, enforcement_watchlist_id)
       select tenant, created_at - k * interval '7 seconds', facility_id, user_id, sid, credential_type, doc_type,
          granted, reason, enforcement_source, first_name, last_name, birth_date, document_type, document_number,
          id_number, registration_date, watchlists_check_mode, watchlists_checked, enforcement_watchlist_id
         from audit_accesses, generate_series(1, $2::int) as k where tenant = $1`,
      [TENANT, copies],
    );
    await db.query('analyze audit_accesses');
    return count();
  } finally {
    await db.close();
  }
}

export async function benchAuditExport(rows = EXPORT_ROWS): Promise<AuditExportBench> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-export-'));
  try {
    const rowsInDb = await seedAuditAccesses(dataDir, rows);
    const server = await startServer({
      port: 0,
      dataDir,
      logLevel: 'silent',
      onboarding: { engine: basicEngine },
    });
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ ...devices['Pixel 7'], acceptDownloads: true });
      await context.addInitScript(() => {
        const w = window as unknown as { __longTasks: number[]; __progressSeen: boolean };
        w.__longTasks = [];
        w.__progressSeen = false;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
        }).observe({ type: 'longtask', buffered: true });
        // Whether the progress (rows and kB read) was ever on screen while the file streamed.
        new MutationObserver(() => {
          if (document.querySelector('[data-testid="audit-export-progress"]')) w.__progressSeen = true;
        }).observe(document, { childList: true, subtree: true });
      });
      const page = await context.newPage();
      await page.goto(server.url.replace('127.0.0.1', 'localhost'));
      await page.getByTestId('login').click();
      await page.locator('#username').fill('auditor');
      await page.locator('#password').fill('auditor');
      await page.locator('button[type=submit]').click();
      await page.locator('[data-screen="PortalManagement"]').waitFor();
      await page.goto(`${server.url.replace('127.0.0.1', 'localhost')}/audit-accesses`);
      await page.locator('[data-preset="all"]').click();
      await page.getByTestId('audit-lower-bound').waitFor();
      await page.evaluate(() => {
        (window as unknown as { __longTasks: number[] }).__longTasks = [];
      });
      const download = page.waitForEvent('download', { timeout: 300_000 });
      const started = Date.now();
      await page.getByTestId('audit-export').click();
      const file = await download;
      const seconds = (Date.now() - started) / 1000;
      await page.getByTestId('audit-export-done').waitFor();
      const { longTasks, progressSeen } = await page.evaluate(() => {
        const w = window as unknown as { __longTasks: number[]; __progressSeen: boolean };
        return { longTasks: w.__longTasks, progressSeen: w.__progressSeen };
      });
      const bytes = readFileSync((await file.path()) as string);
      // Rows: records of the csv (CRLF-terminated; quoted cells never hold a line break here), minus the header.
      const text = bytes.toString('utf8');
      const rowsInFile = text.split('\r\n').filter((line) => line !== '').length - 1;
      const longestTaskMs = Math.round(Math.max(0, ...longTasks));
      return {
        rowsInDb,
        rowsInFile,
        megabytes: Math.round((bytes.length / (1024 * 1024)) * 10) / 10,
        seconds: Math.round(seconds * 10) / 10,
        longestTaskMs,
        longTasks: longTasks.length,
        progressShown: progressSeen,
        ok: longestTaskMs <= EXPORT_LONGEST_TASK_BUDGET_MS && rowsInFile === rowsInDb && progressSeen,
      };
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
