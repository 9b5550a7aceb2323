// Backup and restore of the embedded database: a copy taken from a running server (with a transaction open while
// it is asked for) brings back every row into an emptied folder; restore refuses a folder a server holds or one
// that is not empty; an older dump comes up to date; the backup route answers only this machine with the key.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../db/db';
import { migrate, readMigrations } from '../db/migrate';
import { pgliteImage } from '../db/pglite';
import { type RunningServer, startServer } from '../main';
import { createSiteFixture, type SiteFixture, testServerOptions } from '../testing/fixtures';
import { NEIGHBOUR_SOURCE, seeNeighbourAt } from '../testing/neighbour';
import { RestoreRefused, restoreBackup, takeBackup } from './files';
import { BACKUP_PATH, backupAccessFileOf, readBackupAccess } from './route';

let site: SiteFixture;
let scratch: string;
beforeAll(() => {
  site = createSiteFixture();
  scratch = mkdtempSync(join(tmpdir(), 'portal-backup-'));
});
afterAll(() => {
  site.remove();
  rmSync(scratch, { recursive: true, force: true });
});

const start = (dataDir: string, extra = {}) => startServer(testServerOptions(site, { dataDir, ...extra }));

/** Every table's row count: what "every row" is compared by. */
async function rowCounts(db: Queryable): Promise<Record<string, number>> {
  const tables = await db.query<{ name: string }>(
    "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    counts[name] =
      (await db.query<{ n: number }>(`select count(*)::int as n from "${name}"`)).rows[0]?.n ?? -1;
  }
  return counts;
}

