import type { ApiAuth } from './auth/verify';
import type { BackgroundWork } from './background';
import type { Db } from './db/db';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import type { OnboardingOptions } from './onboarding/options';
import type { KnownOrigins } from './origins';
import type { Readiness } from './readiness';
import type { VisitsOptions } from './visits/options';

export interface AppConfig {
  distDir: string;
  publicDir: string;
  /** False under `npm run dev`, where Vite serves the SPA and public/. */
  serveSpa: boolean;
  version: string;
}

export interface AppDeps {
  db: Db;
  /** Shipped tenant ids (folders under public/tenants with a settings.json). */
  tenants: readonly string[];
  config: AppConfig;
  logger: Logger;
  /** Bearer verification; the authenticated API (accounts, onboarding) is mounted only when it is given. */
  auth?: ApiAuth;
  /** Options of the onboarding API (engine, result delay, faults); from the environment when omitted. */
  onboarding?: OnboardingOptions;
  /** The known origins (server/origins.ts): links in mail and QR codes are made only on these. */
  origins?: KnownOrigins;
  /** TRUST_PROXY: X-Forwarded-Proto says whether the browser's origin is https. */
  trustProxy?: boolean;
  /** Options of the visits API (clock, confirmation link lifetime); from the environment when omitted. */
  visits?: VisitsOptions;
  /** What start-up still loads (the engine's models): /health answers 503 until it is done. */
  readiness?: Readiness;
  /** Work that goes on after an answer (judgements, bulk imports): the server's close() waits for it. */
  background?: BackgroundWork;
  /** The server's metrics (server/metrics.ts); an app made without a server (tests) has none. */
  metrics?: Metrics;
}
