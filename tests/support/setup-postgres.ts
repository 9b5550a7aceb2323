// Setup file of the server tests run against PostgreSQL (vitest project server-postgres): every database a
// test makes, createTestDb's (migrated and seeded) and a server's in-memory one (dataDir memory://), is a new
// database on the run's PostgreSQL server instead of a PGlite, so the same tests check the same routes on both.
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import type { Db } from '../../server/db/db';
import { seededFor, setTestDatabaseFactory } from '../../server/db/open-db';
import { openPglite } from '../../server/db/pglite';
import { openPostgres } from '../../server/db/postgres';
import { prepareTestDb, setTestDbFactory } from '../../server/testing/fixtures';
import { POSTGRES_SERVER, SEEDED_TEMPLATE } from './postgres-server';

const { adminUrl } = inject(POSTGRES_SERVER);

let admin: Promise<Db> | undefined;

/** A new database on the server, copied from the template; dropped when the test closes it. */
async function newDatabase(template: string): Promise<Db> {
  admin ??= openPostgres(adminUrl);
  const name = `t_${randomUUID().replaceAll('-', '')}`;
  await (await admin).exec(`create database ${name} template ${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString());
  const close = db.close;
  return {
    ...db,
    async close() {
      await close();
      await (await admin)?.exec(`drop database if exists ${name}`).catch(() => undefined);
    },
  };
}

export const newPostgresDatabase = newDatabase;

const SEEDED_TENANTS = ['gambling', 'demo'];

setTestDbFactory(async (tenants) => {
  if (tenants.join(',') === SEEDED_TENANTS.join(',')) return newDatabase(SEEDED_TEMPLATE);
  const db = await newDatabase('template0');
  await prepareTestDb(db, tenants);
  return db;
});
// A server's own in-memory database: the seeded template when the server would seed the same tenants
// (open-db.ts); a server on a data folder keeps its PGlite folder.
setTestDatabaseFactory((purpose, dataDir) =>
  dataDir !== undefined
    ? openPglite(dataDir)
    : newDatabase(seededFor(purpose, SEEDED_TENANTS) ? SEEDED_TEMPLATE : 'template0'),
);
