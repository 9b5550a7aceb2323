// The retention purge (tenant settings retention.*, server/retention/rules.ts), run inside the server on a
// schedule (RETENTION_EVERY_MINUTES): for each tenant, what is due goes in batches of one statement each, sized to
// take a few milliseconds (batchRowsAfter) so that requests are never held behind one long delete, and each run is
// recorded per tenant and kind in retention_runs. One process of a cluster purges at a time (store.ts withPurgeLock); the others skip.
// Deleted rows leave the database files only when their tables are rewritten (VACUUM FULL); on the embedded
// database that stops the whole server for as long as it copies the tables, so it waits for a quiet moment, at the
// latest REWRITE_WITHIN_MS after the run (rewriteWhenDue).
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { Db } from '../db/db';
import type { Logger } from '../logger';
import { cutoffsOf, loadRetentionDays, type RetentionKind } from './rules';
import {
  pendingRewrites,
  purgeAudit,
  purgePortrayalImages,
  purgeStaffActions,
  purgeUnfinishedOnboardings,
  purgeUserEvidence,
  type RunRecord,
  recordRun,
  rewriteTables,
  withPurgeLock,
} from './store';

/**
 * How long one batch may hold the database. The embedded database runs one statement at a time in the server's
 * own thread, so a request that arrives during a batch waits for it. A batch of 500 liveness frames held it about
 * 25 ms on a quiet machine and 60–100 ms at load 8–12 (each frame's row is locked, then deleted with the chunks of
 * its image bytes kept out of line: 5 WAL records a frame), and put the read's p99 at 138 ms against 55 ms without
 * the purge (docs/operations.md#retention). 3 ms is about 60 frames on a quiet machine: batches of 5 ms put the
 * read's p99 at 27–41 ms during the purge under an even load of 200 requests/s, batches of 3 ms at 11–15 ms.
 */
export const RETENTION_BATCH_MS = 3;
/** The rows of a kind's first batch: its cost per row is not known yet. */
export const RETENTION_FIRST_BATCH = 20;
/** The most rows of one batch, however cheap they are. */
export const RETENTION_BATCH = 2000;

/**
 * The longest the bytes of a purged row stay in the database files: a day after the run that deleted it, the
 * embedded database rewrites its tables even if the server has not been quiet once (docs/operations.md#retention).
 * The default of RETENTION_REWRITE_WITHIN_HOURS (server/config.ts).
 */
export const REWRITE_WITHIN_MS = 24 * 60 * 60 * 1000;
/**
 * How long the server must have served nothing (health checks and metrics aside) to count as quiet. The default of
 * RETENTION_QUIET_SECONDS.
 */
export const QUIET_MS = 60_000;
/** How often a scheduled job asks whether the tables may be rewritten now. The default of RETENTION_CHECK_SECONDS. */
export const REWRITE_CHECK_MS = 15_000;

export interface RetentionOptions {
  db: Db;
  tenants: readonly string[];
  publicDir: string;
  logger: Logger;
  clock: Clock;
  /** The most rows of one batch (RETENTION_BATCH); tests make it small. */
  batchSize?: number;
  /** How long one batch should take (RETENTION_BATCH_MS). */
  batchMs?: number;
  /** Asked between batches: true ends the run early (the server is stopping). */
  stopping?: () => boolean;
  /**
   * True while the server is answering a request (health checks and metrics aside): after its rest, a batch waits
   * for the requests in progress to end, at most as long again as the rest (`servingWaitMs` in tests), so that none
   * is held between two of its queries. Without it, a batch follows its rest at once.
   */
  serving?: () => boolean;
  /** The longest a batch waits for `serving` to say no; the rest's length unless a test says otherwise. */
  servingWaitMs?: number;
  /**
   * True when the server has served nothing for QUIET_MS: the embedded database may rewrite its tables now.
   * Without it, the server is never quiet, and the rewrite waits for `rewriteWithinMs`.
   */
  quiet?: () => boolean;
  /** REWRITE_WITHIN_MS unless a test says otherwise. */
  rewriteWithinMs?: number;
}

const KINDS: readonly RetentionKind[] = ['evidence', 'unfinished_onboarding', 'audit', 'staff_actions'];

/** One purge of every tenant; 'busy' when another process or job holds the purge lock. */
export async function runRetention(options: RetentionOptions): Promise<RunRecord[] | 'busy'> {
  const { db, clock, logger } = options;
  return withPurgeLock(db, async () => {
    const runId = randomUUID();
    const records: RunRecord[] = [];
    const batches = batchStats();
    for (const tenant of options.tenants) {
      const days = await loadRetentionDays(options.publicDir, tenant);
      if (!days) {
        logger.log('warn', 'retention skipped: the tenant settings retention is not valid', { tenant });
        continue;
      }
      const cutoffs = cutoffsOf(clock.now(), days);
      for (const kind of KINDS) {
        const startedAt = clock.now();
        let deleted = 0;
        for (const step of stepsOf(db, kind, { tenant, cutoff: cutoffs[kind], at: startedAt })) {
          deleted += await purgeInBatches(step, options, batches);
        }
        const record = { runId, tenant, kind, deleted, startedAt, endedAt: clock.now() };
        await recordRun(db, record);
        records.push(record);
      }
    }
    logger.log('info', 'retention run', {
      runId,
      deleted: Object.fromEntries(KINDS.map((k) => [k, sum(records, k)])),
      batches: batches.summary(),
    });
    await rewriteWhenDue(options);
    return records;
  });
}

