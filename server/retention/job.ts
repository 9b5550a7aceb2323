// The retention purge (tenant settings retention.*, server/retention/rules.ts), run inside the server on a
// schedule (RETENTION_EVERY_MINUTES): for each tenant, what is due goes in batches, each batch its own
// transaction so that requests are never held behind one long delete, and each run is recorded per tenant and
// kind in retention_runs. One process of a cluster purges at a time (store.ts withPurgeLock); the others skip.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { Db } from '../db/db';
import type { Logger } from '../logger';
import { purgeStaffActions } from '../staff-actions/store';
import { cutoffsOf, loadRetentionDays, type RetentionKind } from './rules';
import {
  purgeAudit,
  purgeEvidence,
  purgeUnfinishedOnboardings,
  type RunRecord,
  recordRun,
  rewriteTables,
  withPurgeLock,
} from './store';

export const RETENTION_BATCH = 500;

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
    const touched = KINDS.filter((kind) => records.some((r) => r.kind === kind && r.deleted > 0));
    if (touched.length > 0) await rewriteTables(db, touched, logger);
    logger.log('info', 'retention run', {
      runId,
      deleted: Object.fromEntries(KINDS.map((k) => [k, sum(records, k)])),
    });
    return records;
  });
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
 * Runs the purge every `everyMs`, the first one an interval after start. The timer is unref'd: it never keeps a
 * process (a test's) alive. A run that fails is logged and the next one tries again.
 */
export function scheduleRetention(options: RetentionOptions & { everyMs: number }): RetentionJob {
  let stopped = false;
  let current: Promise<unknown> | undefined;
  const tick = () => {
    if (stopped || current) return;
    current = runRetention({ ...options, stopping: () => stopped })
      .catch((error) => options.logger.log('error', 'retention run failed', { error: String(error) }))
      .finally(() => {
        current = undefined;
      });
  };
  const timer = setInterval(tick, options.everyMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
