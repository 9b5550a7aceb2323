// Two servers on one PGlite data folder would each believe they own it, and one's acknowledged writes are
// lost (PGlite is a single-process database). The folder is claimed with a lock file beside it holding the
// owner's PID; a lock whose process is gone (a crash, a SIGKILL) is taken over.
import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly lockFile: string,
  ) {
    super(
      `The data folder ${dataDir} is in use by another server (process ${pid}). Stop that server, or give this one ` +
        `its own DATA_DIR. (Lock file: ${lockFile}; it is taken over by itself once that process has ended.)`,
    );
    this.name = 'DataDirInUseError';
  }
}

interface LockContent {
  pid: number;
  token: string;
}

export interface DataDirLock {
  file: string;
  release(): void;
}

export function lockFileOf(dataDir: string): string {
  return `${dataDir.replace(/[/\\]+$/, '')}.lock`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockContent | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockContent>;
    return typeof parsed.pid === 'number' && typeof parsed.token === 'string'
      ? (parsed as LockContent)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Claims the data folder for this process, or throws DataDirInUseError when a live process holds it. */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = lockFileOf(dataDir);
  mkdirSync(dirname(file), { recursive: true });
  const mine: LockContent = { pid: process.pid, token: randomUUID() };
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written aside, then linked into place: link() fails if the lock exists, so two servers starting
    // together cannot both win, and nobody ever reads a half-written lock.
    const pending = `${file}.${mine.token}`;
    writeFileSync(pending, JSON.stringify(mine));
    try {
      linkSync(pending, file);
      return {
        file,
        release() {
          if (readLock(file)?.token === mine.token) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(pending, { force: true });
    }
    const held = readLock(file);
    if (held && isAlive(held.pid)) throw new DataDirInUseError(dataDir, held.pid, file);
    // A dead owner's lock (or an unreadable one): remove it and claim the folder again. Two servers taking
    // over the same stale lock at the same instant is not guarded against (a restart race after a crash).
    rmSync(file, { force: true });
  }
  throw new Error(`Could not claim the data folder ${dataDir} (lock file ${file}).`);
}
