// The node request listener in front of the app: names each request, sets the security headers every answer
// carries, counts what is in flight for a graceful stop, and sends each path to its handler (the backup, the
// metrics, a raw handler such as the identity provider, or the Hono app).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BACKUP_PATH, type PublishedBackup, serveBackup } from './backup/route';
import { compressDynamic } from './compression';
import type { Db } from './db/db';
import { type DevRoutesPolicy, devRequestAllowed, isDevPath } from './dev-routes';
import { sendRawError } from './http/problem';
import { errorField, type Logger, logUnexpected } from './logger';
import { METRICS_PATH, type Metrics } from './metrics';
import { type RawHandlers, stripPrefix } from './raw-handlers';
import { chooseRequestId, trustsIncomingId, withRequestId } from './request-context';
import {
  applySecurityHeaders,
  isHttpsRequest,
  isSubresourceAsset,
  STRICT_TRANSPORT_SECURITY,
} from './security-headers';

const DYNAMIC_PATH = /^\/(?:api|dev|health)(?:[/?]|$)/i;

/**
 * A client that goes away mid-request: expected, not a fault of the server. ABORT_ERR is the request body's
 * reader giving up on a connection the client closed.
 */
const CLIENT_GONE = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ABORT_ERR',
]);

/** The requests in flight, and whether the server is stopping (answers then close their connection). */
export interface Traffic {
  readonly inFlight: Set<ServerResponse>;
  closing: boolean;
  /** While stopping: called when a request ends. */
  onRequestEnd: (() => void) | undefined;
  /** While stopping: called when the last request in flight has ended. */
  onIdle: (() => void) | undefined;
  /**
   * The requests in flight and when (performance.now()) the last one started or ended, health checks and metrics
   * scrapes aside: a load balancer's probes come every few seconds whether or not anyone uses the portal. The
   * retention purge rewrites the embedded database's tables only once these say the server is quiet.
   */
  served: { inFlight: number; lastAt: number };
}

/** A load balancer's or a monitor's probe, not a person's request. */
const isProbe = (pathname: string) => pathname === '/health' || pathname === METRICS_PATH;

/** True when no request but probes has been in flight for `ms`. */
export const quietFor = (traffic: Traffic, ms: number) => () =>
  traffic.served.inFlight === 0 && performance.now() - traffic.served.lastAt >= ms;

export interface ListenerParts {
  db: Db;
  logger: Logger;
  metrics: Metrics;
  rawHandlers: RawHandlers;
  devRoutes: DevRoutesPolicy;
  trustProxy: boolean;
  traffic: Traffic;
  /** The Hono app as a node listener. */
  honoListener: (req: IncomingMessage, res: ServerResponse) => unknown;
  /** The backup's access key, once the server publishes it. */
  backupAccess: () => PublishedBackup | undefined;
}

/**
 * An 'error' on a request's own streams with no listener would end the process (a handler writing after the
 * end, a stream it handed on that fails later, a client gone mid-upload): each is logged with the request's id
 * instead, and the process goes on.
 */
function logStreamErrors(logger: Logger, req: IncomingMessage, res: ServerResponse, reqId: string): void {
  const onStreamError = (stream: 'request' | 'response') => (error: unknown) => {
    const fields = {
      reqId,
      method: req.method,
      path: new URL(req.url ?? '/', 'http://localhost').pathname,
      stream,
      err: errorField(error),
    };
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && CLIENT_GONE.has(code)) logger.log('info', 'client went away', fields);
    else logUnexpected(logger, 'error on a request stream', fields);
  };
  req.on('error', onStreamError('request'));
  res.on('error', onStreamError('response'));
}

/** A raw handler's request: one log line when it ends, its errors answered 500. */
function serveRaw(
  parts: ListenerParts,
  mount: NonNullable<ReturnType<RawHandlers['match']>>,
  request: { req: IncomingMessage; res: ServerResponse; reqId: string; pathname: string },
): void {
  const { logger, metrics } = parts;
  const { req, res, reqId, pathname } = request;
  // The identity provider's paths hold tenants, uids and codes: one fixed label per mount keeps the series few.
  metrics.nameRoute(req, mount.prefix === '/' ? '/*' : `${mount.prefix}/*`);
  const started = performance.now();
  res.on('finish', () => {
    logger.log(res.statusCode >= 500 ? 'error' : 'info', 'request', {
      method: req.method,
      path: pathname,
      status: res.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
      tenant: null,
      reqId,
    });
  });
  compressDynamic(req, res);
  if (mount.stripPrefix) stripPrefix(req, mount.prefix);
  Promise.resolve()
    .then(() => mount.handler(req, res))
    .catch((error: unknown) => {
      logUnexpected(logger, 'raw handler failed', { reqId, path: pathname, err: errorField(error) });
      sendRawError(res, 500, 'An unexpected error occurred.');
    });
}

/** Sends a request to what serves its path. */
function route(
  parts: ListenerParts,
  req: IncomingMessage,
  res: ServerResponse,
  reqId: string,
  pathname: string,
): void {
  const { db, logger, metrics } = parts;
  if (isDevPath(pathname) && !devRequestAllowed(parts.devRoutes, req)) {
    sendRawError(res, 404, 'Not found.');
    return;
  }
  const backupAccess = parts.backupAccess();
  if (pathname === BACKUP_PATH && backupAccess) {
    metrics.nameRoute(req, BACKUP_PATH);
    serveBackup(req, res, { db, key: backupAccess.key, logger }).catch((error: unknown) => {
      logger.log('warn', 'backup not delivered', { reqId, err: errorField(error) });
      res.destroy();
    });
    return;
  }
  if (pathname === METRICS_PATH) {
    metrics.nameRoute(req, METRICS_PATH);
    compressDynamic(req, res);
    void metrics.serve(req, res);
    return;
  }
  const mount = parts.rawHandlers.match(req);
  if (mount) {
    serveRaw(parts, mount, { req, res, reqId, pathname });
    return;
  }
  // Static files choose their own coding (server/static-files.ts); the API and dev pages are dynamic.
  if (DYNAMIC_PATH.test(req.url ?? '')) compressDynamic(req, res);
  void parts.honoListener(req, res);
}

export function requestListener(parts: ListenerParts): (req: IncomingMessage, res: ServerResponse) => void {
  const { traffic } = parts;
  return (req, res) => {
    traffic.inFlight.add(res);
    parts.metrics.track(req, res);
    // Named before anything runs, so that the raw handlers, the app and whatever either starts (the engine's
    // queue, a judgement after the answer) log and answer with the same id (request-context.ts).
    const reqId = chooseRequestId(
      req.headers['x-request-id'],
      trustsIncomingId(parts.trustProxy, req.socket.remoteAddress),
    );
    res.setHeader('X-Request-Id', reqId);
    logStreamErrors(parts.logger, req, res, reqId);
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const served = isProbe(pathname) ? undefined : traffic.served;
    if (served) {
      served.inFlight++;
      served.lastAt = performance.now();
    }
    res.on('close', () => {
      traffic.inFlight.delete(res);
      if (served) {
        served.inFlight--;
        served.lastAt = performance.now();
      }
      traffic.onRequestEnd?.();
    });
    // Set before any handler so raw handlers and adapter-level errors carry them too; handlers may override.
    // A hashed script or stylesheet gets nosniff only (Hono's middleware puts the full set back on a miss).
    applySecurityHeaders(res, isSubresourceAsset(pathname));
    if (isHttpsRequest(req, parts.trustProxy))
      res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    if (traffic.closing) res.setHeader('Connection', 'close');
    withRequestId(reqId, () => route(parts, req, res, reqId, pathname));
  };
}
