import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/env';
import type { Logger } from '../logger';
import { chooseRequestId, currentRequestId, trustsIncomingId, withRequestId } from '../request-context';

export interface RequestLogOptions {
  /** TRUST_PROXY: a proxy's X-Request-Id is kept (request-context.ts). */
  trustProxy?: boolean;
}

/**
 * One structured line per request: time, level, msg, method, path, status, ms, tenant, reqId. The node listener
 * (main.ts) has usually named the request already; a request handed to the app directly (tests, app.request) is
 * named here, by the same rule.
 */
export function requestLog(logger: Logger, options: RequestLogOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const node = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const reqId =
      currentRequestId() ??
      chooseRequestId(
        c.req.header('x-request-id'),
        trustsIncomingId(options.trustProxy ?? false, node?.socket.remoteAddress),
      );
    c.set('reqId', reqId);
    await (currentRequestId() === reqId ? next() : withRequestId(reqId, next));
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
