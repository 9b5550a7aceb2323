import type { Db } from './db';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

export interface OpenDbOptions {
  /** When set, a PostgreSQL server is used and dataDir is ignored. */
  databaseUrl?: string | undefined;
  /** PGlite data folder; undefined or 'memory://' for an in-memory database. */
  dataDir?: string | undefined;
  /** What the caller will do with a new database: migrate it, and seed it for these tenants unless production. */
  purpose?: InMemoryPurpose | undefined;
}

/** What the server does to a new in-memory database after opening it (migrate, then seed: server/db/seed.ts). */
export interface InMemoryPurpose {
  tenants: readonly string[];
  nodeEnv?: string | undefined;
}

type InMemoryDatabaseFactory = (purpose: InMemoryPurpose | undefined) => Promise<Db>;

let inMemoryDatabases: InMemoryDatabaseFactory | undefined;

/**
 * Tests only: where a new in-memory database (dataDir undefined or 'memory://') comes from instead of PGlite.
 * The server tests hand out a copy of the run's database already migrated and seeded for the purpose's
 * tenants when the server would seed it (tests/support/setup-server.ts, setup-postgres.ts), so that a test's
 * server does not pay for the seed's password hashes and evidence images on every start; migrate() and seed()
 * then find it up to date, as they would a database of an earlier start. Undefined goes back to PGlite.
 * Nothing registers one outside the tests.
 */
export function setInMemoryDatabaseFactory(factory: InMemoryDatabaseFactory | undefined): void {
  inMemoryDatabases = factory;
}

export function openDb(options: OpenDbOptions): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  if (inMemoryDatabases && (options.dataDir === undefined || options.dataDir === 'memory://')) {
    return inMemoryDatabases(options.purpose);
  }
  return openPglite(options.dataDir);
}

/** True when a database seeded for `seeded` (in any order) is what `purpose` would make of a new one. */
export function seededFor(purpose: InMemoryPurpose | undefined, seeded: readonly string[]): boolean {
  if (!purpose || purpose.nodeEnv === 'production') return false;
  return [...purpose.tenants].sort().join(',') === [...seeded].sort().join(',');
}
