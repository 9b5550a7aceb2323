import pg from 'pg';
import { type Db, guardDb, type Queryable } from './db';

function wrap(target: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query(sql, params) {
      const result = await target.query(sql, params ? [...params] : undefined);
      return { rows: result.rows };
    },
    async exec(sql) {
      // Without parameters pg uses the simple protocol, which accepts several statements.
      await target.query(sql);
    },
  };
}

/** A PostgreSQL server reached through a connection pool (DATABASE_URL). */
export async function openPostgres(connectionString: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString });
  // A pool error on an idle client must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // Fail at start-up, not on the first request, when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const self = wrap(pool);
  return guardDb({
    kind: 'postgres',
    query: self.query,
    exec: self.exec,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    pool: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max ?? 10,
    }),
    close: () => pool.end(),
  });
}
