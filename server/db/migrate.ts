import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../paths';
import type { Db } from './db';

export const MIGRATIONS_DIR = join(ROOT, 'server/db/migrations');

const FILE_NAME = /^(\d{3,})_[a-z0-9_-]+\.sql$/;
// Serialises concurrent starts against one PostgreSQL server; any constant works, it only has to be ours.
const MIGRATION_LOCK = 7_215_318_001;

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

export interface MigrationResult {
  /** True when no migration had been applied before this run: the database is new. */
  wasNew: boolean;
  applied: string[];
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const migrations = readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => {
      const match = FILE_NAME.exec(file);
      if (!match?.[1]) throw new Error(`migration file name must look like 001_name.sql: ${file}`);
      return { version: match[1], name: file, sql: readFileSync(`${dir}/${file}`, 'utf8') };
    })
    .sort((a, b) => Number(a.version) - Number(b.version));
  for (let i = 1; i < migrations.length; i++) {
    if (Number(migrations[i]?.version) === Number(migrations[i - 1]?.version)) {
      throw new Error(`two migrations share version ${migrations[i]?.version}`);
    }
  }
  return migrations;
}

/** Applies the pending migrations in order, each in its own transaction. */
export async function migrate(db: Db, migrations = readMigrations()): Promise<MigrationResult> {
  const emptyBefore = await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    // Bookkeeping table, not tenant data: the schema is shared by all tenants.
    await tx.exec(`create table if not exists schema_migrations (
      version text primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`);
    const before = await tx.query<{ count: number }>('select count(*)::int as count from schema_migrations');
    return (before.rows[0]?.count ?? 0) === 0;
  });
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const seen = await tx.query('select 1 from schema_migrations where version = $1', [migration.version]);
      if (seen.rows.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (done) applied.push(migration.name);
  }
  // With concurrent starts on one server, only the process that applied the first migration owns the new database.
  const wasNew = emptyBefore && (migrations.length === 0 || applied[0] === migrations[0]?.name);
  return { wasNew, applied };
}
