import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db';
import { migrate } from './migrate';
import { openPostgres } from './postgres';
import { seed } from './seed';

// Needs a disposable PostgreSQL database: TEST_DATABASE_URL=postgres://… npx vitest run --project server
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('Db (PostgreSQL through pg)', () => {
  let db: Db;

  beforeAll(async () => {
    db = await openPostgres(url ?? '');
    await db.exec('drop table if exists facilities, schema_migrations');
  });

  afterAll(async () => {
    await db?.close();
  });

  it('runs the same migrations, twice as a no-op, and seeds a new database', async () => {
    const first = await migrate(db);
    expect(first.wasNew).toBe(true);
    expect(first.applied).toContain('001_facilities.sql');
    expect(await migrate(db)).toEqual({ wasNew: false, applied: [] });
    expect(await seed(db, { isNewDb: first.wasNew, tenants: ['demo', 'gambling'] })).toBe('seeded');
    const { rows } = await db.query<{ tenant: string; n: number }>(
      'select tenant, count(*)::int as n from facilities group by tenant order by tenant',
    );
    expect(rows).toEqual([
      { tenant: 'demo', n: 3 },
      { tenant: 'gambling', n: 3 },
    ]);
  });

  it('commits and rolls back transactions on one connection', async () => {
    await db.transaction(async (tx) => {
      await tx.query("insert into facilities (tenant, alias, timezone) values ('demo', 'Tx ok', 'UTC')");
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into facilities (tenant, alias, timezone) values ('demo', 'Tx gone', 'UTC')");
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const { rows } = await db.query<{ alias: string }>(
      "select alias from facilities where alias like 'Tx %' order by alias",
    );
    expect(rows.map((r) => r.alias)).toEqual(['Tx ok']);
  });
});
