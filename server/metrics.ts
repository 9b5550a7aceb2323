// What an operator watches (GET /metrics, Prometheus' text format, through prom-client): the requests by route
// template, method and status with their latency; the heavy-work queue and the engine's judgements; the database;
// the process. Each server has its own registry, so that a process running several servers (the tests) neither
// mixes their counts nor fails on a metric registered twice.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db, PoolStats } from './db/db';
import { fromThisMachine } from './dev-routes';
import type { AppEnv } from './http/env';
import { sendRawError } from './http/problem';
import { errorField, type Logger, logUnexpected } from './logger';
import type { HeavyWork } from './onboarding/heavy-work';

export const METRICS_PATH = '/metrics';
/** The route of a request no route answered: its raw path would make a series per path anyone cares to send. */
export const UNMATCHED = 'unmatched';
/** The status of a request whose client went away before any answer (nginx's convention). */
const CLIENT_GONE = '499';
/** From a static file or a health check (a few ms) to the largest uploads on a busy machine. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A judgement takes from a fraction of a second (a face) to tens of seconds (a document's OCR on a busy machine). */
const JUDGEMENT_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60];
/** Anything else is counted as `other`: a method is the client's word, and each would be a series. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** `portrayal`: the document read and the faces compared; `liveness`: a liveness proof judged. */
export type JudgementKind = 'portrayal' | 'liveness';

export interface Metrics {
  /** Counts a request of the node listener when it ends (answered, or its client gone). Called first. */
  track(req: IncomingMessage, res: ServerResponse): void;
  /** Names the route of a request answered outside Hono (the identity provider's mount, /metrics). */
  nameRoute(req: IncomingMessage, route: string): void;
  /** First middleware of the app: names the request by the route pattern that answered it. */
  readonly routeNames: MiddlewareHandler<AppEnv>;
  /** Shows this queue's jobs and admitted uploads. */
  watchHeavyWork(work: HeavyWork): void;
  /** Runs one judgement of the engine and records how long it took. */
  judgement<T>(kind: JudgementKind, job: () => Promise<T>): Promise<T>;
  /** GET /metrics, under the access rule: METRICS_TOKEN's bearer, or without one a caller at this machine. */
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Empties the registry and lets go of the queues it watched. */
  close(): void;
}

export interface MetricsOptions {
  db: Db;
  logger: Logger;
  /** METRICS_TOKEN. */
  token?: string | undefined;
}

let processFigures: Registry | undefined;

/**
 * prom-client's default metrics (CPU, memory, handles, event loop lag, GC) describe the whole process, and what
 * collectDefaultMetrics starts cannot be stopped (a GC observer and an event-loop delay monitor, with no handle to
 * either): collected once per process into a registry of their own that every server's scrape includes, so that
 * starting and closing servers leaves no observers behind.
 */
function processRegistry(): Registry {
  if (!processFigures) {
    processFigures = new Registry();
    collectDefaultMetrics({ register: processFigures });
  }
  return processFigures;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The bearer of an Authorization header equals the token, compared in constant time (equal-length digests). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/**
 * Refuses a scrape the caller may not make, and says so. Without a token the metrics are this machine's business,
 * and to anyone else there is nothing here (as for the development routes); with one, the caller is told a bearer
 * is what it lacks.
 */
function refusedScrape(req: IncomingMessage, res: ServerResponse, token: string | undefined): boolean {
  if (token === undefined ? fromThisMachine(req) : bearerMatches(req.headers.authorization, token))
    return false;
  if (token === undefined) sendRawError(res, 404, 'Not found.');
  else {
    const wrong = req.headers.authorization !== undefined;
    sendRawError(res, 401, 'The metrics need the bearer token.', 'unauthorized', {
      'WWW-Authenticate': wrong ? 'Bearer realm="metrics", error="invalid_token"' : 'Bearer realm="metrics"',
    });
  }
  return true;
}

/** The gauges of the load a scrape reads when it happens: the heavy-work queues, the database and its pool. */
function registerLoadGauges(registers: Registry[], queues: Set<HeavyWork>, db: MetricsOptions['db']) {
  const sumOfQueues = (pick: (stats: ReturnType<HeavyWork['stats']>) => number) =>
    [...queues].reduce((sum, work) => sum + pick(work.stats()), 0);
  new Gauge({
    name: 'portal_heavy_work_jobs',
    help: 'Jobs of the heavy-work queue (image decoding, engine judgements): running in a slot, or waiting for one.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set(
        { state: 'running' },
        sumOfQueues((stats) => stats.running),
      );
      this.set(
        { state: 'waiting' },
        sumOfQueues((stats) => stats.queued),
      );
    },
  });
  new Gauge({
    name: 'portal_heavy_work_admitted_uploads',
    help: 'Uploads holding a place in the heavy-work queue (past its limit the next one is answered 429 busy).',
    registers,
    collect() {
      this.set(sumOfQueues((stats) => stats.admitted));
    },
  });

  new Gauge({
    name: 'portal_db_operations_in_flight',
    help: 'Database queries and transactions started and not finished (running, or waiting for a connection).',
    registers,
    collect() {
      this.set(db.stats?.().inFlight ?? 0);
    },
  });
  // PGlite is one connection inside the process: a pool exists only on PostgreSQL.
  if (db.stats?.().pool) {
    const pool = (help: string, name: string, pick: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const stats = db.stats?.().pool;
          if (stats) this.set(pick(stats));
        },
      });
    pool('Connections the pool holds open, busy or idle.', 'portal_db_pool_connections', (s) => s.total);
    pool('Open connections no query is using.', 'portal_db_pool_idle_connections', (s) => s.idle);
    pool(
      'Queries waiting for a connection because every one is busy.',
      'portal_db_pool_waiting_queries',
      (s) => s.waiting,
    );
    pool('The most connections the pool opens.', 'portal_db_pool_max_connections', (s) => s.max);
  }
}

