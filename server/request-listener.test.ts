import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from './db/db';
import { silentLogger } from './logger';
import type { Metrics } from './metrics';
import { createRawHandlers } from './raw-handlers';
import { quietFor, requestListener, type Traffic } from './request-listener';

// What the retention purge asks before it rewrites the embedded database's tables: whether the server is quiet.
// A request in flight, or one that ended a moment ago, is not quiet; a load balancer's health checks and a metrics
// scrape do not count (they come every few seconds whether or not anyone uses the portal).

const traffic: Traffic = {
  inFlight: new Set(),
  closing: false,
  onIdle: undefined,
  onRequestEnd: undefined,
  served: { inFlight: 0, lastAt: 0 },
};
const held: ServerResponse[] = [];
const metrics = { track() {}, nameRoute() {}, serve: async () => undefined } as unknown as Metrics;
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(
    requestListener({
      db: {} as Db,
      logger: silentLogger,
      metrics,
      rawHandlers: createRawHandlers(),
      devRoutes: 'off',
      trustProxy: false,
      traffic,
      // Every answer waits until the test lets it go.
      honoListener: (_req, res) => {
        held.push(res);
      },
      backupAccess: () => undefined,
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function heldRequest(path: string) {
  const before = held.length;
  const answer = fetch(`${base}${path}`);
  while (held.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
  return {
    release: async () => {
      held[before]?.end('ok');
      await (await answer).text();
      // The listener counts the end on the response's close, after the client has the answer.
      while (traffic.inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
}

it('is not quiet while a request is in flight nor for a minute after; health checks do not count', async () => {
  const aMinute = quietFor(traffic, 60_000);
  // Nothing served yet, long ago.
  traffic.served.lastAt = performance.now() - 61_000;
  expect(aMinute()).toBe(true);

  const health = await heldRequest('/health');
  expect(traffic.served.inFlight).toBe(0);
  await health.release();
  expect(aMinute()).toBe(true);

  const api = await heldRequest('/api/public/users');
  expect(traffic.served.inFlight).toBe(1);
  expect(quietFor(traffic, 0)()).toBe(false);
  await api.release();
  expect(traffic.served.inFlight).toBe(0);
  expect(aMinute()).toBe(false);
  expect(quietFor(traffic, 0)()).toBe(true);
});
