// Stopping the server (SIGTERM, as a service manager or a balancer's rolling restart does) loses nothing it has
// acknowledged: it stops taking requests, lets the uploads in flight finish and the engine judge them, closes the
// database and exits 0; a restart on the same data folder finds every acknowledged upload and its judgement. The
// real server runs as a child process; its engine holds every check until the test lets it go (SIGUSR2), and the
// test moves on from what the child says and answers, never from the clock.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './main';
import { fixture } from './onboarding/testing/harness';
import { createSiteFixture, type SiteFixture, testServerOptions } from './testing/fixtures';
import { HELD_LINE } from './testing/held-engine';
import { apiCall, selfiePortrayal, signIn } from './testing/oidc';

let site: SiteFixture;
let scratch: string;
let child: ChildProcessWithoutNullStreams | undefined;

beforeAll(() => {
  site = createSiteFixture();
  scratch = mkdtempSync(join(tmpdir(), 'portal-shutdown-'));
});
afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  site.remove();
  rmSync(scratch, { recursive: true, force: true });
});

/** The child's stdout as lines, and a wait for the first line (from the start) that matches. */
function watchLines(process: ChildProcessWithoutNullStreams) {
  const lines: string[] = [];
  const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  let partial = '';
  let stderr = '';
  process.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  process.stdout.on('data', (chunk) => {
    const parts = (partial + String(chunk)).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.match(line))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const exited = new Promise<number | null>((done) => process.on('exit', (code) => done(code)));
  return {
    lines,
    exited,
    /** Resolves with the count-th line that matches (1 = the first), or rejects when the process ends first. */
    waitFor(match: (line: string) => boolean, count = 1): Promise<string> {
      const seen = lines.filter(match);
      if (seen.length >= count) return Promise.resolve(seen[count - 1] as string);
      let left = count - seen.length;
      return Promise.race([
        new Promise<string>((done) => {
          const waiter = {
            match,
            resolve: (line: string) => {
              left -= 1;
              if (left === 0) done(line);
              else waiters.push(waiter);
            },
          };
          waiters.push(waiter);
        }),
        exited.then((code) => {
          throw new Error(`the server exited (${code}) first:\n${lines.join('\n')}\n${stderr}`);
        }),
      ]);
    },
  };
}

/** A request on a connection of its own: its status, or the connection's error code. */
function freshGet(port: number, path: string): Promise<{ status?: number; error?: string }> {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? 0 }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    req.end();
  });
}

const logOf = (line: string): Record<string, unknown> | undefined => {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

describe('SIGTERM', { timeout: 300_000 }, () => {
  it('finishes the uploads in flight and their judgements, refuses new requests, closes and exits 0', async () => {
    const dataDir = join(scratch, 'data');
    // One process (tsx as a loader, not its CLI, which passes on only SIGINT and SIGTERM to a process of its own).
    child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        PUBLIC_DIR: site.publicDir,
        DIST_DIR: site.distDir,
        BIOMETRIC_ENGINE: resolve('server/testing/held-engine.ts'),
        BIOMETRIC_ENGINE_THREAD: 'off',
        // Every upload is checked at once, so all of them are held in the engine together.
        HEAVY_WORK_SLOTS: '4',
        // The bound is not what this test is about: however slow the machine, nothing is cut.
        SHUTDOWN_TIMEOUT: '3600',
      },
    });
    const server = watchLines(child);
    const listening = await server.waitFor((line) => line.startsWith('Portal listening on '));
    const base = listening.slice('Portal listening on '.length).trim();
    const port = Number(new URL(base).port);

    // Two people, two portrayals each (two uploads of one person at once is what the queue admits).
    const people = await Promise.all(
      ['newcomer', 'user'].map(async (name) => (await signIn(base, 'gambling', name)).access_token),
    );
    const uploads: { token: string; portrayal: string }[] = [];
    for (const token of people) {
      for (let n = 0; n < 2; n++) {
        uploads.push({ token, portrayal: await selfiePortrayal(base, 'gambling', token) });
      }
    }
    const answers = uploads.map(({ token, portrayal }) =>
      apiCall(base, `/internal/portrayals/${portrayal}/selfie`, 'gambling', token, {
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        body: new Uint8Array(fixture('selfie.png')),
      }).then(
        (res) => ({ status: res.status }),
        (error: unknown) => ({ status: 0, error: String(error) }),
      ),
    );
    // All four are in the engine, held there: in flight.
    await server.waitFor((line) => line === `${HELD_LINE} checkImage`, uploads.length);

    child.kill('SIGTERM');
    const stopping = logOf(
      await server.waitFor((line) => logOf(line)?.msg === 'stopping: finishing work in flight'),
    );
    expect(stopping).toMatchObject({ requests: uploads.length });
    // No longer taking requests: a new connection is refused while the uploads are still held.
    expect(await freshGet(port, '/health')).toEqual({ error: 'ECONNREFUSED' });

    // The checks go on: every upload is answered, and its judgement starts after the answer, held in turn.
    child.kill('SIGUSR2');
    const statuses = (await Promise.all(answers)).map((answer) => answer.status);
    expect(statuses).toEqual(uploads.map(() => 200));
    await server.waitFor((line) => line === `${HELD_LINE} compareFaces`, uploads.length);
    // With every request answered, the server still waits for the judgements before it closes the database.
    expect(child.exitCode).toBe(null);
    child.kill('SIGUSR2');
    expect(await server.exited).toBe(0);
    expect(server.lines.some((line) => logOf(line)?.msg === 'server stopped')).toBe(true);
    expect(
      server.lines.some((line) => logOf(line)?.msg === 'shutdown timeout: closing open connections'),
    ).toBe(false);

    // Started again on the same folder: every acknowledged upload is there, judged.
    const again = await startServer(testServerOptions(site, { dataDir }));
    try {
      const { rows } = await again.db.query<{ portrayal_id: string; images: number; judged: boolean }>(
        `select p.portrayal_id::text as portrayal_id,
                (select count(*)::int from portrayal_images i
                  where i.tenant = p.tenant and i.portrayal_id = p.portrayal_id and i.kind = 'selfie') as images,
                p.computed_version = p.images_version as judged
           from portrayals p where p.portrayal_id::text = any($1::text[])`,
        [uploads.map((upload) => upload.portrayal)],
      );
      const acknowledged = uploads.filter((_, n) => statuses[n] === 200).map((upload) => upload.portrayal);
      expect(
        rows
          .filter((row) => row.images === 1 && row.judged)
          .map((row) => row.portrayal_id)
          .sort(),
      ).toEqual(acknowledged.sort());
    } finally {
      await again.close();
    }
  });
});
