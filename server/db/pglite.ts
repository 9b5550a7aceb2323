import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

/** An image of a PGlite data folder (PGlite dumpDataDir), from which a new in-memory database starts. */
export type PgliteImage = Blob;

/**
 * The bytes of an image (a file written from pgliteImage) as a PgliteImage that hands PGlite those bytes without a
 * copy. PGlite reads an image through Blob.arrayBuffer(), which in Node 20 streams and concatenates the whole
 * image again on every call: about a second of CPU for a 70 MB image, paid by every test database and server.
 * PGlite only reads the bytes (it untars them and copies each file into its own file system), so one buffer can
 * serve every database of the process.
 */
export function pgliteImageOf(bytes: Uint8Array): PgliteImage {
  const whole =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? (bytes.buffer as ArrayBuffer)
      : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  return new (class extends Blob {
    override get size() {
      return whole.byteLength;
    }
    override arrayBuffer() {
      return Promise.resolve(whole);
    }
  })([]);
}

// Creating a PGlite database runs initdb: seconds of CPU (about 3 s alone here, several times that on a
// busy machine). Loading the image of a data folder that initdb already made is several times cheaper, so
// the tests register the image of a new database once per run (tests/support/pglite-global-setup.ts) and
// every new database of the process, in memory or in a new data folder, starts from it. An image is only a
// faster way to the same new database; nothing registers one outside the tests, and without one initdb
// runs as before.
let newDatabaseImage: (() => PgliteImage) | undefined;

/** The image new databases start from instead of running initdb; undefined to run initdb again. */
export function setNewDatabaseImage(image: PgliteImage | (() => PgliteImage) | undefined): void {
  newDatabaseImage = image === undefined || typeof image === 'function' ? image : () => image;
}

// Tests only: PostgreSQL's buffer cache of each new database. The default (128 MB) is zero-filled at every start,
// about half a second of CPU per database, while a test database holds a few MB; undefined keeps the default.
let testSharedBuffers: string | undefined;

/** Tests only: shared_buffers of every database this process opens from now on (e.g. '16MB'). */
export function setTestSharedBuffers(size: string | undefined): void {
  testSharedBuffers = size;
}

const BYTEA = 17;
/**
 * bytea in and out as hex through Buffer (native). PGlite's own codec turns each byte into a JavaScript string
 * and back (Array.from(bytes).map(toString(16)) and parseInt per pair): on the server's only thread, a 700 KB
 * picture cost about a second and tens of MB of garbage each way, so parallel uploads stalled every request.
 */
const byteaCodec = {
  serializers: {
    [BYTEA]: (value: Uint8Array) =>
      `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`,
  },
  // A Uint8Array of its own, as PGlite's codec gives (a small Buffer would share Node's pool).
  parsers: { [BYTEA]: (text: string) => new Uint8Array(Buffer.from(text.slice(2), 'hex')) },
};

function create(dataDir: string | undefined, image: PgliteImage | undefined): Promise<PGlite> {
  const options = {
    ...byteaCodec,
    ...(image ? { loadDataDir: image } : {}),
    ...(testSharedBuffers
      ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${testSharedBuffers}`] }
      : {}),
  };
  return dataDir === undefined ? PGlite.create(options) : PGlite.create(dataDir, options);
}

async function openEngine(dataDir: string | undefined, image: PgliteImage | undefined): Promise<PGlite> {
  if (dataDir === undefined || dataDir === IN_MEMORY) return create(undefined, image ?? newDatabaseImage?.());
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  // An existing data folder is opened as it is; only a new one starts from an image.
  const isNew = !existsSync(join(dir, 'PG_VERSION'));
  return create(dir, isNew ? (image ?? newDatabaseImage?.()) : undefined);
}

function guard(pg: PGlite): Db {
  const self = wrap(pg);
  return guardDb({
    kind: 'pglite',
    query: self.query,
    exec: self.exec,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
    // PGlite's dumpDataDir waits only for the statement running, not for a transaction: inside a transaction of
    // its own it waits for the others to end and keeps new ones out until the copy is made. The checkpoint puts
    // everything on the data pages, so the copy does not depend on write-ahead log still in memory.
    dumpDataDir: () =>
      pg.transaction(async (tx) => {
        await tx.exec('checkpoint');
        return pg.dumpDataDir('gzip');
      }),
  });
}

/**
 * Embedded PostgreSQL; dataDir undefined or 'memory://' keeps everything in memory (tests). `from` starts a
 * new database (in memory or in a new data folder) from an image (see pgliteImage) instead of an empty one.
 */
export async function openPglite(dataDir?: string, options: { from?: PgliteImage } = {}): Promise<Db> {
  const pg = await openEngine(dataDir, options.from);
  // PGlite writes its files synchronously, on the event loop: a new 16 MB write-ahead-log segment filled with zeros
  // held it for 100–200 ms inside whichever statement crossed into it (a watchlist's rows, every 16 MB of writes).
  // Without the zeros a new segment is only extended; PostgreSQL's crash safety does not depend on them.
  await pg.exec('set wal_init_zero = off');
  return guard(pg);
}

/**
 * The image of a new in-memory database after `prepare` (e.g. migrate and seed): openPglite(…, { from })
 * gives each caller its own copy of that database without redoing the work.
 */
export async function pgliteImage(prepare?: (db: Db) => Promise<void>): Promise<PgliteImage> {
  const pg = await openEngine(IN_MEMORY, undefined);
  try {
    await prepare?.(guard(pg));
    // Everything on the data pages, so the image does not depend on replaying the write-ahead log.
    await pg.exec('checkpoint');
    return await pg.dumpDataDir('none');
  } finally {
    await pg.close();
  }
}
