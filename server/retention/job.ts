// The retention purge (tenant settings retention.*, server/retention/rules.ts), run inside the server on a
// schedule (RETENTION_EVERY_MINUTES): for each tenant, what is due goes in batches, each batch its own
// transaction so that requests are never held behind one long delete, and each run is recorded per tenant and
// kind in retention_runs. One process of a cluster purges at a time (store.ts withPurgeLock); the others skip.
// Deleted rows leave the database files only when their tables are rewritten (VACUUM FULL); on the embedded
// database that stops the whole server for as long as it copies the tables, so it waits for a quiet moment, at the
// latest REWRITE_WITHIN_MS after the run (rewriteWhenDue).
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { Db } from '../db/db';
import type { Logger } from '../logger';
import { purgeStaffActions } from '../staff-actions/store';
import { cutoffsOf, loadRetentionDays, type RetentionKind } from './rules';
import {
  pendingRewrites,
  purgeAudit,
  purgeEvidence,
  purgeUnfinishedOnboardings,
  type RunRecord,
  recordRun,
  rewriteTables,
  withPurgeLock,
} from './store';

export const RETENTION_BATCH = 500;

/**
 * The longest the bytes of a purged row stay in the database files: a day after the run that deleted it, the
 * embedded database rewrites its tables even if the server has not been quiet once (docs/operations.md#retention).
 */
export const REWRITE_WITHIN_MS = 24 * 60 * 60 * 1000;
/** How long the server must have served nothing (health checks and metrics aside) to count as quiet. */
export const QUIET_MS = 60_000;
/** How often a scheduled job asks whether the tables may be rewritten now. */
export const REWRITE_CHECK_MS = 15_000;

export interface RetentionOptions {
  db: Db;
  tenants: readonly string[];
  publicDir: string;
  logger: Logger;
  clock: Clock;
  /** Rows per transaction (RETENTION_BATCH). */
  batchSize?: number;
  /** Asked between batches: true ends the run early (the server is stopping). */
  stopping?: () => boolean;
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
  const limit = options.batchSize ?? RETENTION_BATCH;
  const stopping = options.stopping ?? (() => false);
  return withPurgeLock(db, async () => {
    const runId = randomUUID();
    const records: RunRecord[] = [];
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
        for (;;) {
          if (stopping()) break;
          const batchStarted = performance.now();
          const batch = await purgeBatch(db, kind, { tenant, cutoff: cutoffs[kind], at: startedAt, limit });
          deleted += batch;
          if (batch < limit) break;
          await restAfter(performance.now() - batchStarted);
        }
        const record = { runId, tenant, kind, deleted, startedAt, endedAt: clock.now() };
        await recordRun(db, record);
        records.push(record);
      }
    }
    logger.log('info', 'retention run', {
      runId,
      deleted: Object.fromEntries(KINDS.map((k) => [k, sum(records, k)])),
    });
    await rewriteWhenDue(options);
    return records;
  });
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
 * Between two batches the purge rests as long as the batch took (at most a second): the requests that queued behind
 * a batch go first, so the purge takes at most about half of the database's time. The embedded database runs one
 * statement at a time in the server's own thread; without the rest, a purge of 5,000 images kept every request
 * waiting for the whole run (bench/retention.ts).
 */
const restAfter = (batchMs: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.min(Math.ceil(batchMs), 1000)));

/** One batch of one kind: how many rows went. */
function purgeBatch(
  db: RetentionOptions['db'],
  kind: RetentionKind,
  { tenant, cutoff, at, limit }: { tenant: string; cutoff: Date; at: Date; limit: number },
): Promise<number> {
  switch (kind) {
    case 'evidence':
      return purgeEvidence(db, tenant, cutoff, at, limit);
    case 'unfinished_onboarding':
      return purgeUnfinishedOnboardings(db, tenant, cutoff, limit);
    case 'audit':
      return purgeAudit(db, tenant, cutoff, limit);
    case 'staff_actions':
      return purgeStaffActions(db, tenant, cutoff, limit);
  }
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
