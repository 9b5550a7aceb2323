// What the PostgreSQL global setup (postgres-global-setup.ts) hands to the test workers (setup-postgres.ts).
export const POSTGRES_SERVER = 'postgresServer';
/** The database every seeded test database is copied from (CREATE DATABASE … TEMPLATE). */
export const SEEDED_TEMPLATE = 'portal_seeded';

export interface PostgresServer {
  /** Superuser URL of the throwaway server (database postgres). */
  adminUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    [POSTGRES_SERVER]: PostgresServer;
  }
}
