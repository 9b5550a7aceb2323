import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createApp } from '../app';
import { basicEngine } from '../onboarding/engine';
import { fakeAuth, headersOf, PUBLIC_DIR, person } from '../onboarding/testing/harness';
import { onDisk, withPgliteAt } from '../testing/disk';
import { createSiteFixture, prepareTestDb, testDeps } from '../testing/fixtures';

// "Delete all users and their personal data" removes them from the disk, not only from query results: the
// database's own files (PGlite on a directory, as `npm start` runs it) are searched byte for byte for a selfie
// and a surname before and after. The write-ahead log (pg_wal) is left out: PostgreSQL recycles its segments
// itself, and until then they hold every change ever made, deletions included.

const dir = mkdtempSync(join(tmpdir(), 'delete-all-disk-'));
const site = createSiteFixture();

afterAll(() => {
  site.remove();
  rmSync(dir, { recursive: true, force: true });
});

it('deleteAllData leaves no image and no personal field of the tenant in the database files', async () => {
  // Random bytes do not compress, so the selfie is stored as it is; the surname is short text, stored inline.
  const selfie = randomBytes(1500);
  const surname = `Zubizarreta${randomBytes(6).toString('hex')}`;
  await withPgliteAt(dir, async (db) => {
    await prepareTestDb(db);
    const { rows } = await db.query<{ user_id: string }>(
      `select user_id::text as user_id from user_evidences where tenant = 'demo' and kind = 'selfie' limit 1`,
    );
    const userId = rows[0]?.user_id;
    expect(userId).toBeDefined();
    await db.query(
      `update user_evidences set bytes = $2 where tenant = 'demo' and user_id = $1::uuid and kind = 'selfie'`,
      [userId, selfie],
    );
    await db.query(`update users set last_name = $2 where tenant = 'demo' and user_id = $1::uuid`, [
      userId,
      surname,
    ]);
    await db.query('vacuum full users');
    await db.query('vacuum full user_evidences');
    await db.query('checkpoint');
  });
  const needles = { selfie: selfie.subarray(200, 264), surname: Buffer.from(surname) };
  // Both are in the files before (or the search below could not fail).
  expect(onDisk(dir, needles)).toEqual(['selfie', 'surname']);

  await withPgliteAt(dir, async (db) => {
    const app = createApp({
      ...testDeps(db, site, { publicDir: PUBLIC_DIR }),
      auth: fakeAuth,
      onboarding: { engine: basicEngine, production: false },
    });
    const headers = headersOf(person('staff-admin', 'demo', ['get_users_all', 'delete_users_all']));
    const res = await app.request('/api/public/users/deleteAllData', {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ confirm: 'demo' }),
    });
    expect(res.status).toBe(200);
    await db.query('checkpoint');
  });
  expect(onDisk(dir, needles)).toEqual([]);
}, 120_000);
