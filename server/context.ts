import type { Db } from './db/db';
import type { Logger } from './logger';

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
}

export type AppEnv = {
  Variables: {
    /** Set by the tenant middleware for every /api request; always a shipped tenant. */
    tenant: string;
    reqId: string;
  };
};
