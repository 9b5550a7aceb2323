import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { type Db, guardDb, type Queryable } from './db';

const IN_MEMORY = 'memory://';

function wrap(target: PGlite | Transaction): Queryable {
  return {
    async query(sql, params) {
      const result = await target.query(sql, params ? [...params] : undefined);
      return { rows: result.rows as never[] };
    },
    async exec(sql) {
      await target.exec(sql);
    },
  };
}

/** Embedded PostgreSQL; dataDir undefined or 'memory://' keeps everything in memory (tests). */
export async function openPglite(dataDir?: string): Promise<Db> {
  let pg: PGlite;
  if (dataDir === undefined || dataDir === IN_MEMORY) {
    pg = await PGlite.create();
  } else {
    const dir = resolve(dataDir);
    mkdirSync(dir, { recursive: true });
    pg = await PGlite.create(dir);
  }
  const self = wrap(pg);
  return guardDb({
    kind: 'pglite',
    query: self.query,
    exec: self.exec,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  });
}
