import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../context';
import { makeProblem, problemResponse } from '../problem';

const DB_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Liveness and readiness probe; needs no tenant. */
export function healthRoutes(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/health', async (c) => {
    const version = deps.config.version;
    try {
      await withTimeout(deps.db.query('select 1'), DB_TIMEOUT_MS);
    } catch (error) {
      deps.logger.log('error', 'health check failed', { reqId: c.get('reqId'), err: String(error) });
      return problemResponse(makeProblem(503, 'The database does not answer.', 'db_unavailable'), {
        db: 'error',
        version,
      });
    }
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'ok', db: 'ok', version });
  });
}
