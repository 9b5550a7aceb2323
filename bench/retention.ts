// The retention purge on 100,000 due evidence rows while the API serves a steady load: a temporary data folder
// seeded as `npm start` does, then grown with liveness frames (portrayal_images) taken 120 days ago (past the default
// retention.evidenceDays of 90) and as many taken today (not due); the seeded users' evidence images are made
// 120 days old too. The server runs in its own process as `npm run server` does, with RETENTION_EVERY_MINUTES=1, so
// its own schedule starts the purge a minute after start, while the bench reads the enrolled person's credential at
// a fixed rate from this process. Measured: the purge's wall time (its first run record's start to the log line
// that ends the run, which includes rewriting the tables so the images leave the files), the rows each kind
// deleted, what is left (nothing due, every fresh row), and the read's p99 over the requests sent while the purge
// ran, against the API budget (bench/api-latency.ts). The run deletes; the tables are rewritten (so the images leave
// the files) only once the server is quiet (server/retention/job.ts): the load stops after the run, and the bench
// waits for the rewrite's log line and reports how long it took and how long after the last request it started.
// Frames are BENCH_RETENTION_KB (4) of random bytes each, so
// the bench's database stays under a gigabyte; real frames are larger, which makes the table rewrite longer.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Queryable } from '../server/db/db';
import { openDb } from '../server/db/open-db';
import { signIn } from '../server/testing/oidc';
import {
  API_P99_BUDGET_MS,
  freePort,
  prepareData,
  startServerProcess,
  stopServerProcess,
} from './api-latency';
import { percentile, steadyLoad } from './steady-load';

export const RETENTION_ROWS = 100_000;
const TENANT = 'gambling';
const FRAMES_PER_PORTRAYAL = 10;
const RATE = 200;
/**
 * The first seconds of load on a server just started are not counted in the baseline: its code is not compiled yet
 * and every statement meets the database for the first time (the read's p99 over the first 10 s was 206–212 ms,
 * against 52–77 ms over each next 5 s, 2026-11-27). A phone meets a server that has been running; the purge starts a
 * minute after start, long after. api-latency warms its server up the same way before it measures.
 */
const WARMUP_MS = 10_000;

export interface RetentionBench {
  dueRows: number;
  freshRows: number;
  deleted: Record<string, number>;
  dueLeft: number;
  freshLeft: number;
  purgeSeconds: number;
  /** The run's batches as its log line counts them: how many, their rows, the median and the slowest. */
  batches: unknown;
  requests: number;
  errors: number;
  /** The read's p99 over the first WARMUP_MS of load, not counted in baselineP99. */
  warmupP99: number;
  baselineP99: number;
  purgeP99: number;
  /** The same p99s of the server's own handling time (its request log lines), without the queues on either side. */
  baselineServerP99: number;
  purgeServerP99: number;
  purgeMax: number;
  purgeRequests: number;
  longestSilenceMs: number;
  /** The rewrite after the load stopped: why (quiet), how long, and how long after the last answer it began. */
  rewrite: { reason: string; seconds: number; afterLastAnswerSeconds: number } | undefined;
  /** Runs whose deletions still wait for their rewrite when the server stops (0 once rewritten). */
  waitingRewrite: number;
  ok: boolean;
}

/**
 * The evidence rows past the default 90 days (the frames made 120 days old and every user evidence, aged alike) and
 * the frames made today.
 */
async function dueAndFresh(db: Queryable): Promise<{ due: number; fresh: number }> {
  const n = async (sql: string) => (await db.query<{ n: number }>(sql, [TENANT])).rows[0]?.n ?? 0;
  const dueFrames = await n(
    `select count(*)::int as n from portrayal_images where tenant = $1 and created_at < now() - interval '90 days'`,
  );
  const dueUsers = await n(`select count(*)::int as n from user_evidences where tenant = $1`);
  const fresh = await n(
    `select count(*)::int as n from portrayal_images where tenant = $1 and created_at > now() - interval '1 day'`,
  );
  return { due: dueFrames + dueUsers, fresh };
}

