// For the tests that prove deleted data leaves the disk, not only the query results (deleteAllData, the
// retention purge): a PGlite on a data folder, as `npm start` runs it, searched byte for byte. The write-ahead log
// (pg_wal) is left out: PostgreSQL recycles its segments itself, and until then they hold every change ever made,
// deletions included.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../db/db';
import { openPglite } from '../db/pglite';

function filesOf(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    if (name === 'pg_wal') return [];
    return statSync(path).isDirectory() ? filesOf(path) : [path];
  });
}

/** Which of the byte strings appear in some file of the data folder (outside the write-ahead log), sorted. */
export function onDisk(dataDir: string, needles: Record<string, Buffer>): string[] {
  const found = new Set<string>();
  for (const file of filesOf(dataDir)) {
    const bytes = readFileSync(file);
    for (const [name, needle] of Object.entries(needles)) if (bytes.includes(needle)) found.add(name);
  }
  return [...found].sort();
}

/** Opens the PGlite on the data folder for fn, and closes it (so its files are written) whatever fn does. */
export async function withPgliteAt<T>(dataDir: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openPglite(dataDir);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}
