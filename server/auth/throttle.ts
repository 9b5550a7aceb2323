// Repeated wrong passwords are slowed down per account and per address, with the same answer either way: after
// a few failures each new attempt waits longer before it is even checked (up to a cap), whatever its outcome.
// Attempts that share a key run one after another: guesses sent in parallel would otherwise all sleep the
// same delay at once and be checked together, so N guesses must cost N delays.
import type { Queryable } from '../db/db';

export interface ThrottleOptions {
  /** Failures allowed before attempts start to wait. */
  freeFailures?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Failures older than this are forgotten. */
  windowMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Where the failures are counted: this process's memory by default; the database in the server. */
  store?: ThrottleStore;
}

const DEFAULT_WINDOW_MS = 15 * 60 * 1000;

/** The failure counters, by key (`<tenant>|account|<name>`, `<tenant>|address|<address>`). */
export interface ThrottleStore {
  /** The most failures counted on any of the keys within the window. */
  failures(keys: readonly string[]): Promise<number>;
  fail(keys: readonly string[]): Promise<void>;
  succeed(keys: readonly string[]): Promise<void>;
}

interface Entry {
  failures: number;
  lastAt: number;
}

/** Counters in this process's memory: one process only (tests, tools); the server counts in the database. */
export function memoryThrottleStore(options: { now?: () => number; windowMs?: number } = {}): ThrottleStore {
  const now = options.now ?? Date.now;
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const entries = new Map<string, Entry>();
  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && now() - entry.lastAt > windowMs) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    async failures(keys) {
      return Math.max(0, ...keys.map((key) => live(key)?.failures ?? 0));
    },
    async fail(keys) {
      if (entries.size > 50_000) entries.clear(); // a flood of made-up names must not grow memory without end
      for (const key of keys) {
        const entry = live(key) ?? { failures: 0, lastAt: now() };
        entry.failures += 1;
        entry.lastAt = now();
        entries.set(key, entry);
      }
    },
    async succeed(keys) {
      for (const key of keys) entries.delete(key);
    },
  };
}

/** `<tenant>|<rest>` → the row's tenant and key. */
function splitKey(key: string): [tenant: string, rest: string] {
  const bar = key.indexOf('|');
  return bar < 0 ? ['', key] : [key.slice(0, bar), key.slice(bar + 1)];
}

/**
 * Counters in the login_throttle table, so every server process behind a load balancer counts the same
 * failures: guesses spread over several processes add up. Rows older than the window are removed whenever a
 * failure is counted, so made-up names cannot grow the table without end.
 */
export function databaseThrottleStore(
  db: Queryable,
  options: { now?: () => number; windowMs?: number } = {},
): ThrottleStore {
  const now = options.now ?? Date.now;
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const columns = (keys: readonly string[]) => {
    const split = keys.map(splitKey);
    return [split.map(([tenant]) => tenant), split.map(([, rest]) => rest)];
  };
  return {
    async failures(keys) {
      const [tenants, rests] = columns(keys);
      const { rows } = await db.query<{ failures: number | null }>(
        `select max(failures)::int as failures from login_throttle
         where (tenant, key) in (select * from unnest($1::text[], $2::text[])) and last_at >= $3`,
        [tenants, rests, new Date(now() - windowMs)],
      );
      return rows[0]?.failures ?? 0;
    },
    async fail(keys) {
      const at = new Date(now());
      const cutoff = new Date(now() - windowMs);
      for (const key of keys) {
        const [tenant, rest] = splitKey(key);
        await db.query(
          `insert into login_throttle (tenant, key, failures, last_at) values ($1, $2, 1, $3)
           on conflict (tenant, key) do update set
             failures = case when login_throttle.last_at < $4 then 1 else login_throttle.failures + 1 end,
             last_at = excluded.last_at`,
          [tenant, rest, at, cutoff],
        );
      }
      await db.query('delete from login_throttle where last_at < $1', [cutoff]);
    },
    async succeed(keys) {
      const [tenants, rests] = columns(keys);
      await db.query(
        'delete from login_throttle where (tenant, key) in (select * from unnest($1::text[], $2::text[]))',
        [tenants, rests],
      );
    },
  };
}

export function createThrottle(options: ThrottleOptions = {}) {
  const freeFailures = options.freeFailures ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 8000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const store = options.store ?? memoryThrottleStore({ now: options.now, windowMs: options.windowMs });
  /**
   * Per key, the settling of the last attempt queued on it. The queue is this process's: attempts at one key
   * through another process are not queued behind these, but their failures count here before the next delay.
   */
  const lanes = new Map<string, Promise<void>>();

  /** How long an attempt for these keys waits before it is checked. */
  async function delayFor(keys: readonly string[]): Promise<number> {
    const failures = await store.failures(keys);
    if (failures < freeFailures) return 0;
    return Math.min(maxDelayMs, baseDelayMs * 2 ** (failures - freeFailures));
  }

  const fail = (keys: readonly string[]): Promise<void> => store.fail(keys);
  const succeed = (keys: readonly string[]): Promise<void> => store.succeed(keys);

  async function wait(keys: readonly string[]): Promise<void> {
    const delay = await delayFor(keys);
    if (delay > 0) await sleep(delay);
  }

  /**
   * One sign-in attempt: queued behind every attempt pending on any of its keys, then delayed by the failures
   * so far, then checked; the outcome counts before the next attempt in the queue computes its delay.
   */
  async function attempt(keys: readonly string[], check: () => Promise<boolean>): Promise<boolean> {
    let settle = () => {};
    const mine = new Promise<void>((resolve) => {
      settle = resolve;
    });
    // Read and replace every lane before awaiting anything, so the queues never wait on each other in a circle.
    const ahead = keys.map((key) => lanes.get(key));
    for (const key of keys) lanes.set(key, mine);
    try {
      await Promise.all(ahead);
      await wait(keys);
      const ok = await check();
      if (ok) await succeed(keys);
      else await fail(keys);
      return ok;
    } finally {
      settle();
      for (const key of keys) if (lanes.get(key) === mine) lanes.delete(key);
    }
  }

  return {
    delayFor,
    wait,
    attempt,
    fail,
    succeed,
    /** Attempts queued or running (for tests and logs). */
    pendingKeys: () => lanes.size,
  };
}

export type Throttle = ReturnType<typeof createThrottle>;
