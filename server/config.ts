import { resolve } from 'node:path';
import { parsePublicUrls } from './origins';
import { QUIET_MS, REWRITE_CHECK_MS, REWRITE_WITHIN_MS } from './retention/job';

export interface ServerConfig {
  port: number;
  host: string;
  /** PGlite data folder; undefined or 'memory://' keeps the database in memory. */
  dataDir: string | undefined;
  /** When set, PostgreSQL through pg instead of PGlite. */
  databaseUrl: string | undefined;
  nodeEnv: string | undefined;
  logLevel: string | undefined;
  distDir: string;
  publicDir: string;
  serveSpa: boolean;
  /** TRUST_PROXY=1: a reverse proxy in front says how the browser connected (X-Forwarded-Proto). */
  trustProxy: boolean;
  /** DEV_MAILBOX=1: keep the development routes (loopback callers only) when HOST is not loopback. */
  devMailbox: boolean;
  /** Access-token lifetime of the development identity provider, in seconds (ACCESS_TOKEN_TTL). */
  accessTokenTtl: number;
  /** PUBLIC_URL: the origins the portal is served at (server/origins.ts); undefined: the localhost ones. */
  publicUrls: string[] | undefined;
  /** PUBLIC_PORT: the port of the default origins when the browser uses another than PORT (npm run dev). */
  publicPort: number | undefined;
  /** LIVENESS_ACTIONS: the actions a liveness challenge is drawn from (default: all of LIVENESS_ACTIONS). */
  livenessActions: LivenessAction[];
  /**
   * SHUTDOWN_TIMEOUT (seconds, default 20): how long stopping lets the requests in flight and the work they started
   * (the engine's judgements) finish before cutting them.
   */
  shutdownTimeoutMs: number;
  /**
   * METRICS_TOKEN: when set, /metrics answers only `Authorization: Bearer <token>`, from anywhere; unset, only a
   * caller on this machine (server/metrics.ts).
   */
  metricsToken: string | undefined;
  /**
   * RETENTION_EVERY_MINUTES (default 60; 0: never): how often the retention purge runs (server/retention/job.ts).
   * A server started without it (tests) runs none.
   */
  retentionEveryMinutes: number;
  /**
   * RETENTION_QUIET_SECONDS (default 60): how long the server must have served no request for the embedded database
   * to rewrite the purged tables (docs/operations.md#retention).
   */
  retentionQuietMs: number;
  /**
   * RETENTION_REWRITE_WITHIN_HOURS (default 24): the embedded database rewrites the purged tables at the latest this
   * long after the run that deleted, quiet or not.
   */
  retentionRewriteWithinMs: number;
  /** RETENTION_CHECK_SECONDS (default 15): how often the server asks whether the tables may be rewritten now. */
  retentionCheckMs: number;
}

/** Every action a liveness challenge can ask for (spec §7 challenges). */
export const LIVENESS_ACTIONS = [
  'turn_left',
  'turn_right',
  'blink',
  'smile',
  'look_up',
  'look_down',
] as const;
export type LivenessAction = (typeof LIVENESS_ACTIONS)[number];

/**
 * LIVENESS_ACTIONS, comma-separated: the actions challenges are drawn from, at least two different ones (a
 * challenge never asks the same action twice in a row). Empty or unset: all six. An unknown action stops the
 * server at start-up rather than drawing challenges nobody can answer.
 */
