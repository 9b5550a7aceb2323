export type Row = Record<string, unknown>;

export interface QueryResult<T> {
  rows: T[];
}

export interface Queryable {
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Runs one or more statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
}

/** What /metrics shows of the database (server/metrics.ts). */
export interface DbStats {
  /** Operations started and not finished: queries and transactions, running or waiting for a connection. */
  inFlight: number;
  /** PostgreSQL's connection pool (pg.Pool); PGlite is one connection inside the process, with no pool. */
  pool?: PoolStats;
}

export interface PoolStats {
  /** Connections open, busy or idle (pg's totalCount). */
  total: number;
  idle: number;
  /** Queries waiting for a connection because every one is busy (waitingCount). */
  waiting: number;
  /** The most connections the pool opens. */
  max: number;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Absent only in test doubles. */
  stats?(): DbStats;
  /** Commits when fn resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Waits for the operations already started, then releases the database (PGlite flushes to disk). */
  close(): Promise<void>;
  /**
   * PGlite only: a tar.gz of the data folder (PGlite's dumpDataDir) taken between transactions, so that it holds
   * every committed write and no half of one (server/backup/).
   */
  dumpDataDir?(): Promise<Blob>;
}

export class DbClosedError extends Error {
  constructor() {
    super('database is closed');
    this.name = 'DbClosedError';
  }
}

interface DbDriver {
  readonly kind: Db['kind'];
  query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  pool?(): PoolStats;
  dumpDataDir?(): Promise<Blob>;
}

// Counts operations in flight so close() never cuts a write in half, and refuses new ones after close.
export function guardDb(driver: DbDriver): Db {
  let closing: Promise<void> | undefined;
  let pending = 0;
  let drained: (() => void) | undefined;

  const track = async <T>(op: () => Promise<T>): Promise<T> => {
    if (closing) throw new DbClosedError();
    pending++;
    try {
      return await op();
    } finally {
      pending--;
      if (pending === 0) drained?.();
    }
  };

  const dump = driver.dumpDataDir?.bind(driver);
  return {
    ...(dump ? { dumpDataDir: () => track(dump) } : {}),
    kind: driver.kind,
    stats: () => (driver.pool ? { inFlight: pending, pool: driver.pool() } : { inFlight: pending }),
    query: (sql, params) => track(() => driver.query(sql, params)),
    exec: (sql) => track(() => driver.exec(sql)),
    transaction: (fn) => track(() => driver.transaction(fn)),
    close() {
      closing ??= (async () => {
        if (pending > 0) await new Promise<void>((resolve) => (drained = resolve));
        await driver.close();
      })();
      return closing;
    },
  };
}
