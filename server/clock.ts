// The clock of the visit rules ("today", "later than now", link expiry, check-in day). In production it is the
// system's. Elsewhere it may be moved, so that a journey runs at the hour it names instead of the hour it happens
// to run (tests/e2e/visits.spec.ts pins 23:30 and 00:30 in Madrid): CLOCK_AT=<ISO instant> starts the process's
// clock there, and PUT /api/dev/clock (loopback only, like every development route) moves it. A moved clock
// keeps running at the system's pace. It is this process's only (a development aid, not shared state).

export interface Clock {
  now(): Date;
}

export interface MovableClock extends Clock {
  /** From now on, now() is `at` plus the time since. */
  set(at: Date): void;
  /** Back to the system's time. */
  reset(): void;
}

export const systemClock: Clock = { now: () => new Date() };

export function movableClock(start?: Date, system: () => number = Date.now): MovableClock {
  let offsetMs = start ? start.getTime() - system() : 0;
  return {
    now: () => new Date(system() + offsetMs),
    set(at) {
      offsetMs = at.getTime() - system();
    },
    reset() {
      offsetMs = 0;
    },
  };
}

/** The system clock in production (CLOCK_AT is ignored there); otherwise a movable one, from CLOCK_AT if set. */
export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock | MovableClock {
  if (env.NODE_ENV === 'production') return systemClock;
  const at = env.CLOCK_AT ? new Date(env.CLOCK_AT) : undefined;
  if (at && Number.isNaN(at.getTime()))
    throw new Error(`CLOCK_AT is not an ISO date and time: ${env.CLOCK_AT}`);
  return movableClock(at);
}

export const isMovable = (clock: Clock): clock is MovableClock => 'set' in clock;
