import { Hono } from 'hono';
import type { AppDeps } from '../context';
import type { AppEnv } from '../http/env';
import { makeProblem, problemResponse } from '../http/problem';
import { ping } from './store';

const DB_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Liveness and readiness probe (503 `not_ready` while the engine's models load); needs no tenant. */
export function healthRoutes(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/health', async (c) => {
    const version = deps.config.version;
    try {
      await withTimeout(ping(deps.db), DB_TIMEOUT_MS);
    } catch (error) {
      deps.logger.log('error', 'health check failed', { reqId: c.get('reqId'), err: String(error) });
      return problemResponse(makeProblem(503, 'The database does not answer.', 'db_unavailable'), {
        db: 'error',
        version,
      });
    }
    c.header('Cache-Control', 'no-store');
    // Up but not ready: a balancer sends nothing here yet, and `npm start` says so until it is.
    const loading = deps.readiness?.pending() ?? [];
    if (loading.length > 0) {
      const res = problemResponse(makeProblem(503, `Starting: loading ${loading.join(', ')}.`, 'not_ready'), {
        loading,
        db: 'ok',
        version,
      });
      res.headers.set('Cache-Control', 'no-store');
      return res;
    }
    return c.json({ status: 'ok', db: 'ok', version });
  });
}
