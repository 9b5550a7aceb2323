// The request a piece of code is working for, without passing it down every call: log lines written deep in a
// store, the engine's queue or a raw handler, and the problem answers, carry the id of the request that caused
// them, so that the line an operator reads and the reference a person quotes are the same string.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { isLoopbackAddress } from './dev-routes';

interface RequestContext {
  reqId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` (and everything it starts, awaited or not) as the work of the request `reqId`. */
export function withRequestId<T>(reqId: string, fn: () => T): T {
  return storage.run({ reqId }, fn);
}

/** The id of the request the current code works for; undefined outside any request (start-up, timers). */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.reqId;
}

// A caller's id is kept only when it is harmless to echo back and to log.
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Whose X-Request-Id is believed: the proxy's, when TRUST_PROXY says one stands in front (it names the request in
 * its own log), and a caller on this machine's loopback (a local proxy, `npm run dev`'s Vite). Anyone else could
 * pick an id to blur their requests with another person's in the log, so theirs gets a new one.
 */
export function trustsIncomingId(trustProxy: boolean, peer: string | undefined): boolean {
  return trustProxy || isLoopbackAddress(peer);
}

/** The id of a new request: the incoming one when its sender is trusted and it is well-formed, else a new UUID. */
export function chooseRequestId(incoming: string | string[] | undefined, trusted: boolean): string {
  const given = Array.isArray(incoming) ? incoming[0] : incoming;
  return trusted && given !== undefined && REQUEST_ID.test(given) ? given : randomUUID();
}
