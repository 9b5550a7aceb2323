import type { Db } from './db';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

export interface OpenDbOptions {
  /** When set, a PostgreSQL server is used and dataDir is ignored. */
  databaseUrl?: string | undefined;
  /** PGlite data folder; undefined or 'memory://' for an in-memory database. */
  dataDir?: string | undefined;
}

export function openDb(options: OpenDbOptions): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}
