// /metrics: the series an operator scrapes, counted by route template, and served only to this machine or to the
// bearer of METRICS_TOKEN.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db/db';
import { silentLogger } from './logger';
import { type RunningServer, type StartServerOptions, startServer } from './main';
import { bearerMatches, createMetrics, type Metrics } from './metrics';
import { basicEngine } from './onboarding/engine';
import { createHeavyWork } from './onboarding/heavy-work';
import { fixture } from './onboarding/testing/harness';
import { createSiteFixture, type SiteFixture, testServerOptions } from './testing/fixtures';
import { NEIGHBOUR_SOURCE, seeNeighbourAt } from './testing/neighbour';
import { apiCall, selfiePortrayal, send, signIn } from './testing/oidc';

let site: SiteFixture;
beforeAll(() => {
  site = createSiteFixture();
});
afterAll(() => site.remove());

const TOKEN = 'a-scraper-token-0123456789abcdef';
const OPEN = { host: '0.0.0.0', listenHost: '127.0.0.1' } as const;

/** The value of the one sample `name{labels}` in a scrape (labels in the order prom-client writes them). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const requestSeries = (route: string, method: string, status: number) =>
  `portal_http_requests_total{route="${route}",method="${method}",status="${status}"}`;

describe('metrics of a running server', { timeout: 120_000 }, () => {
  let server: RunningServer;
  const start = async (extra: StartServerOptions = {}) => {
    server = await startServer(
      testServerOptions(site, {
        ...OPEN,
        onboarding: { engine: basicEngine, resultDelayMs: 0 },
        ...extra,
      }),
    );
    seeNeighbourAt(server);
    return server;
  };
  const scrape = async (headers: Record<string, string> = {}, from?: string) =>
    send(server.port, '/metrics', headers, undefined, from);

  it('counts requests by route template, method and status, with latency, the queue, the engine and the process', async () => {
    await start();
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const ids = [crypto.randomUUID(), crypto.randomUUID()];
      const before = (await scrape()).body;
      expect(sample(before, requestSeries('/api/public/users/:id', 'GET', 404))).toBeUndefined();

      expect((await fetch(`${base}/health`)).status).toBe(200);
      const { access_token } = await signIn(server.url, 'gambling', 'admin');
      for (const id of ids) {
        const missing = await apiCall(server.url, `/public/users/${id}`, 'gambling', access_token);
        expect(missing.status).toBe(404);
        expect(missing.headers.get('content-type')).toBe('application/problem+json');
      }
      // A problem of no route: its path must not become a label.
      const nowhere = await fetch(`${base}/api/no/such/${ids[0]}`, { headers: { 'tenant-id': 'gambling' } });
      expect(nowhere.status).toBe(404);
      // A judgement of the engine: a selfie's result, joined while it is computed after the upload's answer.
      const portrayal = await selfiePortrayal(server.url, 'gambling', access_token);
      const upload = await apiCall(
        server.url,
        `/internal/portrayals/${portrayal}/selfie`,
        'gambling',
        access_token,
        {
          method: 'PUT',
          headers: { 'content-type': 'image/png' },
          body: new Uint8Array(fixture('selfie.png')),
        },
      );
      expect(upload.status, await upload.clone().text()).toBe(200);
      expect(
        (await apiCall(server.url, `/internal/portrayals/${portrayal}`, 'gambling', access_token)).status,
      ).toBe(200);

      const answer = await scrape();
      expect(answer.status).toBe(200);
      expect(answer.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = answer.body;
      expect(sample(text, requestSeries('/health', 'GET', 200))).toBeGreaterThanOrEqual(1);
      expect(sample(text, requestSeries('/api/public/users/:id', 'GET', 404))).toBe(2);
      expect(sample(text, requestSeries('unmatched', 'GET', 404))).toBe(1);
      // The scrape before counts under its own path; the identity provider's pages under their mount.
      expect(sample(text, requestSeries('/metrics', 'GET', 200))).toBe(1);
      expect(text).toMatch(
        /^portal_http_requests_total\{route="\/auth\/\*",method="POST",status="\d+"\} \d+$/m,
      );
      for (const id of ids) expect(text).not.toContain(id);
      expect(text).not.toContain('/api/no/such');

      const histogram = 'portal_http_request_duration_seconds';
      const labels = 'route="/api/public/users/:id",method="GET",status="404"';
      for (const le of ['0.005', '0.1', '1', '10', '+Inf']) {
        expect(text).toContain(`${histogram}_bucket{le="${le}",${labels}} `);
      }
      expect(sample(text, `${histogram}_bucket{le="+Inf",${labels}}`)).toBe(2);
      expect(sample(text, `${histogram}_count{${labels}}`)).toBe(2);

      expect(
        sample(text, 'portal_engine_judgement_duration_seconds_count{kind="portrayal",outcome="judged"}'),
      ).toBe(1);
      expect(sample(text, 'portal_heavy_work_jobs{state="running"}')).toBe(0);
      expect(sample(text, 'portal_heavy_work_jobs{state="waiting"}')).toBe(0);
      expect(sample(text, 'portal_heavy_work_admitted_uploads')).toBe(0);
      expect(sample(text, 'portal_db_operations_in_flight')).toBeGreaterThanOrEqual(0);
      // PGlite has no pool to show.
      expect(text).not.toContain('portal_db_pool_');
      expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    } finally {
      await server.close();
    }
  });

  it('without METRICS_TOKEN serves this machine only: a neighbour or a proxied request gets the 404 of nothing here', async () => {
    await start();
    try {
      expect((await scrape()).status).toBe(200);
      const neighbour = await scrape({}, NEIGHBOUR_SOURCE);
      expect(neighbour.status).toBe(404);
      expect(neighbour.contentType).toBe('application/problem+json');
      expect(neighbour.body).not.toContain('portal_');
      // A proxy on this machine makes every caller look local.
      expect((await scrape({ 'x-forwarded-for': '198.51.100.7' })).status).toBe(404);
      // A token nobody configured opens nothing.
      expect((await scrape({ authorization: `Bearer ${TOKEN}` }, NEIGHBOUR_SOURCE)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('with METRICS_TOKEN serves its bearer from anywhere and refuses anyone else with 401', async () => {
    await start({ metricsToken: TOKEN });
    try {
      const served = await scrape({ authorization: `Bearer ${TOKEN}` }, NEIGHBOUR_SOURCE);
      expect(served.status).toBe(200);
      expect(served.body).toContain('portal_http_requests_total');
      const wrong = await scrape({ authorization: `Bearer ${TOKEN}x` }, NEIGHBOUR_SOURCE);
      expect(wrong.status).toBe(401);
      expect(wrong.contentType).toBe('application/problem+json');
      expect(JSON.parse(wrong.body)).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(wrong.body).not.toContain('portal_');
      // The token is the rule from this machine too.
      expect((await scrape()).status).toBe(401);
      expect((await scrape({ authorization: `Basic ${TOKEN}` })).status).toBe(401);
      expect((await scrape({ authorization: `bearer ${TOKEN}` })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('createMetrics', () => {
  /** A scrape of `metrics` through a node server of its own on loopback. */
  async function scrapeOf(metrics: Metrics): Promise<string> {
    const http: Server = createServer((req, res) => void metrics.serve(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await send((http.address() as AddressInfo).port, '/metrics', {});
      expect(answer.status).toBe(200);
      return answer.body;
    } finally {
      await new Promise((resolve) => http.close(resolve));
    }
  }

  it("shows PostgreSQL's pool", async () => {
    const db = {
      kind: 'postgres',
      stats: () => ({ inFlight: 2, pool: { total: 3, idle: 1, waiting: 4, max: 10 } }),
    } as unknown as Db;
    const metrics = createMetrics({ db, logger: silentLogger });
    const text = await scrapeOf(metrics);
    expect(sample(text, 'portal_db_operations_in_flight')).toBe(2);
    expect(sample(text, 'portal_db_pool_connections')).toBe(3);
    expect(sample(text, 'portal_db_pool_idle_connections')).toBe(1);
    expect(sample(text, 'portal_db_pool_waiting_queries')).toBe(4);
    expect(sample(text, 'portal_db_pool_max_connections')).toBe(10);
    metrics.close();
  });

  it("shows the heavy-work queue's jobs and uploads, and times judgements by kind and outcome", async () => {
    const metrics = createMetrics({ db: { kind: 'pglite' } as unknown as Db, logger: silentLogger });
    const work = createHeavyWork({ slots: 1 });
    metrics.watchHeavyWork(work);
    let letGo = () => {};
    const held = work.run(() => new Promise<void>((resolve) => (letGo = resolve)));
    const behind = work.run(() => metrics.judgement('liveness', async () => 'judged'));
    const place = work.admit('someone');
    let text = await scrapeOf(metrics);
    expect(sample(text, 'portal_heavy_work_jobs{state="running"}')).toBe(1);
    expect(sample(text, 'portal_heavy_work_jobs{state="waiting"}')).toBe(1);
    expect(sample(text, 'portal_heavy_work_admitted_uploads')).toBe(1);
    expect(
      sample(text, 'portal_engine_judgement_duration_seconds_count{kind="liveness",outcome="judged"}'),
    ).toBe(0);

    letGo();
    await held;
    expect(await behind).toBe('judged');
    if (place.ok) place.release();
    await expect(
      metrics.judgement('portrayal', () => Promise.reject(new Error('engine down'))),
    ).rejects.toThrow('engine down');
    text = await scrapeOf(metrics);
    expect(sample(text, 'portal_heavy_work_jobs{state="running"}')).toBe(0);
    expect(sample(text, 'portal_heavy_work_admitted_uploads')).toBe(0);
    expect(
      sample(text, 'portal_engine_judgement_duration_seconds_count{kind="liveness",outcome="judged"}'),
    ).toBe(1);
    expect(
      sample(text, 'portal_engine_judgement_duration_seconds_count{kind="portrayal",outcome="failed"}'),
    ).toBe(1);
    expect(text).toContain(
      'portal_engine_judgement_duration_seconds_bucket{le="60",kind="liveness",outcome="judged"} 1',
    );

    // Closed, the server's own series are gone; the process figures are the process's.
    metrics.close();
    text = await scrapeOf(metrics);
    expect(text).not.toContain('portal_');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('compares the bearer with the token', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN} `, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN.slice(1)}`, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN} extra`, TOKEN)).toBe(false);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });
});