/** Adds `rows` due frames and as many fresh ones; ages the seeded users' evidence. Returns what is due and what is fresh. */
async function grow(dataDir: string, rows: number, kb: number): Promise<{ due: number; fresh: number }> {
  const db = await openDb({ dataDir });
  try {
    const portrayals = Math.ceil(rows / FRAMES_PER_PORTRAYAL);
    const blob = randomBytes(kb * 1024);
    for (const [owner, age] of [
      ['bench-due', '120 days'],
      ['bench-fresh', '0 days'],
    ] as const) {
      await db.query(
        `insert into portrayals (tenant, owner_id, portrayal_type, life_proofing, created_at)
         select $1, $2, 'selfie', true, now() - $3::interval from generate_series(1, $4::int)`,
        [TENANT, owner, age, portrayals],
      );
      // Each frame its own bytes (the blob and its number), so that no two rows compress together.
      await db.query(
        `insert into portrayal_images (tenant, portrayal_id, kind, seq, content_type, bytes, created_at)
         select p.tenant, p.portrayal_id, 'lifeproof', s, 'image/jpeg', $3::bytea || int4send(s), p.created_at
           from portrayals p, generate_series(0, $4::int - 1) as s
          where p.tenant = $1 and p.owner_id = $2`,
        [TENANT, owner, blob, FRAMES_PER_PORTRAYAL],
      );
    }
    await db.query(`update user_evidences set created_at = now() - interval '120 days' where tenant = $1`, [
      TENANT,
    ]);
    await db.query('analyze portrayal_images');
    return await dueAndFresh(db);
  } finally {
    await db.close();
  }
}

/** The rows each kind deleted over the runs (the first run deletes, the later ones find nothing more). */
function totalPerKind(rows: { kind: string; deleted: number }[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const r of rows) total[r.kind] = (total[r.kind] ?? 0) + r.deleted;
  return total;
}

/** What the run deleted (retention_runs), when it started, and what is left. */
async function outcome(dataDir: string) {
  const db = await openDb({ dataDir });
  try {
    const { rows } = await db.query<{ kind: string; deleted: number; started_at: Date }>(
      `select kind, deleted, started_at from retention_runs where tenant = $1 order by started_at`,
      [TENANT],
    );
    const left = await dueAndFresh(db);
    const waiting = await db.query<{ n: number }>(
      'select count(*)::int as n from retention_runs where deleted > 0 and rewritten_at is null',
    );
    return {
      waitingRewrite: waiting.rows[0]?.n ?? 0,
      deleted: totalPerKind(rows),
      startedAt: rows[0]?.started_at.getTime(),
      dueLeft: left.due,
      freshLeft: left.fresh,
    };
  } finally {
    await db.close();
  }
}

/**
 * The server's log as it grows, a line at a time: each call reads only what was written since the last. Reading
 * the whole log every second (megabytes of request lines by the end) held this process's event loop, where
 * the load times the answers, for milliseconds each time: that was counted in the read's latency.
 */
function logTail(log: string): () => string[] {
  let offset = 0;
  let partial = '';
  return () => {
    const fd = openSync(log, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size <= offset) return [];
      const buffer = Buffer.alloc(size - offset);
      const read = readSync(fd, buffer, 0, buffer.length, offset);
      offset += read;
      const lines = (partial + buffer.subarray(0, read).toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      return lines;
    } finally {
      closeSync(fd);
    }
  };
}

/** The server's first "retention run" log line (the end of a run's deletions) among `lines`: when, and its batches. */
function runLine(lines: string[]): { at: number; batches: unknown } | undefined {
  for (const line of lines) {
    if (!line.includes('"retention run"')) continue;
    try {
      const entry = JSON.parse(line) as { time: string; batches?: unknown };
      return { at: Date.parse(entry.time), batches: entry.batches };
    } catch {
      // a line cut short by the process's end
    }
  }
  return undefined;
}

/**
 * The server's own handling time of each credential read (its `request` log line: from the app's first
 * middleware to the answer handed to Node), with when it ended: what the server spent, without the wait for the
 * event loop before it and the load generator after it.
 */
function serverTimes(log: string): { at: number; ms: number }[] {
  const times: { at: number; ms: number }[] = [];
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    if (!line.includes('"msg":"request"') || !line.includes('/api/public/credentials/')) continue;
    try {
      const entry = JSON.parse(line) as { time: string; ms: number };
      times.push({ at: Date.parse(entry.time), ms: entry.ms });
    } catch {
      // a line cut short by the process's end
    }
  }
  return times;
}

/** The rewrite's log line: when it ended, why, and how long it took. */
function rewriteOf(log: string): { at: number; reason: string; ms: number } | undefined {
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    if (!line.includes('"retention rewrite"')) continue;
    try {
      const entry = JSON.parse(line) as { time: string; reason: string; ms: number };
      return { at: Date.parse(entry.time), reason: entry.reason, ms: entry.ms };
    } catch {
      // a line cut short by the process's end
    }
  }
  return undefined;
}

