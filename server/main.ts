import { realpathSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
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
import { type BackgroundWork, createBackgroundWork } from './background';
import { type PublishedBackup, publishBackupAccess } from './backup/route';
import { clockFromEnv } from './clock';
import { configFromEnv, type ServerConfig } from './config';
import type { AppDeps } from './context';
import { type DataDirLock, lockDataDir } from './data-lock';
import type { Db } from './db/db';
import { migrate } from './db/migrate';
import { openDb } from './db/open-db';
import { seed } from './db/seed';
import { type DevRoutesPolicy, devRoutesPolicy } from './dev-routes';
import { makeProblem, PROBLEM_CONTENT_TYPE, problemJson } from './http/problem';
import { createLogger, errorField, type Logger, logUnexpected } from './logger';
import { createMetrics, type Metrics } from './metrics';
import type { OnboardingOptions } from './onboarding/options';
import { createKnownOrigins, type KnownOrigins } from './origins';
import { createRawHandlers, type RawHandlers } from './raw-handlers';
import { createReadiness, type Readiness } from './readiness';
import { quietFor, requestListener, type Traffic } from './request-listener';
import {
  QUIET_MS,
  REWRITE_CHECK_MS,
  REWRITE_WITHIN_MS,
  type RetentionJob,
  scheduleRetention,
} from './retention/job';
import { type LanListener, prepareLan } from './start-lan';
import { loadTenants } from './tenants';
import { VERSION } from './version';

export { readyBanner } from './banner';
export type { MountOptions, RawHandler, RawHandlers } from './raw-handlers';
export { createRawHandlers } from './raw-handlers';
export { lanBanner } from './start-lan';

/** SHUTDOWN_TIMEOUT's default (server/config.ts), for servers started without the environment (tests). */
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 20_000;

/**
 * How long an idle keep-alive connection stays open. The side that closes an idle connection races the other side
 * reusing it (the request meets a closed socket: ECONNRESET), so the server must keep it longer than its clients
 * do: Node's agents keep idle sockets 5 s or until the server closes them, browsers and proxies up to 60 s (nginx's
 * upstream keepalive, cloud load balancers). Node's own default is 5 s.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

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

/** The database of the server, with the data folder's lock held while it is open. */
interface OpenedDatabase {
  db: Db;
  /** The server keeps its data in a folder (PGlite), not in memory nor on PostgreSQL. */
  usesDataDir: boolean;
  /** Closes the database, then lets go of the data folder. */
  close(): Promise<void>;
}

async function openDatabase(
  options: StartServerOptions,
  tenants: readonly string[],
): Promise<OpenedDatabase> {
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
  const close = async () => {
    try {
      await db.close();
    } finally {
      lock?.release();
    }
  };
  return { db, usesDataDir, close };
}

/** What the app is made of besides the options: the parts startServer owns and closes. */
interface AppParts {
  db: Db;
  tenants: readonly string[];
  publicDir: string;
  logger: Logger;
  devRoutes: DevRoutesPolicy;
  rawHandlers: RawHandlers;
  readiness: Readiness;
  background: BackgroundWork;
  metrics: Metrics;
  /** The port the server listens on, once it does. */
  listeningPort: () => number | undefined;
}

/**
 * Migrates and seeds the database, then makes the identity providers, the app with its routes (the development
 * mailbox and terminal where allowed) and the raw /auth handler.
 */
async function assembleApp(
  options: StartServerOptions,
  parts: AppParts,
): Promise<{ app: App; origins: KnownOrigins }> {
  const { db, tenants, publicDir, logger } = parts;
  const migration = await migrate(db);
  const seeded = await seed(db, { isNewDb: migration.wasNew, nodeEnv: options.nodeEnv, tenants });
  logger.log('info', 'database ready', { kind: db.kind, applied: migration.applied, seed: seeded });
  // Logins shared from before the database refused them: said at every start until an administrator resolves them.
  await reportLoginClashes(db, logger);
  // Without PUBLIC_URL the origins are on the port the browser uses: PUBLIC_PORT, else the one we listen on.
  const origins = createKnownOrigins({
    publicUrls: options.publicUrls,
    tenants,
    port: () => options.publicPort ?? parts.listeningPort() ?? options.port ?? 8080,
    lanHost: options.lan?.host,
  });
  const trustProxy = options.trustProxy ?? false;
  const idp = createIdentityProviders({
    db,
    tenants,
    publicDir,
    logger,
    accessTokenTtl: options.accessTokenTtl ?? 300,
    trustProxy,
    origins,
  });
  const deps: AppDeps = {
    db,
    tenants,
    logger,
    auth: createApiAuth(idp),
    origins,
    trustProxy,
    readiness: parts.readiness,
    background: parts.background,
    metrics: parts.metrics,
    ...(options.onboarding ? { onboarding: options.onboarding } : {}),
    config: {
      distDir: options.distDir ?? 'dist',
      publicDir,
      serveSpa: options.serveSpa ?? true,
      version: VERSION,
    },
  };
  const app = createApp(deps);
  if (parts.devRoutes !== 'off') {
    app.route('/', mailboxRoutes(db));
    app.route('/', terminalRoutes(deps));
  }
  parts.rawHandlers.mount('/auth', createAuthHandler(idp, { trustProxy }));
  options.configureApp?.(app, deps);
  return { app, origins };
}

/** Binds the socket; rejects when the port is taken or the address is not this machine's. */
function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The periodic purge of data past its retention, when RETENTION_EVERY_MINUTES asks for one. */
function startRetention(
  options: StartServerOptions,
  parts: AppParts,
  traffic: Traffic,
): RetentionJob | undefined {
  const everyMs = (options.retentionEveryMinutes ?? 0) * 60_000;
  if (everyMs <= 0) return undefined;
  const { db, tenants, publicDir, logger, background } = parts;
  const served = quietFor(traffic, options.retentionQuietMs ?? QUIET_MS);
  // Quiet: no request for a while and no judgement still running after its answer.
  const quiet = () => served() && background.size() === 0;
  return scheduleRetention({
    db,
    tenants,
    publicDir,
    logger,
    clock: clockFromEnv(),
    everyMs,
    quiet,
    serving: () => traffic.served.inFlight > 0,
    rewriteWithinMs: options.retentionRewriteWithinMs ?? REWRITE_WITHIN_MS,
    checkEveryMs: options.retentionCheckMs ?? REWRITE_CHECK_MS,
  });
}

/** What stopping the server lets finish, and then closes. */
interface Stopping {
  server: Server;
  traffic: Traffic;
  background: BackgroundWork;
  retention: RetentionJob | undefined;
  backupAccess: () => PublishedBackup | undefined;
  closeDb: () => Promise<void>;
  metrics: Metrics;
  logger: Logger;
  timeoutMs: number;
}

/**
 * Lets the requests in flight and the work they started after their answer (the engine's judgements) finish, for
 * at most `timeoutMs`, then cuts what is still open.
 */
async function drain({ server, traffic, background, logger, timeoutMs }: Stopping): Promise<void> {
  const { inFlight } = traffic;
  if (inFlight.size === 0 && background.size() === 0) return;
  logger.log('info', 'stopping: finishing work in flight', {
    requests: inFlight.size,
    background: background.size(),
  });
  let timer: NodeJS.Timeout | undefined;
  const requestsDone =
    inFlight.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (traffic.onIdle = resolve));
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

/** The server's close(): stops accepting, drains, then closes the database and the metrics. Idempotent. */
function shutdown(stopping: Stopping): () => Promise<void> {
  const { server, traffic, logger } = stopping;
  let closed: Promise<void> | undefined;
  return () => {
    closed ??= (async () => {
      traffic.closing = true;
      // A purge in progress ends at its next batch, before the database closes.
      const retentionStopped = stopping.retention?.stop();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Responses not yet started will close their connection; idle keep-alive sockets go now.
      for (const res of traffic.inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      traffic.onRequestEnd = () => {
        server.closeIdleConnections();
        if (traffic.inFlight.size === 0) traffic.onIdle?.();
      };
      server.closeIdleConnections();
      await drain(stopping);
      await stopped;
      stopping.backupAccess()?.withdraw();
      await retentionStopped;
      // Waits for queries still running (even from requests cut above), then flushes and closes.
      await stopping.closeDb();
      stopping.metrics.close();
      logger.log('info', 'server stopped', {});
    })();
    return closed;
  };
}

/** Config → database → app → listen → background jobs; the running server and how to stop it. */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger({ nodeEnv: options.nodeEnv, level: options.logLevel });
  const publicDir = options.publicDir ?? 'public';
  const tenants = loadTenants(publicDir);
  if (tenants.length === 0) logger.log('warn', 'no tenants found', { publicDir });
  const host = options.host ?? '127.0.0.1';
  const trustProxy = options.trustProxy ?? false;
  const devRoutes = devRoutesPolicy({ nodeEnv: options.nodeEnv, host, devMailbox: options.devMailbox });

  const database = await openDatabase(options, tenants);
  const { db } = database;
  let listeningPort: number | undefined;
  const parts: AppParts = {
    db,
    tenants,
    publicDir,
    logger,
    devRoutes,
    rawHandlers: options.rawHandlers ?? createRawHandlers(),
    readiness: createReadiness(),
    background: createBackgroundWork(),
    metrics: createMetrics({ db, logger, token: options.metricsToken }),
    listeningPort: () => listeningPort,
  };
  let assembled: { app: App; origins: KnownOrigins };
  try {
    assembled = await assembleApp(options, parts);
  } catch (error) {
    await database.close();
    throw error;
  }
  const { app, origins } = assembled;

  // Published once the port is known; until then the path is the app's 404.
  let backupAccess: PublishedBackup | undefined;
  const traffic: Traffic = {
    inFlight: new Set(),
    closing: false,
    onIdle: undefined,
    onRequestEnd: undefined,
    served: { inFlight: 0, lastAt: performance.now() },
  };
  const listener = requestListener({
    ...parts,
    trustProxy,
    traffic,
    honoListener: getRequestListener(app.fetch, { errorHandler: adapterErrorAnswer(logger) }),
    backupAccess: () => backupAccess,
  });
  const server: Server = options.lan
    ? createHttpsServer({ key: options.lan.key, cert: options.lan.cert }, listener)
    : createServer(listener);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node's advice: longer than keepAliveTimeout, or a request whose headers come late on a reused socket is cut.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  try {
    await listen(server, options.port ?? 8080, options.listenHost ?? host);
  } catch (error) {
    await database.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  listeningPort = port;
  try {
    // The LAN origin is known only now (the port); a LAN_HOST whose name picks no tenant stops the start here.
    origins.all();
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await database.close();
    throw error;
  }
  // Only a data folder needs this server to copy it (PGlite is locked to it); PostgreSQL has pg_dump.
  if (database.usesDataDir)
    backupAccess = publishBackupAccess(options.dataDir as string, options.listenHost ?? host, port);

  const close = shutdown({
    server,
    traffic,
    background: parts.background,
    retention: startRetention(options, parts, traffic),
    backupAccess: () => backupAccess,
    closeDb: database.close,
    metrics: parts.metrics,
    logger,
    timeoutMs: options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
  });
  const ready = parts.readiness.ready();
  const url = options.lan ? `https://${options.lan.host}:${port}` : `http://localhost:${port}`;
  return { url, port, db, app, server, rawHandlers: parts.rawHandlers, origins, ready, close };
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
