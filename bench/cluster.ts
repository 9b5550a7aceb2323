// `npm run bench`: the API read through the load balancer with 1 and then 2 server processes (npm run cluster,
// HAProxy in front, one PostgreSQL), at a fixed offered rate (200, 400 and 1200 requests/s) so the latencies compare
// like with like; p50 and p99 side by side. Loopback only, each run bounded in time.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { startThrowawayPostgres } from '../scripts/postgres.mjs';
import { steadyLoad } from './steady-load';

export const CLUSTER_RATES = [200, 400, 1200] as const;
const RUN_SECONDS = 10;
const WARM_UP_SECONDS = 3;
const TENANT = 'gambling';
/** The read: the tenant's facilities, an authenticated API call (token and grant checks, one query). */
const READ_PATH = '/api/internal/facilities';

export interface ClusterRun {
  processes: number;
  rate: number;
  requests: number;
  /** Requests per second actually completed. */
  throughput: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
}

/** A cookie-carrying fetch without redirects: just enough of a browser for the code flow. */
function cookieFetch() {
  const jar = new Map<string, string>();
  return async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  };
}

/** An access token of the seeded admin by the real code flow with PKCE, through the balancer. */
async function accessToken(base: string): Promise<string> {
  const go = cookieFetch();
  const realm = `${base}/auth/realms/${TENANT}`;
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: 'portal',
    response_type: 'code',
    scope: 'openid profile roles email',
    redirect_uri: `${base}/callback`,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'bench',
  });
  const login = new URL((await go(`${realm}/auth?${query}`)).headers.get('location') ?? '', base);
  const form = (body: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  let res = await go(`${login}/login`, form({ username: 'admin', password: 'admin' }));
  let location = res.headers.get('location') ?? '';
  for (let hops = 0; !location.startsWith(`${base}/callback?`); hops++) {
    if (hops > 5 || !location) throw new Error(`bench sign-in failed: ${res.status}`);
    res = await go(new URL(location, base).toString());
    location = res.headers.get('location') ?? '';
  }
  const token = await go(
    `${realm}/token`,
    form({
      grant_type: 'authorization_code',
      code: new URL(location).searchParams.get('code') ?? '',
      redirect_uri: `${base}/callback`,
      client_id: 'portal',
      code_verifier: verifier,
    }),
  );
  if (!token.ok) throw new Error(`bench token exchange failed: ${token.status}`);
  return ((await token.json()) as { access_token: string }).access_token;
}

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the cluster exited (${child.exitCode})`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the cluster did not become healthy');
}

function load(url: string, token: string, rate: number, seconds: number) {
  return steadyLoad({
    url: `${url}${READ_PATH}`,
    headers: { authorization: `Bearer ${token}`, 'tenant-id': TENANT },
    connections: 32,
    rate,
    seconds,
  }).done;
}

/** Starts npm run cluster with `processes` processes on the given database, measures, stops it. */
async function measure(processes: number, port: number, databaseUrl: string): Promise<ClusterRun[]> {
  const child = spawn(process.execPath, ['scripts/cluster.mjs'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      CLUSTER_PROCESSES: String(processes),
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
    },
  });
  const url = `http://localhost:${port}`;
  try {
    await waitHealthy(url, child);
    const token = await accessToken(url);
    await load(url, token, CLUSTER_RATES[0], WARM_UP_SECONDS);
    const runs: ClusterRun[] = [];
    for (const rate of CLUSTER_RATES) {
      const result = await load(url, token, rate, RUN_SECONDS);
      runs.push({
        processes,
        rate,
        requests: result.requests.total,
        throughput: Math.round(result.requests.total / RUN_SECONDS),
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
        statuses: result.statuses,
      });
    }
    return runs;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

/**
 * The API read at each rate through HAProxy with 1 and with 2 processes. BENCH_CLUSTER_PORT (8265) is the
 * balancer's port; the processes take the next ones.
 */
export async function clusterBench(): Promise<{ runs: ClusterRun[]; rows: string[][] }> {
  const port = Number(process.env.BENCH_CLUSTER_PORT ?? 8265);
  const postgres = await startThrowawayPostgres();
  try {
    const runs = [
      ...(await measure(1, port, postgres.adminUrl)),
      ...(await measure(2, port, postgres.adminUrl)),
    ];
    const ms = (n: number | undefined) => (n === undefined ? '—' : `${n} ms`);
    const rows = CLUSTER_RATES.map((rate) => {
      const one = runs.find((r) => r.processes === 1 && r.rate === rate);
      const two = runs.find((r) => r.processes === 2 && r.rate === rate);
      return [
        `${rate}/s`,
        ms(one?.p50),
        ms(one?.p99),
        `${one?.throughput ?? '—'}/s`,
        ms(two?.p50),
        ms(two?.p99),
        `${two?.throughput ?? '—'}/s`,
        String((one?.errors ?? 0) + (one?.non2xx ?? 0) + (two?.errors ?? 0) + (two?.non2xx ?? 0)),
      ];
    });
    return { runs, rows };
  } finally {
    postgres.stop();
  }
}

export const CLUSTER_HEADERS = [
  'offered',
  '1 proc p50',
  '1 proc p99',
  '1 proc done',
  '2 procs p50',
  '2 procs p99',
  '2 procs done',
  'failed',
];
