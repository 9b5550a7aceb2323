// Two servers on one data folder would lose one's acknowledged writes; the second refuses.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockFileOf, startOf } from '../data-lock';
import { type StartServerOptions, startServer } from '../main';
import { createSiteFixture, type SiteFixture, testServerOptions } from '../testing/fixtures';

let site: SiteFixture;
let scratch: string;
beforeAll(() => {
  site = createSiteFixture();
  scratch = mkdtempSync(join(tmpdir(), 'portal-lock-'));
});
afterAll(() => {
  site.remove();
  rmSync(scratch, { recursive: true, force: true });
});

function options(dataDir: string): StartServerOptions {
  return testServerOptions(site, { dataDir });
}

/** Runs `npm run server` (server/main.ts) on the folder and collects how it ended. */
function runServerProcess(dataDir: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve('node_modules/tsx/dist/cli.mjs'), 'server/main.ts'], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'silent',
        PUBLIC_DIR: site.publicDir,
        DIST_DIR: site.distDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    // A server that did start would keep running: stop it so the test reports instead of hanging.
    child.stdout.on('data', (chunk) => {
      if (String(chunk).includes('listening')) child.kill('SIGTERM');
    });
    child.on('exit', (code) => done({ code, stderr }));
  });
}

describe('the data folder lock', { timeout: 120_000 }, () => {
  it('a second server on the same folder refuses to start and says why; the first keeps its data', async () => {
    const dataDir = join(scratch, 'shared');
    const first = await startServer(options(dataDir));
    const mail = ['gambling', 'someone@example.com', 'kept', 'written by the first server'];
    try {
      await first.db.query(
        'insert into outbox (tenant, recipient, subject, body) values ($1, $2, $3, $4)',
        mail,
      );
      expect(JSON.parse(readFileSync(lockFileOf(dataDir), 'utf8')).pid).toBe(process.pid);
      await expect(startServer(options(dataDir))).rejects.toBeInstanceOf(DataDirInUseError);
      const second = await runServerProcess(dataDir);
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain(
        `The data folder ${dataDir} is in use by another server (process ${process.pid})`,
      );
      expect((await fetch(`${first.url}/health`)).status).toBe(200);
    } finally {
      await first.close();
    }
    expect(existsSync(lockFileOf(dataDir))).toBe(false);
    // Released on close: the folder opens again, with the first server's write in it.
    const again = await startServer(options(dataDir));
    try {
      const { rows } = await again.db.query<{ body: string }>(
        "select body from outbox where subject = 'kept'",
      );
      expect(rows.map((r) => r.body)).toEqual([mail[3]]);
    } finally {
      await again.close();
    }
  });

  it('takes over the lock of a server that died without releasing it', async () => {
    const dataDir = join(scratch, 'crashed');
    const dead = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    writeFileSync(lockFileOf(dataDir), JSON.stringify({ pid: Number(dead), token: 'left-behind' }));
    const server = await startServer(options(dataDir));
    try {
      expect(JSON.parse(readFileSync(lockFileOf(dataDir), 'utf8')).pid).toBe(process.pid);
    } finally {
      await server.close();
    }
  });

  // The system gives an ended process's id to a new one: a lock left by a crash may name a process that runs, but
  // is not the server that wrote it (a stale e2e lock once blocked the server that way).
  it.runIf(existsSync('/proc/self/stat'))(
    'takes over the lock of a server whose process id another process has now',
    async () => {
      const dataDir = join(scratch, 'reused');
      const other = startOf(process.ppid);
      expect(other).toMatch(/^\d+$/);
      writeFileSync(
        lockFileOf(dataDir),
        JSON.stringify({ pid: process.ppid, token: 'left-behind', started: `${Number(other) + 1}` }),
      );
      const server = await startServer(options(dataDir));
      try {
        const lock = JSON.parse(readFileSync(lockFileOf(dataDir), 'utf8'));
        expect(lock.pid).toBe(process.pid);
        expect(lock.started).toBe(startOf(process.pid));
      } finally {
        await server.close();
      }
      // The same process id and start as a live process: that is its owner, and the folder stays its.
      writeFileSync(
        lockFileOf(dataDir),
        JSON.stringify({ pid: process.ppid, token: 'held', started: other }),
      );
      await expect(startServer(options(dataDir))).rejects.toBeInstanceOf(DataDirInUseError);
      rmSync(lockFileOf(dataDir), { force: true });
    },
  );

  it('an in-memory database or a PostgreSQL server needs no lock', async () => {
    const server = await startServer(options('memory://'));
    await server.close();
    expect(existsSync(lockFileOf('memory://'))).toBe(false);
  });
});
