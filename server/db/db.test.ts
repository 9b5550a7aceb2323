import { describe, expect, it } from 'vitest';
import { DbClosedError } from './db';
import { openPglite } from './pglite';

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
