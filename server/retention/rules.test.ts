// The retention day counts as a tenant writes them, and the schedule that runs the purge: it runs once per
// interval and never after stop, on a timer that does not keep the process alive; when the tables it deleted from
// are rewritten.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db, Queryable } from '../db/db';
import { silentLogger } from '../logger';
import { batchRowsAfter, REWRITE_WITHIN_MS, rewriteReason, scheduleRetention } from './job';
import { cutoffOf, RETENTION_DEFAULTS, retentionDaysOf } from './rules';

describe('retention settings', () => {
  it('takes the defaults for what a tenant does not say', () => {
    expect(retentionDaysOf({})).toEqual(RETENTION_DEFAULTS);
    expect(retentionDaysOf({ retention: { auditDays: 730 } })).toEqual({
      ...RETENTION_DEFAULTS,
      auditDays: 730,
    });
  });

  it('purges nothing of a tenant whose retention is malformed, rather than guess', () => {
    for (const evidenceDays of [0, -1, 1.5, '30', 3651, null]) {
      expect(retentionDaysOf({ retention: { evidenceDays } })).toBeUndefined();
    }
    expect(retentionDaysOf({ retention: 30 })).toBeUndefined();
  });

  it('counts days back from now: a row exactly N days old is not due', () => {
    const now = new Date('2026-03-29T10:00:00.000Z');
    expect(cutoffOf(now, 30).toISOString()).toBe('2026-02-27T10:00:00.000Z');
  });
});

describe('when the purged tables are rewritten', () => {
  const oldest = new Date('2026-06-15T12:00:00.000Z');
  const at = (ms: number) => new Date(oldest.getTime() + ms);
  it('on PostgreSQL at once; on the embedded database when quiet, or a day after the run at the latest', () => {
    const busy = { oldest, quiet: false, withinMs: REWRITE_WITHIN_MS };
    expect(rewriteReason('postgres', { ...busy, now: at(0) })).toBe('postgres');
    expect(rewriteReason('pglite', { ...busy, now: at(0) })).toBeUndefined();
    expect(rewriteReason('pglite', { ...busy, now: at(REWRITE_WITHIN_MS - 1) })).toBeUndefined();
    expect(rewriteReason('pglite', { ...busy, now: at(REWRITE_WITHIN_MS) })).toBe('limit');
    expect(rewriteReason('pglite', { ...busy, quiet: true, now: at(1) })).toBe('quiet');
    expect(REWRITE_WITHIN_MS).toBe(24 * 60 * 60 * 1000);
  });
});

describe('the size of the next batch', () => {
  const aim = { targetMs: 5, max: 2000 };
  it('shrinks at once after a batch that held the database too long', () => {
    expect(batchRowsAfter({ rows: 500, ms: 50 }, aim)).toBe(50);
    expect(batchRowsAfter({ rows: 3, ms: 10_000 }, aim)).toBe(1);
  });

  it('grows toward the target at most twofold, and never past the most rows of a batch', () => {
    expect(batchRowsAfter({ rows: 20, ms: 1 }, aim)).toBe(40);
    expect(batchRowsAfter({ rows: 20, ms: 0 }, aim)).toBe(40);
    expect(batchRowsAfter({ rows: 100, ms: 4 }, aim)).toBe(125);
    expect(batchRowsAfter({ rows: 1500, ms: 1 }, aim)).toBe(2000);
  });
});

describe('scheduleRetention', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs once per interval on an unref’d timer and not after stop', async () => {
    vi.useFakeTimers();
    const statements: string[] = [];
    const tx: Queryable = {
      query: async <T>(sql: string) => {
        statements.push(sql);
        return { rows: [{ n: 0 }] as T[] };
      },
      exec: async () => undefined,
    };
    const unref = vi.spyOn(globalThis, 'setInterval');
    const job = scheduleRetention({ ...schedule(tx), everyMs: 60_000 });
    const timers = unref.mock.results.map((result) => result.value as NodeJS.Timeout);
    expect(timers.map((timer) => timer.hasRef())).toEqual([false, false]);
    await vi.advanceTimersByTimeAsync(59_999);
    // Before the first purge, only the asks whether a past run's tables wait for their rewrite (every 15 s).
    const asks = (sql: string) => sql.includes('rewritten_at is null');
    expect(statements.filter((sql) => !asks(sql))).toEqual([]);
    expect(statements.filter(asks)).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    await job.stop();
    expect(statements.filter((sql) => sql.includes('insert into retention_runs'))).toHaveLength(4);
    const afterStop = statements.length;
    await vi.advanceTimersByTimeAsync(600_000);
    expect(statements.length).toBe(afterStop);
  });

  it('asks whether the tables may be rewritten as often as it is told (RETENTION_CHECK_SECONDS)', async () => {
    vi.useFakeTimers();
    const asks: string[] = [];
    const tx: Queryable = {
      query: async <T>(sql: string) => {
        if (sql.includes('rewritten_at is null')) asks.push(sql);
        return { rows: [] as T[] };
      },
      exec: async () => undefined,
    };
    const job = scheduleRetention({ ...schedule(tx), everyMs: 3_600_000, checkEveryMs: 60_000 });
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    await job.stop();
    expect(asks).toHaveLength(5);
  });
});

/** What scheduleRetention needs, on a database that answers every statement through `tx`. */
function schedule(tx: Queryable) {
  const db = { ...tx, kind: 'pglite', transaction: (fn) => fn(tx), close: async () => undefined } as Db;
  return {
    db,
    tenants: ['demo'],
    publicDir: fileURLToPath(new URL('../../public/', import.meta.url)),
    logger: silentLogger,
    clock: { now: () => new Date() },
  };
}
