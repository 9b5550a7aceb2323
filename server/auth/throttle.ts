// Repeated wrong passwords are slowed down per account and per address, with the same answer either way: after
// a few failures each new attempt waits longer before it is even checked (up to a cap), whatever its outcome.
// Attempts that share a key run one after another: guesses sent in parallel would otherwise all sleep the
// same delay at once and be checked together, so N guesses must cost N delays.
export interface ThrottleOptions {
  /** Failures allowed before attempts start to wait. */
  freeFailures?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Failures older than this are forgotten. */
  windowMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

interface Entry {
  failures: number;
  lastAt: number;
}

export function createThrottle(options: ThrottleOptions = {}) {
  const freeFailures = options.freeFailures ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 8000;
  const windowMs = options.windowMs ?? 15 * 60 * 1000;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const entries = new Map<string, Entry>();
  /** Per key, the settling of the last attempt queued on it. */
  const lanes = new Map<string, Promise<void>>();

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && now() - entry.lastAt > windowMs) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  /** How long an attempt for these keys waits before it is checked. */
  function delayFor(keys: readonly string[]): number {
    const failures = Math.max(0, ...keys.map((key) => live(key)?.failures ?? 0));
    if (failures < freeFailures) return 0;
    return Math.min(maxDelayMs, baseDelayMs * 2 ** (failures - freeFailures));
  }

  function fail(keys: readonly string[]): void {
    if (entries.size > 50_000) entries.clear(); // a flood of made-up names must not grow memory without end
    for (const key of keys) {
      const entry = live(key) ?? { failures: 0, lastAt: now() };
      entry.failures += 1;
      entry.lastAt = now();
      entries.set(key, entry);
    }
  }

  function succeed(keys: readonly string[]): void {
    for (const key of keys) entries.delete(key);
  }

  async function wait(keys: readonly string[]): Promise<void> {
    const delay = delayFor(keys);
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
      if (ok) succeed(keys);
      else fail(keys);
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
