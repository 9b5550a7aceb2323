// Parallel heavy uploads against the server's bounded queue of image work (server/onboarding/heavy-work.ts). Forty
// parallel selfies of a 36-megapixel PNG used to be decoded all at once: the slowest answered after 45 s, the server
// grew to 1.34 GB and /health's p99 was 4.4 s. The server runs in a process of its own, from its bundle as npm start
// runs it (the engine in its worker thread; BIOMETRIC_ENGINE=basic unless BENCH_UPLOADS_ENGINE says otherwise, so
// that the pictures' decoding is what is measured and not the models' loading), on a new on-disk database seeded
// with newcomer-01…20. Two scenarios, each 40 uploads sent at once, every 429 sent again after its Retry-After as
// the portal does:
//  - one person: the newcomer sends all forty;
//  - twenty people: newcomer-01…20, two each.
// Each scenario has a server of its own, so that its memory is the scenario's alone. Measured: /health asked every
// 25 ms (p50, p99, slowest), the server's resident memory (VmRSS, every 50 ms: once everyone has signed in, and the
// largest while the uploads run), the uploads' answers (all must end 200), how many 429s came first, and the
// slowest upload. Budgets: /health p99 ≤ 200 ms and the server's memory ≤ 600 MB. The server is already about
// 480 MB before the first picture (its bundled modules, the embedded PostgreSQL's WebAssembly memory about 200 MB,
// each sign-in's scrypt buffers kept by glibc's per-thread arenas), so the memory line also says where it started.
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { migrate } from '../server/db/migrate';
import { openDb } from '../server/db/open-db';
import { seed } from '../server/db/seed';
import { loadTenants } from '../server/tenants';
import { signIn } from '../server/testing/oidc';
import { freePort, startServerProcess, stopServerProcess } from './api-latency';
import { percentile } from './steady-load';

export const UPLOADS_HEALTH_P99_BUDGET_MS = 200;
export const UPLOADS_RSS_BUDGET_MB = 600;
const TENANT = 'gambling';
const UPLOADS = 40;
const PEOPLE = 20;
/** 6000 × 6000: 36 megapixels, under the 40-megapixel limit, so every picture is decoded whole. */
const SIDE = 6000;

export interface UploadScenario {
  name: string;
  uploads: number;
  /** Answers that ended each upload (all 200 when the server took every picture in the end). */
  finalStatuses: Record<string, number>;
  /** 429 busy answers before the picture went through. */
  busyAnswers: number;
  slowestUploadMs: number;
  healthChecks: number;
  healthP50Ms: number;
  healthP99Ms: number;
  healthMaxMs: number;
  /** The server process's resident memory once the people had signed in, before the uploads. */
  rssIdleMb: number;
  /** The server process's largest resident memory while the scenario ran. */
  rssMaxMb: number;
  ok: boolean;
}

/** A 36-megapixel PNG of about 150 KB: flat grey with a patch of noise, so that it compresses but decodes whole. */
async function heavyPicture(): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width: 160,
      height: 160,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width: SIDE, height: SIDE, channels: 3, background: '#7a7a7a' } })
    .composite([{ input: noise, top: 2000, left: 2000 }])
    .png({ compressionLevel: 9 })
    .toBuffer();
}

