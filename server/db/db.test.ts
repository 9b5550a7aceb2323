import { describe, expect, it } from 'vitest';
import { DbClosedError } from './db';
import { openPglite, pgliteImage } from './pglite';

describe('Db (PGlite)', () => {
  it('queries with parameters, commits and rolls back transactions', async () => {
    const db = await openPglite();
    try {
      await db.exec('create table t (tenant text not null, n int not null); create index on t (tenant);');
      await db.transaction(async (tx) => {
        await tx.query('insert into t values ($1, $2)', ['demo', 1]);
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.query('insert into t values ($1, $2)', ['demo', 2]);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      const { rows } = await db.query<{ n: number }>('select n from t where tenant = $1', ['demo']);
      expect(rows).toEqual([{ n: 1 }]);
    } finally {
      await db.close();
    }
  });

  it('close waits for work in flight and refuses new work', async () => {
    const db = await openPglite();
    await db.exec('create table t (tenant text not null, n int not null)');
    const slow = db.transaction(async (tx) => {
      await tx.query('select pg_sleep(0.2)');
      await tx.query("insert into t values ('demo', 7)");
      return tx.query<{ n: number }>('select n from t');
    });
    const closing = db.close();
    await expect(db.query('select 1')).rejects.toBeInstanceOf(DbClosedError);
    expect((await slow).rows).toEqual([{ n: 7 }]);
    await closing;
    expect(db.close()).toBe(closing);
  });
});

describe('PGlite images', () => {
  it('start each database as a copy of the prepared one, and the copies do not share rows', async () => {
    const image = await pgliteImage(async (db) => {
      await db.exec(
        "create table t (tenant text not null, n int not null); insert into t values ('demo', 1)",
      );
    });
    const [a, b] = await Promise.all([
      openPglite('memory://', { from: image }),
      openPglite(undefined, { from: image }),
    ]);
    try {
      await a.query("insert into t values ('demo', 2)");
      await b.query("insert into t values ('demo', 3)");
      const rows = async (db: typeof a) =>
        (await db.query<{ n: number }>('select n from t order by n')).rows.map((r) => r.n);
      expect(await rows(a)).toEqual([1, 2]);
      expect(await rows(b)).toEqual([1, 3]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