export function createMetrics(options: MetricsOptions): Metrics {
  const { db, logger, token } = options;
  const registry = new Registry();
  const registers = [registry];
  const routes = new WeakMap<IncomingMessage, string>();
  const queues = new Set<HeavyWork>();

  const labelNames = ['route', 'method', 'status'] as const;
  const requests = new Counter({
    name: 'portal_http_requests_total',
    help: 'Requests answered, by route template (unmatched: no route), method and status.',
    labelNames,
    registers,
  });
  const durations = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer ending, by route template, method and status.',
    labelNames,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const judgements = new Histogram({
    name: 'portal_engine_judgement_duration_seconds',
    help: 'Time the biometric engine took for one judgement (after its turn in the heavy-work queue), by kind and outcome (failed: the engine threw).',
    labelNames: ['kind', 'outcome'] as const,
    buckets: JUDGEMENT_BUCKETS,
    registers,
  });
  for (const kind of ['portrayal', 'liveness'] as const) judgements.zero({ kind, outcome: 'judged' });

  registerLoadGauges(registers, queues, db);

  const answer = async (res: ServerResponse, head: boolean) => {
    const scrape = Registry.merge([processRegistry(), registry]);
    const body = await scrape.metrics();
    res.statusCode = 200;
    res.setHeader('Content-Type', scrape.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(head ? undefined : body);
  };

  return {
    track(req, res) {
      const started = performance.now();
      res.once('close', () => {
        const method = req.method && METHODS.has(req.method) ? req.method : 'other';
        const labels = {
          route: routes.get(req) ?? UNMATCHED,
          method,
          status: res.headersSent ? String(res.statusCode) : CLIENT_GONE,
        };
        requests.inc(labels);
        durations.observe(labels, (performance.now() - started) / 1000);
      });
    },

    nameRoute(req, route) {
      routes.set(req, route);
    },

    routeNames: async (c, next) => {
      await next();
      const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
      if (!incoming) return;
      // After the chain, Hono's route index is the handler that answered (or threw); a request that reached the
      // app's notFound matched only middleware.
      routes.set(incoming, c.get('unmatched') ? UNMATCHED : routePath(c) || UNMATCHED);
    },

    watchHeavyWork(work) {
      queues.add(work);
    },

    async judgement(kind, job) {
      const end = judgements.startTimer({ kind });
      try {
        const result = await job();
        end({ outcome: 'judged' });
        return result;
      } catch (failure) {
        end({ outcome: 'failed' });
        throw failure;
      }
    },

    async serve(req, res) {
      if (refusedScrape(req, res, token)) return;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendRawError(res, 405, 'Method not allowed.', undefined, { Allow: 'GET, HEAD' });
        return;
      }
      try {
        await answer(res, req.method === 'HEAD');
      } catch (error) {
        logUnexpected(logger, 'metrics failed', { err: errorField(error) });
        sendRawError(res, 500, 'An unexpected error occurred.', 'internal_error');
      }
    },

    close() {
      queues.clear();
      registry.clear();
    },
  };
}
