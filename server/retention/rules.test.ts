// The retention day counts as a tenant writes them, and the schedule that runs the purge: it runs once per
// interval and never after stop, on a timer that does not keep the process alive.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db, Queryable } from '../db/db';
import { silentLogger } from '../logger';
import { scheduleRetention } from './job';
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
    const timer = unref.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(statements).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await job.stop();
    expect(statements.filter((sql) => sql.includes('insert into retention_runs'))).toHaveLength(4);
    const afterStop = statements.length;
    await vi.advanceTimersByTimeAsync(600_000);
    expect(statements.length).toBe(afterStop);
  });
});
