// `npm run backup` and `npm run restore` (scripts/backup.ts, scripts/restore.ts) for the embedded database.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openAsBlob,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataDirInUseError, lockDataDir } from '../data-lock';
import { migrate } from '../db/migrate';
import { openPglite } from '../db/pglite';
import { BACKUP_PATH, readBackupAccess } from './route';

/** `2026-11-26T21-41-01Z`: sortable, and without the colons some file systems refuse. */
function stamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
}

export interface BackupResult {
  file: string;
  bytes: number;
  /** Who made the copy: the running server, or this process on a folder nobody held. */
  from: 'server' | 'folder';
}

/** Writes the stream to `file` with owner-only permissions, through a `.partial` file so a cut copy never looks whole. */
async function writePrivate(file: string, body: Readable): Promise<number> {
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  const handle = await open(partial, 'wx', 0o600);
  try {
    await pipeline(body, handle.createWriteStream());
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  renameSync(partial, file);
  return statSync(file).size;
}

async function fromRunningServer(dataDir: string, holder: DataDirInUseError): Promise<Readable> {
  const access = readBackupAccess(dataDir);
  if (!access || access.pid !== holder.pid) {
    throw new Error(
      `The data folder ${dataDir} is held by process ${holder.pid}, which has not published its backup access ` +
        '(still starting, or an older version): try again once it is listening.',
    );
  }
  const response = await fetch(`${access.url}${BACKUP_PATH}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access.key}` },
  });
  if (!response.ok || !response.body) {
    throw new Error(
      `The server at ${access.url} refused the backup: ${response.status} ${await response.text()}`,
    );
  }
  return Readable.fromWeb(response.body as never);
}

/**
 * A consistent copy of the PGlite data folder in `outDir`: asked of the server that holds the folder, or, when none
 * does, taken here under the folder's lock.
 */
export async function takeBackup(options: {
  dataDir: string;
  outDir: string;
  now?: Date;
}): Promise<BackupResult> {
  const dataDir = resolve(options.dataDir);
  const file = resolve(options.outDir, `portal-backup-${stamp(options.now ?? new Date())}.tar.gz`);
  let lock: ReturnType<typeof lockDataDir>;
  try {
    lock = lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const body = await fromRunningServer(dataDir, error);
    return { file, bytes: await writePrivate(file, body), from: 'server' };
  }
  try {
    if (!existsSync(join(dataDir, 'PG_VERSION'))) throw new Error(`There is no database in ${dataDir}.`);
    const db = await openPglite(dataDir);
    let dump: Blob;
    try {
      dump = await (db.dumpDataDir as () => Promise<Blob>)();
    } finally {
      await db.close();
    }
    return {
      file,
      bytes: await writePrivate(file, Readable.fromWeb(dump.stream() as never)),
      from: 'folder',
    };
  } finally {
    lock.release();
  }
}

/**
 * A tar.gz (what backup writes) or a plain tar (dumpDataDir('none')), told by their first bytes: PGlite guesses from
 * the type, and a file that is neither fails inside it where the failure escapes as an unhandled rejection.
 */
function dumpType(file: string): string {
  const head = Buffer.alloc(262);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return 'application/gzip';
  if (head.toString('latin1', 257, 262) === 'ustar') return 'application/x-tar';
  throw new RestoreRefused(`${file} is not a backup (neither a tar.gz nor a tar).`);
}

export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

export interface RestoreResult {
  dataDir: string;
  /** Migrations the dump lacked, applied after loading it. */
  applied: string[];
  /** Where the folder that was there went (--force). */
  keptAside?: string;
}

/**
 * Loads a backup into the data folder, brings it up to date (migrations) and opens it again to check it. Refuses
 * while a server holds the folder, and a folder that is not empty unless `force`, which renames it aside. A restore
 * that fails leaves the folder as it found it.
 */
export async function restoreBackup(options: {
  dataDir: string;
  file: string;
  force?: boolean;
  now?: Date;
}): Promise<RestoreResult> {
  const dataDir = resolve(options.dataDir);
  if (!existsSync(options.file)) throw new RestoreRefused(`There is no backup at ${options.file}.`);
  dumpType(options.file);
  let lock: ReturnType<typeof lockDataDir>;
  try {
    lock = lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    throw new RestoreRefused(`${error.message} A restore needs the server stopped.`);
  }
  let keptAside: string | undefined;
  try {
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
      if (!options.force) {
        throw new RestoreRefused(
          `The data folder ${dataDir} is not empty: --force restores over it (the folder is kept aside, renamed).`,
        );
      }
      keptAside = `${dataDir}.before-restore-${stamp(options.now ?? new Date())}`;
      renameSync(dataDir, keptAside);
    }
    try {
      const dump = await openAsBlob(options.file, { type: dumpType(options.file) });
      const db = await openPglite(dataDir, { from: dump });
      let applied: string[];
      try {
        applied = (await migrate(db)).applied;
      } finally {
        await db.close();
      }
      // What the next server will do: open the folder as it is on disk.
      const reopened = await openPglite(dataDir);
      try {
        await reopened.query('select count(*) from schema_migrations');
      } finally {
        await reopened.close();
      }
      return { dataDir, applied, ...(keptAside ? { keptAside } : {}) };
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true });
      if (keptAside) renameSync(keptAside, dataDir);
      throw error;
    }
  } finally {
    lock.release();
  }
}
