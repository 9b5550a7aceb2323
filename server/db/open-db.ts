import type { Db } from './db';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

export interface OpenDbOptions {
  /** When set, a PostgreSQL server is used and dataDir is ignored. */
  databaseUrl?: string | undefined;
  /** PGlite data folder; undefined or 'memory://' for an in-memory database. */
  dataDir?: string | undefined;
}

let inMemoryDatabases: (() => Promise<Db>) | undefined;

/**
 * Tests only: where a new in-memory database (dataDir undefined or 'memory://') comes from instead of PGlite.
 * The server tests that also run against PostgreSQL (tests/support/setup-postgres.ts) hand out a new
 * PostgreSQL database for each; undefined goes back to PGlite. Nothing registers one outside the tests.
 */
export function setInMemoryDatabaseFactory(factory: (() => Promise<Db>) | undefined): void {
  inMemoryDatabases = factory;
}

export function openDb(options: OpenDbOptions): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  if (inMemoryDatabases && (options.dataDir === undefined || options.dataDir === 'memory://')) {
    return inMemoryDatabases();
  }
  return openPglite(options.dataDir);
}