export function parseLivenessActions(value: string | undefined): LivenessAction[] {
  const names = [
    ...new Set(
      (value ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 0) return [...LIVENESS_ACTIONS];
  const unknown = names.filter((name) => !(LIVENESS_ACTIONS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `LIVENESS_ACTIONS names unknown actions (${unknown.join(', ')}); the known ones are ${LIVENESS_ACTIONS.join(', ')}`,
    );
  }
  if (names.length < 2) {
    throw new Error(`LIVENESS_ACTIONS needs at least two different actions: ${value}`);
  }
  return names as LivenessAction[];
}

function parsePort<T extends number | undefined>(
  value: string | undefined,
  fallback: T,
  name = 'PORT',
): number | T {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} is not a port: ${value}`);
  return port;
}

function parseBool(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new Error(`${name} must be true or false: ${value}`);
}

function parseShutdownTimeout(value: string | undefined): number {
  if (value === undefined || value === '') return 20_000;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600) {
    throw new Error(`SHUTDOWN_TIMEOUT must be seconds from 0 to 3600: ${value}`);
  }
  return Math.round(seconds * 1000);
}

/**
 * A bearer token is sent in a header: only RFC 6750's token characters, and long enough that guessing it over the
 * network is hopeless (`openssl rand -hex 32` makes one).
 */
function parseMetricsToken(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[A-Za-z0-9._~+/-]+=*$/.test(value) || value.length < 16) {
    throw new Error(
      'METRICS_TOKEN must be at least 16 characters of A-Z a-z 0-9 - . _ ~ + / (openssl rand -hex 32)',
    );
  }
  return value;
}

function parseTtl(value: string | undefined): number {
  if (value === undefined || value === '') return 300;
  const ttl = Number(value);
  if (!Number.isInteger(ttl) || ttl < 10 || ttl > 86_400) {
    throw new Error(`ACCESS_TOKEN_TTL must be whole seconds from 10 to 86400: ${value}`);
  }
  return ttl;
}

function parseRetentionEvery(value: string | undefined): number {
  if (value === undefined || value === '') return 60;
  const minutes = Number(value);
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > 10_080) {
    throw new Error(
      `RETENTION_EVERY_MINUTES must be whole minutes from 0 (never) to 10080 (a week): ${value}`,
    );
  }
  return minutes;
}

/**
 * A whole number of `unit`s from `min` to `max` (the setting's name and its words in the refusal), in milliseconds;
 * unset or empty: `fallbackMs`.
 */
function parseDuration(
  name: string,
  value: string | undefined,
  {
    fallbackMs,
    unit,
    unitMs,
    min,
    max,
  }: { fallbackMs: number; unit: string; unitMs: number; min: number; max: number },
): number {
  if (value === undefined || value === '') return fallbackMs;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be whole ${unit} from ${min} to ${max}: ${value}`);
  }
  return n * unitMs;
}

/** Reads the environment; relative folders resolve against the working directory. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  const dataDir = env.DATA_DIR || '.data';
  return {
    port: parsePort(env.PORT, 8080),
    // Only this machine can reach a new server; HOST=0.0.0.0 opens it to the network on purpose.
    host: env.HOST || '127.0.0.1',
    dataDir: dataDir === 'memory://' ? dataDir : resolve(cwd, dataDir),
    databaseUrl: env.DATABASE_URL || undefined,
    nodeEnv: env.NODE_ENV || undefined,
    logLevel: env.LOG_LEVEL || undefined,
    distDir: resolve(cwd, env.DIST_DIR || 'dist'),
    publicDir: resolve(cwd, env.PUBLIC_DIR || 'public'),
    serveSpa: parseBool('SERVE_SPA', env.SERVE_SPA, true),
    devMailbox: parseBool('DEV_MAILBOX', env.DEV_MAILBOX, false),
    trustProxy: parseBool('TRUST_PROXY', env.TRUST_PROXY, false),
    accessTokenTtl: parseTtl(env.ACCESS_TOKEN_TTL),
    publicUrls: parsePublicUrls(env.PUBLIC_URL),
    publicPort: parsePort(env.PUBLIC_PORT, undefined, 'PUBLIC_PORT'),
    livenessActions: parseLivenessActions(env.LIVENESS_ACTIONS),
    shutdownTimeoutMs: parseShutdownTimeout(env.SHUTDOWN_TIMEOUT),
    metricsToken: parseMetricsToken(env.METRICS_TOKEN),
    retentionEveryMinutes: parseRetentionEvery(env.RETENTION_EVERY_MINUTES),
    // A day of quiet at most: a longer one would leave every rewrite to the limit.
    retentionQuietMs: parseDuration('RETENTION_QUIET_SECONDS', env.RETENTION_QUIET_SECONDS, {
      fallbackMs: QUIET_MS,
      unit: 'seconds',
      unitMs: 1000,
      min: 1,
      max: 86_400,
    }),
    // The guarantee to a tenant's DPO is this plus the purge interval: a week at most.
    retentionRewriteWithinMs: parseDuration(
      'RETENTION_REWRITE_WITHIN_HOURS',
      env.RETENTION_REWRITE_WITHIN_HOURS,
      {
        fallbackMs: REWRITE_WITHIN_MS,
        unit: 'hours',
        unitMs: 3_600_000,
        min: 1,
        max: 168,
      },
    ),
    retentionCheckMs: parseDuration('RETENTION_CHECK_SECONDS', env.RETENTION_CHECK_SECONDS, {
      fallbackMs: REWRITE_CHECK_MS,
      unit: 'seconds',
      unitMs: 1000,
      min: 1,
      max: 3600,
    }),
  };
}
