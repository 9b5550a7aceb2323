// The bounded queue of a process's heavy work: decoding uploaded images (image-checks.ts) and the biometric
// engine's judgements (portrayal-result.ts, the liveness proof). Forty parallel uploads of a 36-megapixel picture
// from one person used to be decoded all at once: every other person waited seconds for any answer, and the
// process grew past a gigabyte. Now:
// - a few jobs run at once in the process (`slots`), the rest wait their turn in arrival order;
// - an upload is admitted before its body is read: at most `perPerson` of one person's at once, and at most
//   `slots + waiting` in the whole process. Past either, the answer is 429 `busy` with a Retry-After of about
//   when a place frees up, and the portal sends the picture again then;
// - work that follows an answer (a portrayal's result, a bulk import's rows) waits its turn without a 429.
import { AsyncResource } from 'node:async_hooks';
import { availableParallelism } from 'node:os';
import type { MiddlewareHandler } from 'hono';
import type { AuthEnv } from '../auth/verify';
import { makeProblem, problemResponse } from '../http/problem';

export interface HeavyWorkOptions {
  /** Jobs that run at once in the process. */
  slots?: number;
  /** One person's requests admitted at once. */
  perPerson?: number;
  /** Requests admitted beyond the running ones, in the whole process. */
  waiting?: number;
}

export interface HeavyWork {
  /**
   * A place for one person's heavy request, or a refusal with the seconds after which to try again. The place is
   * given back with release(), once the request is answered.
   */
  admit(person: string): { ok: true; release: () => void } | { ok: false; retryAfter: number };
  /** Runs `job` in one of the slots once it is free, in arrival order. */
  run<T>(job: () => Promise<T>): Promise<T>;
  /** Jobs running and waiting; requests admitted (tests and metrics). */
  stats(): { running: number; queued: number; admitted: number };
  /**
   * Development fault: the person's next request is refused busy with this Retry-After, whatever the load, so that
   * the portal's "busy, retrying" can be seen without loading the machine (POST /api/dev/faults/busy).
   */
  refuseNext(person: string, retryAfter: number): void;
}

/**
 * One job fewer than the cores, at least one and at most four: each decodes up to 40 megapixels, and a core stays
 * for answering everyone else (on 2 cores, two decodings at once doubled /health's slowest answers in the bench).
 */
export const DEFAULT_SLOTS = Math.min(4, Math.max(1, availableParallelism() - 1));
export const DEFAULT_PER_PERSON = 2;
export const DEFAULT_WAITING = 8;
/** Retry-After bounds, in seconds. */
const RETRY_MIN = 1;
const RETRY_MAX = 30;

export function createHeavyWork(options: HeavyWorkOptions = {}): HeavyWork {
  const slots = Math.max(1, options.slots ?? DEFAULT_SLOTS);
  const perPerson = Math.max(1, options.perPerson ?? DEFAULT_PER_PERSON);
  const admittedMax = slots + Math.max(0, options.waiting ?? DEFAULT_WAITING);
  const byPerson = new Map<string, number>();
  let admitted = 0;
  let running = 0;
  const queue: (() => void)[] = [];
  // How long a job takes, smoothed: a refusal says to come back when the jobs ahead should be done.
  let averageMs = 1000;
  const refusals = new Map<string, number>();

  const retryAfter = (ahead: number) =>
    Math.min(RETRY_MAX, Math.max(RETRY_MIN, Math.ceil((averageMs * Math.max(1, ahead)) / slots / 1000)));

  const next = () => {
    if (running >= slots) return;
    const start = queue.shift();
    if (start) start();
  };

  return {
    admit(person) {
      const refused = refusals.get(person);
      if (refused !== undefined) {
        refusals.delete(person);
        return { ok: false, retryAfter: refused };
      }
      const mine = byPerson.get(person) ?? 0;
      if (mine >= perPerson || admitted >= admittedMax) {
        return { ok: false, retryAfter: retryAfter(running + queue.length) };
      }
      byPerson.set(person, mine + 1);
      admitted += 1;
      let released = false;
      return {
        ok: true,
        release: () => {
          if (released) return;
          released = true;
          admitted -= 1;
          const left = (byPerson.get(person) ?? 1) - 1;
          if (left > 0) byPerson.set(person, left);
          else byPerson.delete(person);
        },
      };
    },

    run(job) {
      return new Promise((resolve, reject) => {
        // A job starts when another ends, inside that one's async context: bound to its own caller's instead, so
        // that what it logs names the request it works for (request-context.ts).
        queue.push(
          AsyncResource.bind(() => {
            running += 1;
            const started = performance.now();
            job()
              .then(resolve, reject)
              .finally(() => {
                averageMs = 0.8 * averageMs + 0.2 * (performance.now() - started);
                running -= 1;
                next();
              });
          }),
        );
        next();
      });
    },

    stats: () => ({ running, queued: queue.length, admitted }),

    refuseNext(person, seconds) {
      refusals.set(person, Math.min(RETRY_MAX, Math.max(RETRY_MIN, Math.round(seconds))));
    },
  };
}

/** The 429 of a request refused a place: code `busy`, and when to try again (header and body). */
export function busyResponse(retryAfter: number): Response {
  const response = problemResponse(
    makeProblem(429, `The server is busy with other pictures; try again in ${retryAfter} s.`, 'busy'),
    { retry_after: retryAfter },
  );
  response.headers.set('Retry-After', String(retryAfter));
  return response;
}

/** The person a heavy request is counted against: the caller's account in its tenant. */
export const personOf = (tenant: string, sub: string) => `${tenant}\u0000${sub}`;

/**
 * Middleware for an upload route, after authentication and before the body is read: the caller's request is
 * admitted for as long as it is handled, or answered 429 busy at once.
 */
export function admitHeavy(work: HeavyWork): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const place = work.admit(personOf(c.get('tenant'), c.get('auth').sub));
    if (!place.ok) return busyResponse(place.retryAfter);
    try {
      await next();
    } finally {
      place.release();
    }
  };
}
