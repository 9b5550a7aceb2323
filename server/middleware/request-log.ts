import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context';
import type { Logger } from '../logger';

// A caller's id is kept only when it is harmless to echo back and to log.
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The request id of each node request Hono has seen, for what happens on its streams outside Hono (main.ts). */
const idsOfIncoming = new WeakMap<IncomingMessage, string>();

/** The request id given to a node request, once Hono has seen it. */
export const requestIdOf = (incoming: IncomingMessage): string | undefined => idsOfIncoming.get(incoming);

/** One structured line per request: time, level, msg, method, path, status, ms, tenant, reqId. */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const reqId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.set('reqId', reqId);
    const node = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (node) idsOfIncoming.set(node, reqId);
    await next();
    c.res.headers.set('X-Request-Id', reqId);
    const status = c.res.status;
    logger.log(status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info', 'request', {
      method: c.req.method,
      path: c.req.path,
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      tenant: c.get('tenant') ?? null,
      reqId,
    });
  };
}