/** Lets the server's pending work run until `done` holds, without any clock. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

/** A POST to the backup route, from `localAddress`: status only. */
function askBackup(
  port: number,
  headers: Record<string, string>,
  localAddress = '127.0.0.1',
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: BACKUP_PATH, method: 'POST', headers, localAddress, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('backup and restore', { timeout: 180_000 }, () => {
  it('a backup of a running server, taken while a write is in flight, restores every row', async () => {
    const dataDir = join(scratch, 'live', 'data');
    const outDir = join(scratch, 'live', 'backups');
    let server: RunningServer | undefined = await start(dataDir);
    try {
      await server.db.exec('create table backup_probe (label text primary key)');
      await server.db.query("insert into backup_probe values ('before-1'), ('before-2')");

      // A transaction open before the backup is asked for and committed after: the copy must wait for it.
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const db = server.db;
      const writing = db.transaction(async (tx) => {
        await tx.query("insert into backup_probe values ('in-flight-1')");
        await released;
        await tx.query("insert into backup_probe values ('in-flight-2')");
      });
      await until(() => db.stats?.().inFlight === 1);
      const backup = takeBackup({ dataDir, outDir, now: new Date('2026-11-26T21:41:01.123Z') });
      // The transaction and the copy both in flight: the copy has arrived and waits.
      await until(() => db.stats?.().inFlight === 2);
      release();
      await writing;
      const taken = await backup;
      expect(taken.from).toBe('server');
      expect(taken.file).toBe(join(outDir, 'portal-backup-2026-11-26T21-41-01Z.tar.gz'));
      expect(statSync(taken.file).mode & 0o777).toBe(0o600);
      expect(taken.bytes).toBe(statSync(taken.file).size);
      expect(existsSync(`${taken.file}.partial`)).toBe(false);

      await server.db.query("insert into backup_probe values ('after')");
      const expected = await rowCounts(server.db);
      expected.backup_probe = 4;

      await expect(restoreBackup({ dataDir, file: taken.file, force: true })).rejects.toThrow(
        /in use.*server stopped/s,
      );
      await server.close();
      server = undefined;
      expect(existsSync(backupAccessFileOf(dataDir))).toBe(false);

      await expect(restoreBackup({ dataDir, file: taken.file })).rejects.toBeInstanceOf(RestoreRefused);
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);

      rmSync(dataDir, { recursive: true });
      const restored = await restoreBackup({ dataDir, file: taken.file });
      expect(restored).toEqual({ dataDir, applied: [] });

      server = await start(dataDir);
      const labels = await server.db.query<{ label: string }>(
        'select label from backup_probe order by label',
      );
      expect(labels.rows.map((row) => row.label)).toEqual([
        'before-1',
        'before-2',
        'in-flight-1',
        'in-flight-2',
      ]);
      expect(await rowCounts(server.db)).toEqual(expected);
    } finally {
      await server?.close();
    }
  });

  it('without a server the backup opens the folder itself; --force keeps the old folder aside', async () => {
    const dataDir = join(scratch, 'idle', 'data');
    const outDir = join(scratch, 'idle', 'backups');
    const server = await start(dataDir);
    await server.db.exec("create table backup_probe (label text); insert into backup_probe values ('one')");
    await server.close();

    const taken = await takeBackup({ dataDir, outDir });
    expect(taken.from).toBe('folder');
    expect(statSync(taken.file).mode & 0o777).toBe(0o600);

    const restored = await restoreBackup({
      dataDir,
      file: taken.file,
      force: true,
      now: new Date('2026-11-27T08:00:00Z'),
    });
    expect(restored.keptAside).toBe(`${dataDir}.before-restore-2026-11-27T08-00-00Z`);
    expect(existsSync(join(restored.keptAside as string, 'PG_VERSION'))).toBe(true);
    const again = await start(dataDir);
    try {
      expect((await again.db.query('select label from backup_probe')).rows).toEqual([{ label: 'one' }]);
    } finally {
      await again.close();
    }
  });

  it('a dump of an older version comes up to date; a file that is no dump leaves the folder as it was', async () => {
    const migrations = readMigrations();
    const older = await pgliteImage(async (db) => {
      await migrate(db, migrations.slice(0, -1));
    });
    const file = join(scratch, 'older.tar');
    writeFileSync(file, Buffer.from(await older.arrayBuffer()));
    const dataDir = join(scratch, 'older', 'data');
    const restored = await restoreBackup({ dataDir, file });
    expect(restored.applied).toEqual([migrations.at(-1)?.name]);

    const junk = join(scratch, 'junk.tar.gz');
    writeFileSync(junk, 'not a dump');
    await expect(restoreBackup({ dataDir, file: junk, force: true })).rejects.toThrow(/not a backup/);
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  });

  it('the backup route answers only this machine, with the key of the data folder', async () => {
    const dataDir = join(scratch, 'route', 'data');
    const server = await start(dataDir, { host: '0.0.0.0', listenHost: '127.0.0.1' });
    seeNeighbourAt(server);
    try {
      expect(statSync(backupAccessFileOf(dataDir)).mode & 0o777).toBe(0o600);
      const access = readBackupAccess(dataDir);
      expect(access?.url).toBe(`http://127.0.0.1:${server.port}`);
      const key = { authorization: `Bearer ${access?.key}` };
      expect(await askBackup(server.port, key, NEIGHBOUR_SOURCE)).toBe(404);
      expect(await askBackup(server.port, { ...key, 'x-forwarded-for': '127.0.0.1' })).toBe(404);
      expect(await askBackup(server.port, {})).toBe(401);
      expect(await askBackup(server.port, { authorization: `Bearer ${'0'.repeat(64)}` })).toBe(401);
      expect(await askBackup(server.port, key)).toBe(200);
      expect(JSON.parse(readFileSync(backupAccessFileOf(dataDir), 'utf8')).pid).toBe(process.pid);
    } finally {
      await server.close();
    }
  });

  it('a server on memory:// has no backup route (nothing to copy from a folder)', async () => {
    const server = await startServer(testServerOptions(site, { dataDir: 'memory://' }));
    try {
      expect(await askBackup(server.port, { authorization: 'Bearer x' })).toBe(404);
    } finally {
      await server.close();
    }
  });
});
