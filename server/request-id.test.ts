// Every request has one id: in its X-Request-Id, in every log line written for it (deep in a handler or the
// engine's queue included), and in the request_id of its problem answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { type RunningServer, type StartServerOptions, startServer } from './main';
import { createHeavyWork } from './onboarding/heavy-work';
import { currentRequestId, withRequestId } from './request-context';
import { createSiteFixture, type SiteFixture, testServerOptions } from './testing/fixtures';
import { NEIGHBOUR_SOURCE, seeNeighbourAt } from './testing/neighbour';
import { send } from './testing/oidc';

let site: SiteFixture;
beforeAll(() => {
  site = createSiteFixture();
});
afterAll(() => site.remove());

/** A GET from `localAddress`: status, X-Request-Id and the JSON body. */
async function get(
  server: RunningServer,
  path: string,
  headers: Record<string, string>,
  localAddress?: string,
) {
  const answer = await send(server.port, path, headers, undefined, localAddress);
  const body = answer.body.startsWith('{') ? (JSON.parse(answer.body) as Record<string, unknown>) : {};
  return { status: answer.status, requestId: answer.requestId, body };
}

describe('request ids', { timeout: 60_000 }, () => {
  let lines: Record<string, unknown>[];
  let server: RunningServer;

  async function start(extra: StartServerOptions = {}) {
    lines = [];
    const logger = createLogger({
      nodeEnv: 'production',
      level: 'debug',
      write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
    });
    server = await startServer(
      testServerOptions(site, {
        logger,
        configureApp: (app, deps) => {
          app.get('/api/test/deep', async (c) => {
            await Promise.resolve();
            deps.logger.log('info', 'deep inside the handler');
            return c.json({ problem: false }, 500);
          });
        },
        ...extra,
      }),
    );
    seeNeighbourAt(server);
  }

  afterAll(async () => {
    await server?.close();
  });

  it('a problem answer carries the id of its header, and so does every line logged for it', async () => {
    await start();
    try {
      const missing = await get(server, '/api/no-such-thing', { 'tenant-id': 'demo' });
      expect(missing.status).toBe(404);
      expect(missing.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(missing.body).toMatchObject({ code: 'not_found', request_id: missing.requestId });

      // A problem of the identity provider's raw handler, outside the app.
      const noRealm = await get(server, '/auth/realms/nobody/.well-known/openid-configuration', {});
      expect(noRealm.status).toBe(404);
      expect(noRealm.body).toMatchObject({ code: 'not_found', request_id: noRealm.requestId });
      expect(noRealm.requestId).not.toBe(missing.requestId);

      const deep = await get(server, '/api/test/deep', { 'tenant-id': 'demo' });
      const inside = lines.find((line) => line.msg === 'deep inside the handler');
      expect(inside?.reqId).toBe(deep.requestId);
      const own = lines.filter((line) => line.reqId === deep.requestId).map((line) => line.msg);
      expect(own).toEqual(['deep inside the handler', 'request']);
    } finally {
      await server.close();
    }
  });

  it('keeps a loopback caller’s X-Request-Id and replaces a neighbour’s unless a proxy is trusted', async () => {
    await start();
    try {
      const local = await get(server, '/api/no-such-thing', { 'tenant-id': 'demo', 'x-request-id': 'lb-1' });
      expect(local.requestId).toBe('lb-1');
      expect(local.body.request_id).toBe('lb-1');

      const neighbour = await get(
        server,
        '/api/no-such-thing',
        { 'tenant-id': 'demo', 'x-request-id': 'chosen-by-a-neighbour' },
        NEIGHBOUR_SOURCE,
      );
      expect(neighbour.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(neighbour.body.request_id).toBe(neighbour.requestId);
      expect(lines.some((line) => line.reqId === 'chosen-by-a-neighbour')).toBe(false);
    } finally {
      await server.close();
    }
    await start({ trustProxy: true });
    try {
      const proxied = await get(
        server,
        '/api/no-such-thing',
        { 'tenant-id': 'demo', 'x-request-id': 'proxy-7' },
        NEIGHBOUR_SOURCE,
      );
      expect(proxied.requestId).toBe('proxy-7');
      expect(proxied.body.request_id).toBe('proxy-7');
    } finally {
      await server.close();
    }
  });

  it('a job of the heavy-work queue runs as the request that queued it, not the one before it', async () => {
    const heavy = createHeavyWork({ slots: 1 });
    let releaseFirst: () => void = () => undefined;
    const first = withRequestId('first', () =>
      heavy.run(() => new Promise<void>((resolve) => (releaseFirst = resolve))),
    );
    // Queued behind the first: it starts when the first ends, from inside the first's context.
    const second = withRequestId('second', () => heavy.run(async () => currentRequestId()));
    expect(heavy.stats()).toMatchObject({ running: 1, queued: 1 });
    releaseFirst();
    await first;
    await expect(second).resolves.toBe('second');
  });
});
