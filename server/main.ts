import { realpathSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { getRequestListener, RequestError } from '@hono/node-server';
import { type App, createApp } from './app';
import { terminalRoutes } from './audit/terminal';
import { createAuthHandler } from './auth/handler';
import { reportLoginClashes } from './auth/logins';
import { mailboxRoutes } from './auth/mailbox';
import { createIdentityProviders } from './auth/provider';
import { createApiAuth } from './auth/verify';
import { createBackgroundWork } from './background';
import { BACKUP_PATH, publishBackupAccess, serveBackup } from './backup/route';
import { clockFromEnv } from './clock';
import { compressDynamic } from './compression';
import { configFromEnv, type ServerConfig } from './config';
import type { AppDeps } from './context';
import { type DataDirLock, lockDataDir } from './data-lock';
import type { Db } from './db/db';
import { migrate } from './db/migrate';
import { openDb } from './db/open-db';
import { seed } from './db/seed';
import { devRequestAllowed, devRoutesPolicy, isDevPath } from './dev-routes';
import { makeProblem, PROBLEM_CONTENT_TYPE, problemJson, sendRawError } from './http/problem';
import { createLogger, errorField, type Logger, logUnexpected } from './logger';
import { createMetrics, METRICS_PATH } from './metrics';
import type { OnboardingOptions } from './onboarding/options';
import { createKnownOrigins, type KnownOrigins } from './origins';
import { createRawHandlers, type RawHandlers, stripPrefix } from './raw-handlers';
import { createReadiness } from './readiness';
import { chooseRequestId, trustsIncomingId, withRequestId } from './request-context';
import { scheduleRetention } from './retention/job';
import {
  applySecurityHeaders,
  isHttpsRequest,
  isSubresourceAsset,
  STRICT_TRANSPORT_SECURITY,
} from './security-headers';
import { type LanListener, prepareLan } from './start-lan';
import { loadTenants } from './tenants';
import { VERSION } from './version';

export { readyBanner } from './banner';
export type { MountOptions, RawHandler, RawHandlers } from './raw-handlers';
export { createRawHandlers } from './raw-handlers';
export { lanBanner } from './start-lan';

/** SHUTDOWN_TIMEOUT's default (server/config.ts), for servers started without the environment (tests). */
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 20_000;
const DYNAMIC_PATH = /^\/(?:api|dev|health)(?:[/?]|$)/i;

export interface StartServerOptions extends Partial<ServerConfig> {
  logger?: Logger;
  /** Options of the onboarding API (the biometric engine…); from the environment when omitted. */
  onboarding?: OnboardingOptions;
  /** Raw node handlers by path prefix, consulted before Hono (the identity provider mounts here). */
  rawHandlers?: RawHandlers;
  /** Adds routes or middleware to the Hono app before the server listens. */
  configureApp?: (app: App, deps: AppDeps) => void;
  /**
   * The address the socket binds, when it must differ from `host`, which still decides everything else (the
   * development routes). Tests run a server configured as open to the network (`host: '0.0.0.0'`) on a loopback
   * address, so that nothing outside this machine can reach it while they run.
   */
  listenHost?: string;
  /**
   * Serve https with this key and certificate, and make https://<lan.host>:<port> the only known origin (npm run
   * start:lan, server/start-lan.ts). Plain http on the same port gets no answer: the connection closes.
   */
  lan?: LanListener;
}

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  app: App;
  server: Server;
  rawHandlers: RawHandlers;
  /** The origins it answers sign-in at (PUBLIC_URL, or localhost and <tenant>.localhost on its port). */
  origins: KnownOrigins;
  /** Resolves once start-up has loaded what it loads in the background (the engine's models): /health is 200. */
  ready: Promise<void>;
  /**
   * Stops accepting, lets in-flight requests and the work they started after their answer (the engine's judgements)
   * finish, for at most shutdownTimeoutMs, then closes the database. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * What the node adapter answers when a request fails outside the app: a malformed request target (bad host,
 * backslashes) gets a 400 problem instead of an empty 400; anything else escaped app.onError, a fault of the
 * server, logged and answered 500, never passed off as the client's.
 */
export function adapterErrorAnswer(logger: Logger): (error: unknown) => Response {
  return (error) => {
    const malformed = error instanceof RequestError;
    if (!malformed) logUnexpected(logger, 'unhandled error outside the app', { err: errorField(error) });
    const body = malformed
      ? makeProblem(400, 'Malformed request.')
      : makeProblem(500, 'An unexpected error occurred.', 'internal_error');
    return new Response(problemJson(body), {
      status: body.status,
      headers: { 'Content-Type': PROBLEM_CONTENT_TYPE },
    });
  };
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger({ nodeEnv: options.nodeEnv, level: options.logLevel });
  const publicDir = options.publicDir ?? 'public';
  const tenants = loadTenants(publicDir);
  if (tenants.length === 0) logger.log('warn', 'no tenants found', { publicDir });

  const host = options.host ?? '127.0.0.1';
  const devRoutes = devRoutesPolicy({ nodeEnv: options.nodeEnv, host, devMailbox: options.devMailbox });
  const usesDataDir =
    !options.databaseUrl && options.dataDir !== undefined && options.dataDir !== 'memory://';
  const lock: DataDirLock | undefined = usesDataDir ? lockDataDir(options.dataDir as string) : undefined;
  let db: Db;
  try {
    db = await openDb({
      databaseUrl: options.databaseUrl,
      dataDir: options.dataDir,
      purpose: { tenants, nodeEnv: options.nodeEnv },
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const closeDb = async () => {
    try {
      await db.close();
    } finally {
      lock?.release();
    }
  };
  let app: App;
  // Without PUBLIC_URL the origins are on the port the browser uses: PUBLIC_PORT, else the one we listen on.
  let listeningPort: number | undefined;
  let origins: KnownOrigins;
  const rawHandlers = options.rawHandlers ?? createRawHandlers();
  const readiness = createReadiness();
  const background = createBackgroundWork();
  const metrics = createMetrics({ db, logger, token: options.metricsToken });
  try {
    const migration = await migrate(db);
    const seeded = await seed(db, { isNewDb: migration.wasNew, nodeEnv: options.nodeEnv, tenants });
    logger.log('info', 'database ready', { kind: db.kind, applied: migration.applied, seed: seeded });
    // Logins shared from before the database refused them: said at every start until an administrator resolves them.
    await reportLoginClashes(db, logger);
    origins = createKnownOrigins({
      publicUrls: options.publicUrls,
      tenants,
      port: () => options.publicPort ?? listeningPort ?? options.port ?? 8080,
      lanHost: options.lan?.host,
    });
    const idp = createIdentityProviders({
      db,
      tenants,
      publicDir,
      logger,
      accessTokenTtl: options.accessTokenTtl ?? 300,
      trustProxy: options.trustProxy ?? false,
      origins,
    });
    const deps: AppDeps = {
      db,
      tenants,
      logger,
      auth: createApiAuth(idp),
      origins,
      trustProxy: options.trustProxy ?? false,
      readiness,
      background,
      metrics,
      ...(options.onboarding ? { onboarding: options.onboarding } : {}),
      config: {
        distDir: options.distDir ?? 'dist',
        publicDir,
        serveSpa: options.serveSpa ?? true,
        version: VERSION,
      },
    };
    app = createApp(deps);
    if (devRoutes !== 'off') {
      app.route('/', mailboxRoutes(db));
      app.route('/', terminalRoutes(deps));
    }
    rawHandlers.mount('/auth', createAuthHandler(idp, { trustProxy: options.trustProxy ?? false }));
    options.configureApp?.(app, deps);
  } catch (error) {
    await closeDb();
    throw error;
  }

  const honoListener = getRequestListener(app.fetch, { errorHandler: adapterErrorAnswer(logger) });

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

  // Published once the port is known; until then the path is the app's 404.
  let backupAccess: ReturnType<typeof publishBackupAccess> | undefined;
  const inFlight = new Set<ServerResponse>();
  let closing = false;
  let onIdle: (() => void) | undefined;

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    inFlight.add(res);
    metrics.track(req, res);
    // Named before anything runs, so that the raw handlers, the app and whatever either starts (the engine's queue,
    // a judgement after the answer) log and answer with the same id (request-context.ts).
    const reqId = chooseRequestId(
      req.headers['x-request-id'],
      trustsIncomingId(options.trustProxy ?? false, req.socket.remoteAddress),
    );
    res.setHeader('X-Request-Id', reqId);
    // An 'error' on a request's own streams with no listener would end the process (a handler writing after the
    // end, a stream it handed on that fails later, a client gone mid-upload): each is logged with the request's
    // id instead, and the process goes on.
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
    res.on('close', () => {
      inFlight.delete(res);
      if (closing) {
        server.closeIdleConnections();
        if (inFlight.size === 0) onIdle?.();
      }
    });
    // Set before any handler so raw handlers and adapter-level errors carry them too; handlers may override.
    // A hashed script or stylesheet gets nosniff only (Hono's middleware puts the full set back on a miss).
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    applySecurityHeaders(res, isSubresourceAsset(pathname));
    if (isHttpsRequest(req, options.trustProxy ?? false))
      res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    if (closing) res.setHeader('Connection', 'close');
    withRequestId(reqId, () => route(req, res, reqId, pathname));
  };

  const route = (req: IncomingMessage, res: ServerResponse, reqId: string, pathname: string): void => {
    if (isDevPath(pathname) && !devRequestAllowed(devRoutes, req)) {
      sendRawError(res, 404, 'Not found.');
      return;
    }
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
    const mount = rawHandlers.match(req);
    if (!mount) {
      // Static files choose their own coding (server/static-files.ts); the API and dev pages are dynamic.
      if (DYNAMIC_PATH.test(req.url ?? '')) compressDynamic(req, res);
      void honoListener(req, res);
      return;
    }
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
  };

  const server: Server = options.lan
    ? createHttpsServer({ key: options.lan.key, cert: options.lan.cert }, listener)
    : createServer(listener);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8080, options.listenHost ?? host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await closeDb();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  listeningPort = port;
  try {
    // The LAN origin is known only now (the port); a LAN_HOST whose name picks no tenant stops the start here.
    origins.all();
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await closeDb();
    throw error;
  }
  // Only a data folder needs this server to copy it (PGlite is locked to it); PostgreSQL has pg_dump.
  if (usesDataDir)
    backupAccess = publishBackupAccess(options.dataDir as string, options.listenHost ?? host, port);

  const retentionEveryMs = (options.retentionEveryMinutes ?? 0) * 60_000;
  const retention =
    retentionEveryMs > 0
      ? scheduleRetention({
          db,
          tenants,
          publicDir,
          logger,
          clock: clockFromEnv(),
          everyMs: retentionEveryMs,
        })
      : undefined;

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      closing = true;
      // A purge in progress ends at its next batch, before the database closes.
      const retentionStopped = retention?.stop();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Responses not yet started will close their connection; idle keep-alive sockets go now.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      server.closeIdleConnections();
      if (inFlight.size > 0 || background.size() > 0) {
        logger.log('info', 'stopping: finishing work in flight', {
          requests: inFlight.size,
          background: background.size(),
        });
        const timeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
        let timer: NodeJS.Timeout | undefined;
        const requestsDone =
          inFlight.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (onIdle = resolve));
        // The requests first: one still running may start a judgement after its answer.
        await Promise.race([
          requestsDone.then(() => background.idle()),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
        ]);
        clearTimeout(timer);
        if (inFlight.size > 0 || background.size() > 0) {
          logger.log('warn', 'shutdown timeout: closing open connections', {
            open: inFlight.size,
            background: background.size(),
          });
          server.closeAllConnections();
        }
      }
      await stopped;
      backupAccess?.withdraw();
      await retentionStopped;
      // Waits for queries still running (even from requests cut above), then flushes and closes.
      await closeDb();
      metrics.close();
      logger.log('info', 'server stopped', {});
    })();
    return closed;
  };

  const ready = readiness.ready();
  const url = options.lan ? `https://${options.lan.host}:${port}` : `http://localhost:${port}`;
  return { url, port, db, app, server, rawHandlers, origins, ready, close };
}

/**
 * `npm run server` / `npm start`: configuration from the environment, stop on SIGTERM or SIGINT. With `--lan`
 * (npm run start:lan), https on the network address (server/start-lan.ts).
 */
export async function main(args: readonly string[] = process.argv.slice(2)): Promise<RunningServer> {
  const config = configFromEnv();
  let lan: LanListener | undefined;
  if (args.includes('--lan')) {
    const prepared = await prepareLan(config, process.env);
    for (const line of prepared.lines) process.stdout.write(`${line}\n`);
    // Listens on the LAN address; HOST=0.0.0.0 also lets this machine use https://localhost (the mailbox).
    lan = prepared.lan;
    config.host = process.env.HOST || lan.host;
  }
  const running = await startServer({ ...config, ...(lan ? { lan } : {}) });
  process.stdout.write(`Portal listening on ${running.url}\n`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A second signal means the operator does not want to wait.
      process.exit(1);
    }
    stopping = true;
    process.stdout.write(`${signal} received, shutting down\n`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return running;
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