export async function benchRetention(rows = RETENTION_ROWS): Promise<RetentionBench> {
  const kb = Number(process.env.BENCH_RETENTION_KB ?? 4);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-retention-'));
  const log = join(dataDir, 'server.log');
  const port = await freePort();
  let server: ChildProcess | undefined;
  try {
    const userId = await prepareData(dataDir);
    const { due, fresh } = await grow(dataDir, rows, kb);
    server = await startServerProcess(port, dataDir, log, {
      RETENTION_EVERY_MINUTES: '1',
      LOG_LEVEL: 'info',
    });
    const base = `http://localhost:${port}`;
    const { access_token } = await signIn(base, TENANT, 'user');
    const headers = {
      authorization: `Bearer ${access_token}`,
      'tenant-id': TENANT,
      accept: 'application/json',
    };
    // Every response with the time it ended (so when it was sent), from before the purge starts until its run has ended.
    const sent: { at: number; ms: number }[] = [];
    const warm = Date.now() + WARMUP_MS;
    const load = steadyLoad({
      url: `${base}/api/public/credentials/${userId}`,
      headers,
      rate: RATE,
      seconds: 600,
      connections: 10,
      onResponse: (at, ms) => sent.push({ at, ms }),
    });
    let ended: number | undefined;
    let batches: unknown;
    const newLines = logTail(log);
    const deadline = Date.now() + 540_000;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const line = runLine(newLines());
      ended = line?.at;
      batches = line?.batches;
      if (ended) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const run = await load.stop();
    const lastAnswer = Math.max(0, ...sent.map((r) => r.at));
    // Quiet now: the rewrite starts a minute (QUIET_MS) after the last answer, at the next 15 s check.
    let rewritten: ReturnType<typeof rewriteOf>;
    const rewriteDeadline = Date.now() + 600_000;
    while (!rewritten && Date.now() < rewriteDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      rewritten = rewriteOf(log);
    }
    await stopServerProcess(server);
    server = undefined;
    const result = await outcome(dataDir);
    const started = result.startedAt ?? Number.POSITIVE_INFINITY;
    // A request belongs to the purge when it was waiting for its answer while the purge ran (a server that stalls
    // shows as requests that wait long, and as many of them: the load keeps its rate).
    const sentAt = (r: { at: number; ms: number }) => r.at - r.ms;
    const end = ended ?? 0;
    const during = sent.filter((r) => r.at >= started && sentAt(r) <= end).map((r) => r.ms);
    const before = sent.filter((r) => r.at >= warm && r.at < started).map((r) => r.ms);
    // The longest time the server answered nothing while the purge ran.
    const answers = sent.map((r) => r.at).filter((at) => at >= started && at <= end + 2000);
    const longestSilenceMs = Math.round(
      Math.max(0, ...[started, ...answers].map((at, i, all) => (all[i + 1] ?? end) - at)),
    );
    const handled = serverTimes(log);
    const errors = run.errors + run.timeouts + run.non2xx;
    const purgeP99 = percentile(during, 99);
    return {
      dueRows: due,
      freshRows: fresh,
      deleted: result.deleted,
      dueLeft: result.dueLeft,
      freshLeft: result.freshLeft,
      purgeSeconds: ended && result.startedAt ? (ended - result.startedAt) / 1000 : Number.NaN,
      batches,
      requests: run.requests.total,
      errors,
      warmupP99: percentile(
        sent.filter((r) => r.at < warm).map((r) => r.ms),
        99,
      ),
      baselineP99: percentile(before, 99),
      purgeP99,
      baselineServerP99: percentile(
        handled.filter((r) => r.at >= warm && r.at < started).map((r) => r.ms),
        99,
      ),
      purgeServerP99: percentile(
        handled.filter((r) => r.at >= started && sentAt(r) <= end).map((r) => r.ms),
        99,
      ),
      purgeMax: Math.max(0, ...during),
      purgeRequests: during.length,
      longestSilenceMs,
      rewrite: rewritten && {
        reason: rewritten.reason,
        seconds: rewritten.ms / 1000,
        afterLastAnswerSeconds: Math.round((rewritten.at - rewritten.ms - lastAnswer) / 100) / 10,
      },
      waitingRewrite: result.waitingRewrite,
      ok:
        ended !== undefined &&
        result.dueLeft === 0 &&
        result.freshLeft === fresh &&
        errors === 0 &&
        during.length > 0 &&
        rewritten?.reason === 'quiet' &&
        result.waitingRewrite === 0 &&
        purgeP99 <= API_P99_BUDGET_MS,
    };
  } finally {
    if (server) await stopServerProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// `npx tsx bench/retention.ts [rows]`: only this part of the bench.
if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchRetention(Number(process.argv[2] ?? RETENTION_ROWS));
  console.log(JSON.stringify(r, null, 2));
  process.exitCode = r.ok ? 0 : 1;
}
