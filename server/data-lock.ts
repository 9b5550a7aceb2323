// Two servers on one PGlite data folder would each believe they own it, and one's acknowledged writes are
// lost (PGlite is a single-process database). The folder is claimed with a lock file beside it holding the
// owner's PID; a lock whose process is gone (a crash, a SIGKILL) is taken over, and so is one whose PID now names
// another process (the system reuses the ids of ended processes: on Linux the lock keeps when its owner started).
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
  /** When the owner started, where the system says it (`startOf`); absent in a lock written before it was kept. */
  started?: string;
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

/**
 * When process `pid` started, as Linux counts it (clock ticks since boot: field 22 of /proc/<pid>/stat); undefined
 * where there is no /proc or no such process. Two processes with one PID never share it.
 */
export function startOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command's name (field 2) is in parentheses and may hold spaces and parentheses: fields 3 on follow the last.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the lock's owner still runs: its PID is alive and, when both are known, started when the lock says. */
function ownerRuns(held: LockContent): boolean {
  if (!isAlive(held.pid)) return false;
  const started = held.started === undefined ? undefined : startOf(held.pid);
  return started === undefined || started === held.started;
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
  const mine: LockContent = { pid: process.pid, token: randomUUID(), started: startOf(process.pid) };
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
    if (held && ownerRuns(held)) throw new DataDirInUseError(dataDir, held.pid, file);
    // A dead owner's lock (or an unreadable one, or one whose PID another process has now): remove it and claim the
    // folder again. Two servers taking
    // over the same stale lock at the same instant is not guarded against (a restart race after a crash).
    rmSync(file, { force: true });
  }
  throw new Error(`Could not claim the data folder ${dataDir} (lock file ${file}).`);
}