function rssMb(pid: number | undefined): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Math.round(Number(line[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** Signs in and opens a selfie portrayal: the token and where to send the selfie. */
async function selfieSlot(base: string, username: string): Promise<{ token: string; path: string }> {
  const { access_token: token } = await signIn(base, TENANT, username);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'tenant-id': TENANT,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${path} as ${username}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, string>>;
  };
  const { onboarding_id } = await call('POST', '/internal/onboardings', { mode: 'auto' });
  await call('PUT', `/internal/onboardings/${onboarding_id}/legal_terms`);
  const { portrayal_id } = await call('POST', '/internal/portrayals', {
    onboarding_id,
    portrayal_type: 'selfie',
    document_type: null,
    document_country: null,
  });
  return { token, path: `/api/internal/portrayals/${portrayal_id}/selfie` };
}

async function scenario(
  name: string,
  base: string,
  server: ChildProcess,
  slots: { token: string; path: string }[],
  picture: Buffer,
): Promise<UploadScenario> {
  const rssIdle = rssMb(server.pid);
  let running = true;
  const health: number[] = [];
  let rssMax = rssIdle;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${base}/health`)
        .then((res) => res.arrayBuffer())
        .catch(() => undefined);
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  const memory = setInterval(() => {
    rssMax = Math.max(rssMax, rssMb(server.pid));
  }, 50);
  let busy = 0;
  const t0 = performance.now();
  const body = new Uint8Array(picture);
  const upload = async (slot: { token: string; path: string }) => {
    for (;;) {
      const res = await fetch(`${base}${slot.path}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${slot.token}`, 'tenant-id': TENANT, 'content-type': 'image/png' },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 429) return { status: res.status, ms: performance.now() - t0 };
      busy += 1;
      const wait = Number(res.headers.get('retry-after')) || 1;
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  };
  const answers = await Promise.all(
    Array.from({ length: UPLOADS }, (_, i) => upload(slots[i % slots.length] as (typeof slots)[number])),
  );
  running = false;
  await probe;
  clearInterval(memory);
  const finalStatuses: Record<string, number> = {};
  for (const a of answers) finalStatuses[a.status] = (finalStatuses[a.status] ?? 0) + 1;
  const result = {
    name,
    uploads: UPLOADS,
    finalStatuses,
    busyAnswers: busy,
    slowestUploadMs: Math.round(Math.max(...answers.map((a) => a.ms))),
    healthChecks: health.length,
    healthP50Ms: Math.round(percentile(health, 50)),
    healthP99Ms: Math.round(percentile(health, 99)),
    healthMaxMs: Math.round(percentile(health, 100)),
    rssIdleMb: rssIdle,
    rssMaxMb: rssMax,
  };
  return {
    ...result,
    ok:
      finalStatuses['200'] === UPLOADS &&
      result.healthP99Ms <= UPLOADS_HEALTH_P99_BUDGET_MS &&
      result.rssMaxMb <= UPLOADS_RSS_BUDGET_MB,
  };
}

/** A new on-disk database with the seed and newcomer-01…20, made here so that the server only opens it. */
async function prepareData(dataDir: string): Promise<void> {
  const previous = process.env.SEED_NEWCOMERS;
  process.env.SEED_NEWCOMERS = String(PEOPLE);
  const db = await openDb({ dataDir });
  try {
    const { wasNew } = await migrate(db);
    await seed(db, { isNewDb: wasNew, nodeEnv: undefined, tenants: loadTenants('public') });
  } finally {
    await db.close();
    if (previous === undefined) delete process.env.SEED_NEWCOMERS;
    else process.env.SEED_NEWCOMERS = previous;
  }
}

/** One scenario against a server process of its own (its memory is then the scenario's alone). */
async function withServer<T>(
  prepared: string,
  log: string,
  run: (base: string, server: ChildProcess) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-uploads-'));
  cpSync(prepared, dataDir, { recursive: true });
  const port = await freePort();
  const server = await startServerProcess(port, dataDir, log, {
    SEED_NEWCOMERS: String(PEOPLE),
    BIOMETRIC_ENGINE: process.env.BENCH_UPLOADS_ENGINE ?? 'basic',
  });
  try {
    return await run(`http://localhost:${port}`, server);
  } finally {
    await stopServerProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchHeavyUploads(options: { serverLog?: string } = {}): Promise<UploadScenario[]> {
  const prepared = mkdtempSync(join(tmpdir(), 'portal-bench-uploads-db-'));
  try {
    await prepareData(prepared);
    const picture = await heavyPicture();
    const label = `${SIDE}×${SIDE} PNG, ${Math.round(picture.length / 1024)} KB`;
    const log = options.serverLog ?? join(prepared, 'server.log');
    const alone = await withServer(prepared, log, async (base, server) =>
      scenario(
        `${UPLOADS} uploads of one person (${label})`,
        base,
        server,
        [await selfieSlot(base, 'newcomer')],
        picture,
      ),
    );
    const many = await withServer(prepared, log, async (base, server) => {
      const slots = await Promise.all(
        Array.from({ length: PEOPLE }, (_, i) =>
          selfieSlot(base, `newcomer-${String(i + 1).padStart(2, '0')}`),
        ),
      );
      return scenario(
        `${UPLOADS} uploads of ${PEOPLE} people, two each (${label})`,
        base,
        server,
        slots,
        picture,
      );
    });
    return [alone, many];
  } finally {
    rmSync(prepared, { recursive: true, force: true });
  }
}

// `npx tsx bench/heavy-uploads.ts`: only this part of the bench.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const s of await benchHeavyUploads({ serverLog: process.env.BENCH_UPLOADS_LOG })) {
    console.log(
      `${s.name}: ${JSON.stringify(s.finalStatuses)} after ${s.busyAnswers} × 429, slowest ${s.slowestUploadMs} ms; /health p50 ${s.healthP50Ms} ms, p99 ${s.healthP99Ms} ms (budget ${UPLOADS_HEALTH_P99_BUDGET_MS}), max ${s.healthMaxMs} ms of ${s.healthChecks}; server RSS ${s.rssMaxMb} MB (budget ${UPLOADS_RSS_BUDGET_MB}; ${s.rssIdleMb} MB idle before) ${s.ok ? 'ok' : 'OVER'}`,
    );
  }
}
