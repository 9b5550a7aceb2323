import type { Db } from './db';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

export interface OpenDbOptions {
  /** When set, a PostgreSQL server is used and dataDir is ignored. */
  databaseUrl?: string | undefined;
  /** PGlite data folder; undefined or 'memory://' for an in-memory database. */
  dataDir?: string | undefined;
  /** What the caller will do with a new database: migrate it, and seed it for these tenants unless production. */
  purpose?: DatabasePurpose | undefined;
}

/** What the server does to a new database after opening it (migrate, then seed: server/db/seed.ts). */
export interface DatabasePurpose {
  tenants: readonly string[];
  nodeEnv?: string | undefined;
}

/** `dataDir`: the PGlite data folder asked for, undefined for an in-memory database. */
type TestDatabaseFactory = (purpose: DatabasePurpose | undefined, dataDir: string | undefined) => Promise<Db>;

let testDatabases: TestDatabaseFactory | undefined;

/**
 * Tests only: where the database of openDb without a databaseUrl comes from instead of plain PGlite. The
 * server tests hand out a copy of the run's database already migrated and seeded for the purpose's tenants
 * when the server would seed it, in memory or in a new data folder (tests/support/setup-server.ts,
 * setup-postgres.ts), so that a test's server does not pay for the seed's password hashes and evidence images
 * on every start; migrate() and seed() then find it up to date, as they would a database of an earlier start.
 * A data folder that exists already opens as it is. Undefined goes back to PGlite. Nothing registers one
 * outside the tests.
 */
export function setTestDatabaseFactory(factory: TestDatabaseFactory | undefined): void {
  testDatabases = factory;
}

export function openDb(options: OpenDbOptions): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  const dataDir = options.dataDir === 'memory://' ? undefined : options.dataDir;
  if (testDatabases) return testDatabases(options.purpose, dataDir);
  return openPglite(dataDir);
}

/** True when a database seeded for `seeded` (in any order) is what `purpose` would make of a new one. */
export function seededFor(purpose: DatabasePurpose | undefined, seeded: readonly string[]): boolean {
  if (!purpose || purpose.nodeEnv === 'production') return false;
  return [...purpose.tenants].sort().join(',') === [...seeded].sort().join(',');
}
