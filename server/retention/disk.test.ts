import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Db } from '../db/db';
import { silentLogger } from '../logger';
import { PUBLIC_DIR } from '../onboarding/testing/harness';
import { onDisk, withPgliteAt } from '../testing/disk';
import { prepareTestDb } from '../testing/fixtures';
import { REWRITE_WITHIN_MS, rewriteIfDue, runRetention } from './job';

// The retention purge removes a due image from the disk, not only from query results: the database's own files
// are searched byte for byte for a selfie before and after (server/testing/disk.ts), as
// server/users/delete-all-disk.test.ts does for deleteAllData. On the embedded database the table rewrite waits for
// a quiet server, at most REWRITE_WITHIN_MS after the purge: here the server is never quiet, so the limit decides.

const dir = mkdtempSync(join(tmpdir(), 'retention-disk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a selfie past the tenant evidenceDays leaves the database files at the latest a day after the purge', async () => {
  // Random bytes do not compress, so the selfie is stored as it is.
  const selfie = randomBytes(1500);
  const takenAt = new Date('2026-01-01T10:00:00.000Z');
  await withPgliteAt(dir, async (db) => {
    await prepareTestDb(db, ['demo']);
    const { rows } = await db.query<{ user_id: string }>(
      `select user_id::text as user_id from user_evidences where tenant = 'demo' and kind = 'selfie' limit 1`,
    );
    expect(rows[0]?.user_id).toBeDefined();
    await db.query(
      `update user_evidences set bytes = $2, created_at = $3 where tenant = 'demo' and user_id = $1::uuid and kind = 'selfie'`,
      [rows[0]?.user_id, selfie, takenAt],
    );
    await db.query('vacuum full user_evidences');
    await db.query('checkpoint');
  });
  const needle = selfie.subarray(200, 264);
  // It is in the files before (or the search below could not fail).
  expect(onDisk(dir, { selfie: needle })).toEqual(['selfie']);

  const options = (db: Db, at: Date) => ({
    db,
    tenants: ['demo'],
    publicDir: PUBLIC_DIR,
    logger: silentLogger,
    clock: { now: () => at },
  });
  // demo keeps evidence 90 days by default: 91 days after it was taken, it is due. The server is busy (never quiet).
  const purgedAt = new Date(takenAt.getTime() + 91 * 24 * 60 * 60 * 1000);
  await withPgliteAt(dir, async (db) => {
    const records = await runRetention(options(db, purgedAt));
    expect(records === 'busy' ? 'busy' : records.find((r) => r.kind === 'evidence')?.deleted).toBeGreaterThan(
      0,
    );
    await db.query('checkpoint');
  });
  // Gone from the queries, not yet from the files: the embedded database rewrites at a quiet moment or at the limit.
  expect(onDisk(dir, { selfie: needle })).toEqual(['selfie']);

  await withPgliteAt(dir, async (db) => {
    const justBefore = new Date(purgedAt.getTime() + REWRITE_WITHIN_MS - 1000);
    expect(await rewriteIfDue(options(db, justBefore))).toEqual([]);
    // At the stated limit the tables are rewritten though the server was never quiet.
    const atLimit = new Date(purgedAt.getTime() + REWRITE_WITHIN_MS);
    expect(await rewriteIfDue(options(db, atLimit))).toEqual(['evidence']);
    await db.query('checkpoint');
  });
  expect(onDisk(dir, { selfie: needle })).toEqual([]);
}, 120_000);
