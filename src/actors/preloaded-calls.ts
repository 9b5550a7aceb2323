// The calls a preload run made (src/actors/preload.ts), kept for the screen's actor: when it makes the same call
// with the same parameters, it takes the kept answer (or error) instead of sending the request again; a call that
// differs drops what was kept and goes out as usual.

import type { Session } from '../auth/access';
import type { Runtime } from '../runtime/context';
import { markOpened } from '../runtime/opened-at';
import { takePaintedOpenedAt } from '../tenant/load';

/**
 * A screen's first calls, as its actor makes them: `signal` marks them as the preload's; `openedAt` is the instant
 * the screen opens, for a call that asks for what happened up to it (the screen asks with the same one).
 */
export type FirstCalls = (
  runtime: Runtime,
  session: Session,
  signal: AbortSignal,
  openedAt: Date,
) => Promise<unknown>;

// biome-ignore lint/suspicious/noExplicitAny: a call of src/api, whatever its parameters
type Call = (...args: any[]) => Promise<unknown>;

interface Kept {
  name: string;
  args: unknown[];
  answer: Promise<unknown>;
  path: string;
  /** The instant of the run that made it. */
  at: Date;
  /** An actor is waiting on it; an actor stopped meanwhile (React's StrictMode) gives it back. */
  taken: boolean;
}

const kept: Kept[] = [];
/** A preload run: what tells it that a call has gone out, and the instant its calls are built with. */
interface Run {
  sent: () => void;
  at: Date;
}
/** The signals of the preload runs: a call made with one of them is kept, not taken. */
const preloadSignals = new WeakMap<AbortSignal, Run>();
/** The preload run under way (it has not made all its calls yet). */
let running: Promise<void> | null = null;
/** Settles when a call is kept or the run ends: an actor that asked too early looks again. */
let changed = deferred();
/** Call names some actor has asked for: a name is taken once (a later screen asks the server again). */
const asked = new Set<string>();

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function announce() {
  const last = changed;
  changed = deferred();
  last.resolve();
}

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/** The same parameters: plain objects and arrays by value (an options' `signal` aside), the rest by identity. */
export function sameArgs(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((value, i) => sameArgs(value, b[i]));
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (isPlain(a) && isPlain(b)) {
    const keys = (o: Record<string, unknown>) =>
      Object.keys(o).filter((k) => k !== 'signal' && o[k] !== undefined);
    const [ka, kb] = [keys(a), keys(b)];
    return ka.length === kb.length && ka.every((k) => sameArgs(a[k], b[k]));
  }
  return false;
}

const signalOf = (args: unknown[]): AbortSignal | undefined => {
  const last = args.at(-1);
  return isPlain(last) && last.signal instanceof AbortSignal ? last.signal : undefined;
};

const currentPath = () => (typeof window === 'undefined' ? '' : window.location.pathname);

function keep(name: string, call: Call, args: unknown[], at: Date): Promise<unknown> {
  const answer = call(...args);
  // Nobody may take it: its failure is then the preload's alone.
  answer.catch(() => undefined);
  kept.push({ name, args, answer, path: currentPath(), at, taken: false });
  announce();
  return answer;
}

/** The kept answer for the actor, which stops waiting for it (and gives it back) when its signal aborts. */
function hand(entry: Kept, signal: AbortSignal | undefined): Promise<unknown> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  entry.taken = true;
  return new Promise((resolve, reject) => {
    const giveBack = () => {
      entry.taken = false;
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', giveBack, { once: true });
    const settle = (done: () => void) => {
      if (signal?.aborted) return;
      signal?.removeEventListener('abort', giveBack);
      kept.splice(kept.indexOf(entry), 1);
      done();
    };
    entry.answer.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

/** What the preload kept for this call, after waiting for a run under way to reach it; undefined: none. */
async function lookUp(name: string, args: unknown[]): Promise<{ answer: Promise<unknown> } | undefined> {
  for (;;) {
    const same = kept.filter((entry) => entry.name === name);
    const free = same.find((entry) => !entry.taken);
    if (free) {
      if (free.path === currentPath() && sameArgs(free.args, args))
        return { answer: hand(free, signalOf(args)) };
      // Not what the machine asks: dropped, and the machine's own call goes out.
      kept.splice(kept.indexOf(free), 1);
      return undefined;
    }
    if (same.length > 0 || !running || asked.has(name)) return undefined;
    await changed.promise;
  }
}

/**
 * A call of src/api an actor makes, able to take the preload's answer: the same function and parameters, the same
 * answer or error as its own request would have given (the API client has reported it the same way).
 */
export function preloadable<F extends Call>(name: string, call: F): F {
  return (async (...args: unknown[]) => {
    const signal = signalOf(args);
    const run = signal && preloadSignals.get(signal);
    if (run) {
      const answer = keep(name, call, args, run.at);
      run.sent();
      return answer;
    }
    const preloaded = kept.length > 0 || running ? await lookUp(name, args) : undefined;
    asked.add(name);
    return preloaded ? preloaded.answer : call(...args);
  }) as F;
}

/**
 * Runs `calls` as a preload: the calls they make with the signal given are kept for the screen's actor, built with
 * the instant given, which the screen takes as the one it opened at (src/runtime/opened-at.ts) while they are kept.
 * Settles once the run has sent its first call, or has ended without one.
 */
export function runPreload(calls: (signal: AbortSignal, openedAt: Date) => Promise<unknown>): Promise<void> {
  const controller = new AbortController();
  const sent = deferred();
  // On a page painted with the person's data, the paint's instant: its calls are then the paint's, answered from
  // the page (src/api/painted-fetch.ts).
  const at = takePaintedOpenedAt() ?? new Date();
  preloadSignals.set(controller.signal, { sent: sent.resolve, at });
  markOpened(at, () => kept.some((entry) => entry.at === at && entry.path === currentPath()));
  running = calls(controller.signal, at)
    .then(() => undefined)
    .catch(() => undefined)
    .finally(() => {
      running = null;
      sent.resolve();
      announce();
    });
  return sent.promise;
}

/** Tests: forget every kept call and run. */
export function resetPreload(): void {
  kept.length = 0;
  asked.clear();
  running = null;
  announce();
}
