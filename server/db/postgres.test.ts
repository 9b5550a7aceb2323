// Runs only in the vitest project server-postgres, on the run's throwaway PostgreSQL server
// (tests/support/postgres-global-setup.ts); each test has new databases of its own.
import { describe, expect, it } from 'vitest';
import { newPostgresDatabase } from '../../tests/support/setup-postgres';
import type { Db } from './db';
import { migrate, readMigrations } from './migrate';
import { seed } from './seed';

const emptyDatabase = () => newPostgresDatabase('template0');

describe('Db (PostgreSQL through pg)', () => {
  it('runs the same migrations, twice as a no-op, and seeds a new database', async () => {
    const db = await emptyDatabase();
    try {
      expect(db.kind).toBe('postgres');
      const first = await migrate(db);
      expect(first.wasNew).toBe(true);
      expect(first.applied).toEqual(readMigrations().map((m) => m.name));
      expect(await migrate(db)).toEqual({ wasNew: false, applied: [] });
      expect(await seed(db, { isNewDb: first.wasNew, tenants: ['demo', 'gambling'] })).toBe('seeded');
      const { rows } = await db.query<{ tenant: string; n: number }>(
        'select tenant, count(*)::int as n from facilities group by tenant order by tenant',
      );
      expect(rows).toEqual([
        { tenant: 'demo', n: 3 },
        { tenant: 'gambling', n: 3 },
      ]);
    } finally {
      await db.close();
    }
  });

  it('commits and rolls back transactions on one connection', async () => {
    const db = await emptyDatabase();
    try {
      await migrate(db);
      await db.transaction(async (tx) => {
        await tx.query("insert into facilities (tenant, alias, timezone) values ('demo', 'Tx ok', 'UTC')");
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.query(
            "insert into facilities (tenant, alias, timezone) values ('demo', 'Tx gone', 'UTC')",
          );
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      const { rows } = await db.query<{ alias: string }>(
        "select alias from facilities where alias like 'Tx %' order by alias",
      );
      expect(rows.map((r) => r.alias)).toEqual(['Tx ok']);
    } finally {
      await db.close();
    }
  });

  it('applies each migration once when several processes start together (advisory lock)', async () => {
    const first = await emptyDatabase();
    // Four pools on one database, as four server processes starting at once.
    const url = await first.query<{ name: string }>('select current_database() as name');
    const name = url.rows[0]?.name ?? '';
    const { openPostgres } = await import('./postgres');
    const { inject } = await import('vitest');
    const base = new URL(inject('postgresServer').adminUrl);
    base.pathname = `/${name}`;
    const others: Db[] = await Promise.all([1, 2, 3].map(() => openPostgres(base.toString())));
    try {
      const results = await Promise.all([first, ...others].map((db) => migrate(db)));
      const all = readMigrations().map((m) => m.name);
      expect(results.flatMap((r) => r.applied).sort()).toEqual([...all].sort());
      expect(results.filter((r) => r.wasNew)).toHaveLength(1);
      const { rows } = await first.query<{ n: number }>('select count(*)::int as n from schema_migrations');
      expect(rows[0]?.n).toBe(all.length);
    } finally {
      await Promise.all(others.map((db) => db.close()));
      await first.close();
    }
  });
});