/** One statement's worth of due rows of one kind: deletes at most `limit` rows and says how many went. */
type Step = (limit: number) => Promise<number>;

/**
 * Deletes with `step` until nothing is due (or the server is stopping), each batch sized after the last
 * (batchRowsAfter) and followed by a rest twice as long as it took. Returns the rows deleted.
 */
async function purgeInBatches(step: Step, options: RetentionOptions, batches: BatchStats): Promise<number> {
  const stopping = options.stopping ?? (() => false);
  const max = options.batchSize ?? RETENTION_BATCH;
  const targetMs = options.batchMs ?? RETENTION_BATCH_MS;
  let rows = Math.min(RETENTION_FIRST_BATCH, max);
  let deleted = 0;
  for (;;) {
    if (stopping()) break;
    const started = performance.now();
    const batch = await step(rows);
    const ms = performance.now() - started;
    batches.add(batch, ms);
    deleted += batch;
    if (batch < rows) break;
    rows = batchRowsAfter({ rows, ms }, { targetMs, max });
    const restMs = restAfter(ms, targetMs);
    await new Promise((resolve) => setTimeout(resolve, restMs));
    if (options.serving) await until(not(options.serving), options.servingWaitMs ?? restMs);
  }
  return deleted;
}

/**
 * The rows of the next batch after one of `rows` took `ms`: as many as fit in `targetMs` at the cost per row just
 * measured, at most twice as many as before (one fast batch, e.g. the rows already in memory, is no promise) and
 * at most `max`, at least one. A batch that took longer than the target makes the next one smaller at once.
 */
export function batchRowsAfter(
  { rows, ms }: { rows: number; ms: number },
  { targetMs, max }: { targetMs: number; max: number },
): number {
  const fit = ms > 0 ? Math.floor((rows * targetMs) / ms) : Number.POSITIVE_INFINITY;
  return Math.max(1, Math.min(fit, rows * 2, max));
}

export type RewriteReason = 'postgres' | 'quiet' | 'limit';

/**
 * When the tables whose rows a run deleted are rewritten. On PostgreSQL at once, at the end of the run: VACUUM FULL
 * locks only those tables (uploads and reads of images wait, nothing else does) and one process of a cluster cannot
 * tell whether the others are quiet. On the embedded database it runs in the server's own thread and stops every
 * request while it copies the tables (16 s for 400 MB of images, docs/operations.md#retention): so only once the
 * server is quiet, or when the oldest waiting run ended `rewriteWithinMs` ago, quiet or not.
 */
export function rewriteReason(
  kind: Db['kind'],
  { oldest, now, quiet, withinMs }: { oldest: Date; now: Date; quiet: boolean; withinMs: number },
): RewriteReason | undefined {
  if (kind === 'postgres') return 'postgres';
  if (quiet) return 'quiet';
  return now.getTime() - oldest.getTime() >= withinMs ? 'limit' : undefined;
}

/** Rewrites the tables of the runs waiting for it when rewriteReason says so; the kinds rewritten. */
async function rewriteWhenDue(options: RetentionOptions): Promise<RetentionKind[]> {
  const { db, clock, logger } = options;
  const pending = await pendingRewrites(db);
  if (pending.length === 0) return [];
  const oldest = new Date(Math.min(...pending.map((p) => p.since.getTime())));
  const reason = rewriteReason(db.kind, {
    oldest,
    now: clock.now(),
    quiet: options.quiet?.() ?? false,
    withinMs: options.rewriteWithinMs ?? REWRITE_WITHIN_MS,
  });
  if (!reason) return [];
  const started = performance.now();
  const kinds = pending.map((p) => p.kind);
  const done = await rewriteTables(db, kinds, { at: clock.now(), logger });
  logger.log('info', 'retention rewrite', {
    reason,
    kinds: done,
    waited: kinds.filter((kind) => !done.includes(kind)),
    since: oldest.toISOString(),
    ms: Math.round(performance.now() - started),
  });
  return done;
}

/**
 * Between runs: rewrites the tables if rewriteWhenDue says it is time ('busy' when a purge or another rewrite
 * holds the purge lock; it is asked again later).
 */
