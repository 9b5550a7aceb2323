// The retention day counts as a tenant writes them, and the schedule that runs the purge: it runs once per
// interval and never after stop, on a timer that does not keep the process alive; when the tables it deleted from
// are rewritten.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db, Queryable } from '../db/db';
import { silentLogger } from '../logger';
import { REWRITE_WITHIN_MS, rewriteReason, scheduleRetention } from './job';
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
    const db = { ...tx, kind: 'pglite', transaction: (fn) => fn(tx), close: async () => undefined } as Db;
    const unref = vi.spyOn(globalThis, 'setInterval');
    const job = scheduleRetention({
      db,
      tenants: ['demo'],
      publicDir: fileURLToPath(new URL('../../public/', import.meta.url)),
      logger: silentLogger,
      clock: { now: () => new Date() },
      everyMs: 60_000,
    });
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
});
