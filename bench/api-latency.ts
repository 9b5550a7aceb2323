// API latency under a steady load, as a phone's calls meet it: requests on loopback at an even rate against
// the portal server running in its own process (started as `npm run server` does, on a fresh on-disk
// database), with real access tokens obtained through the real sign-in (authorization code with PKCE).
//  - GET /api/public/credentials/{userId} as the seeded enrolled `user` (the person reading their own QR);
//  - GET /api/public/accounts as `accountmanager` (the staff list's first page).
// Each is warmed up briefly, then measured for a bounded time; p50, p99 and errors go against the budget.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleServer } from '../scripts/bundle-server.mjs';
import { migrate } from '../server/db/migrate';
import { openDb } from '../server/db/open-db';
import { seed } from '../server/db/seed';
import { loadTenants } from '../server/tenants';
import { signIn } from '../server/testing/oidc';
import { steadyLoad } from './steady-load';

export const API_P99_BUDGET_MS = 25;
const TENANT = 'gambling';

export interface ApiLatency {
  name: string;
  path: string;
  as: string;
  rate: number;
  seconds: number;
  requests: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Socket errors, timeouts and answers other than 2xx. */
  errors: number;
  /** CPU time the server process spent per request (user + system): the cost, whatever the machine's load. */
  serverCpuMsPerRequest: number;
  ok: boolean;
}

export interface ApiLatencyOptions {
  /** Requests per second across all connections (200). */
  rate?: number;
  /** Measured seconds per endpoint (20), after a short warm-up. */
  seconds?: number;
  warmupSeconds?: number;
  /** Where the server's own log goes. */
  serverLog?: string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Migrates and seeds the database the server will open, and returns the seeded enrolled user's id. */
export async function prepareData(dataDir: string): Promise<string> {
  const db = await openDb({ dataDir });
  try {
    const { wasNew } = await migrate(db);
    await seed(db, { isNewDb: wasNew, nodeEnv: undefined, tenants: loadTenants('public') });
    const { rows } = await db.query<{ user_id: string }>(
      `select user_id::text as user_id from users where tenant = $1 and username = 'user'`,
      [TENANT],
    );
    const userId = rows[0]?.user_id;
    if (!userId) throw new Error('the seed has no enrolled `user`');
    return userId;
  } finally {
    await db.close();
  }
}

/** `npm run server` in a process of its own on `dataDir`; `env` adds to (or overrides) its environment. */
export async function startServerProcess(
  port: number,
  dataDir: string,
  log: string,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const out = openSync(log, 'w');
  // BENCH_SERVER_NODE_ARGS: extra node flags for the server only (e.g. `--cpu-prof` to see where time goes).
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // The server as npm start runs it: its bundle (scripts/bundle-server.mjs), under plain Node.
  const child = spawn(process.execPath, [...extra, '--enable-source-maps', await bundleServer()], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_NEWCOMERS: '0',
      // What npm start gives the server (scripts/start.mjs), so that the memory measured is the one served.
      ...(process.platform === 'linux' && { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' }),
      ...env,
    },
    stdio: ['ignore', out, out],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}); see ${log}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGTERM');
  throw new Error(`the server did not answer /health within 60 s; see ${log}`);
}

export function stopServerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** User + system CPU milliseconds of a process so far (Linux /proc; 0 elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime, fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

function load(url: string, headers: Record<string, string>, rate: number, seconds: number) {
  return steadyLoad({ url, headers, rate, seconds, connections: 10 }).done;
}

export async function measureApiLatency(options: ApiLatencyOptions = {}): Promise<ApiLatency[]> {
  const rate = options.rate ?? 200;
  const seconds = options.seconds ?? 20;
  const warmup = options.warmupSeconds ?? 3;
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-api-'));
  const port = await freePort();
  let server: ChildProcess | undefined;
  try {
    const userId = await prepareData(dataDir);
    server = await startServerProcess(port, dataDir, options.serverLog ?? join(dataDir, 'server.log'));
    const base = `http://localhost:${port}`;
    const targets = [
      {
        name: 'credentials read',
        path: `/api/public/credentials/${userId}`,
        as: 'user',
      },
      { name: 'accounts list', path: '/api/public/accounts?pageSize=10&pageIndex=0', as: 'accountmanager' },
    ];
    const results: ApiLatency[] = [];
    for (const target of targets) {
      const { access_token } = await signIn(base, TENANT, target.as);
      const headers = {
        authorization: `Bearer ${access_token}`,
        'tenant-id': TENANT,
        accept: 'application/json',
        'accept-encoding': 'br, gzip',
      };
      const check = await fetch(`${base}${target.path}`, { headers });
      if (!check.ok) throw new Error(`${target.path} as ${target.as} answers ${check.status}`);
      await load(`${base}${target.path}`, headers, rate, warmup);
      const cpuBefore = cpuMs(server.pid);
      const run = await load(`${base}${target.path}`, headers, rate, seconds);
      const cpu = cpuMs(server.pid) - cpuBefore;
      const errors = run.errors + run.timeouts + run.non2xx;
      results.push({
        name: target.name,
        path: target.path.replace(userId, '{userId}'),
        as: target.as,
        rate,
        seconds,
        requests: run.requests.total,
        p50: run.latency.p50,
        p90: run.latency.p90,
        p99: run.latency.p99,
        max: run.latency.max,
        errors,
        serverCpuMsPerRequest:
          run.requests.total > 0 ? Math.round((cpu / run.requests.total) * 100) / 100 : 0,
        ok: run.latency.p99 <= API_P99_BUDGET_MS && errors === 0 && run.requests.total > 0,
      });
    }
    return results;
  } finally {
    if (server) await stopServerProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// `npx tsx bench/api-latency.ts`: only this part of the bench (the server needs no build for the API).
if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await measureApiLatency({
    seconds: Number(process.env.BENCH_API_SECONDS ?? 20),
    serverLog: process.env.BENCH_API_LOG,
  });
  for (const r of results) {
    console.log(
      `${r.name.padEnd(18)} p50 ${r.p50} ms  p90 ${r.p90} ms  p99 ${r.p99} ms  max ${r.max} ms  ` +
        `${r.requests} requests, ${r.errors} errors, server CPU ${r.serverCpuMsPerRequest} ms/request  ${r.ok ? 'ok' : 'OVER'}`,
    );
  }
}