export async function rewriteIfDue(options: RetentionOptions): Promise<RetentionKind[] | 'busy'> {
  // Asked every 15 s by every process: the lock (a transaction on PostgreSQL) only when a run waits.
  if ((await pendingRewrites(options.db)).length === 0) return [];
  return withPurgeLock(options.db, () => rewriteWhenDue(options));
}

/**
 * Between two batches the purge rests twice as long as the batch took, at least `minMs` and at most a second: the
 * requests that queued behind a batch go first, and those that follow find the database free. The embedded
 * database runs one statement at a time in the server's own thread; without the rest, a purge of 5,000 images kept
 * every request waiting for the whole run (bench/retention.ts); with a rest as long as the batch, the read's p99
 * under an even load was 15 ms, with twice as long 11–12 ms. Then it waits, as long again at most, for the requests
 * in progress: a wait of up to a second let a purge under a steady load (a request always in progress at load 12)
 * run for minutes, a batch a second. So the purge takes at most a third of the database's time, a fifth while
 * requests keep it waiting.
 */
const REST_PER_BATCH = 2;
const restAfter = (batchMs: number, minMs: number) =>
  Math.min(Math.max(Math.ceil(batchMs * REST_PER_BATCH), minMs), 1000);

const not = (f: () => boolean) => () => !f();

/** Resolves once `done()` (asked every millisecond) says so, or after `maxMs`. */
async function until(done: () => boolean, maxMs: number): Promise<void> {
  const end = performance.now() + maxMs;
  while (!done() && performance.now() < end) await new Promise((resolve) => setTimeout(resolve, 1));
}

/**
 * The statements that purge one kind, in order, each repeated until nothing of it is due: the evidence of users
 * first, then the portrayals' images; the other kinds have one.
 */
function stepsOf(
  db: RetentionOptions['db'],
  kind: RetentionKind,
  { tenant, cutoff, at }: { tenant: string; cutoff: Date; at: Date },
): Step[] {
  switch (kind) {
    case 'evidence':
      return [
        (limit) => purgeUserEvidence(db, tenant, cutoff, at, limit),
        (limit) => purgePortrayalImages(db, tenant, cutoff, limit),
      ];
    case 'unfinished_onboarding':
      return [(limit) => purgeUnfinishedOnboardings(db, tenant, cutoff, limit)];
    case 'audit':
      return [(limit) => purgeAudit(db, tenant, cutoff, limit)];
    case 'staff_actions':
      return [(limit) => purgeStaffActions(db, tenant, cutoff, limit)];
  }
}

interface BatchStats {
  add(rows: number, ms: number): void;
  /** For the run's log line: how many batches, their rows, and how long the typical and the slowest took. */
  summary(): { count: number; rows: number; medianMs: number; slowestMs: number; slowestRows: number };
}

function batchStats(): BatchStats {
  const all: { rows: number; ms: number }[] = [];
  return {
    add: (rows, ms) => {
      all.push({ rows, ms });
    },
    summary() {
      const byMs = [...all].sort((a, b) => a.ms - b.ms);
      const slowest = byMs.at(-1);
      const round = (ms = 0) => Math.round(ms * 10) / 10;
      return {
        count: all.length,
        rows: all.reduce((n, b) => n + b.rows, 0),
        medianMs: round(byMs[Math.floor(byMs.length / 2)]?.ms),
        slowestMs: round(slowest?.ms),
        slowestRows: slowest?.rows ?? 0,
      };
    },
  };
}

const sum = (records: RunRecord[], kind: RetentionKind) =>
  records.filter((r) => r.kind === kind).reduce((n, r) => n + r.deleted, 0);

export interface RetentionJob {
  /** Waits for a run in progress to end (it ends at its next batch), and schedules no more. */
  stop(): Promise<void>;
}

/**
 * Runs the purge every `everyMs`, the first one an interval after start, and between runs asks every
 * `checkEveryMs` (REWRITE_CHECK_MS) whether the tables a run deleted from may be rewritten now (a quiet server, or
 * the limit reached). The timers are unref'd: they never keep a process (a test's) alive. A run that fails is logged
 * and the next one tries again.
 */
export function scheduleRetention(
  options: RetentionOptions & { everyMs: number; checkEveryMs?: number },
): RetentionJob {
  let stopped = false;
  let current: Promise<unknown> | undefined;
  const start = (work: () => Promise<unknown>, failure: string) => {
    if (stopped || current) return;
    current = work()
      .catch((error) => options.logger.log('error', failure, { error: String(error) }))
      .finally(() => {
        current = undefined;
      });
  };
  const timers = [
    setInterval(
      () => start(() => runRetention({ ...options, stopping: () => stopped }), 'retention run failed'),
      options.everyMs,
    ),
    setInterval(
      () => start(() => rewriteIfDue(options), 'retention rewrite failed'),
      options.checkEveryMs ?? REWRITE_CHECK_MS,
    ),
  ];
  for (const timer of timers) timer.unref();
  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await current;
    },
  };
}
