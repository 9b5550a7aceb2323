// A backup holds every person's face and documents, so the running server hands its data folder only to someone who
// is at this machine (a loopback connection nobody relayed, as for the development routes) AND can read the key it
// writes beside the folder with owner-only permissions, that is, the account that runs it. Loopback alone would give
// it to every other account of the machine.
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db/db';
import { fromThisMachine, isLoopbackAddress } from '../dev-routes';
import { sendRawError } from '../http/problem';
import { errorField, type Logger } from '../logger';
import { bearerMatches } from '../metrics';

export const BACKUP_PATH = '/admin/backup';

/** Where a running server says how to reach its backup route: `<DATA_DIR>.backup-access`. */
export function backupAccessFileOf(dataDir: string): string {
  return `${dataDir.replace(/[/\\]+$/, '')}.backup-access`;
}

export interface BackupAccess {
  pid: number;
  url: string;
  key: string;
}

export function readBackupAccess(dataDir: string): BackupAccess | undefined {
  try {
    const parsed = JSON.parse(readFileSync(backupAccessFileOf(dataDir), 'utf8')) as Partial<BackupAccess>;
    return typeof parsed.pid === 'number' && typeof parsed.url === 'string' && typeof parsed.key === 'string'
      ? (parsed as BackupAccess)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The loopback URL of a server listening on `host`:`port` (0.0.0.0 and :: are reached on 127.0.0.1). */
function loopbackUrl(host: string, port: number): string {
  if (host === '::1') return `http://[::1]:${port}`;
  return `http://${isLoopbackAddress(host) ? host : '127.0.0.1'}:${port}`;
}

/** The key a backup request must present, as published for this start of the server. */
export interface PublishedBackup {
  key: string;
  withdraw(): void;
}

/**
 * Writes a new key (owner-only) for this start of the server; `withdraw` removes it when the server stops, unless
 * another server has written its own since.
 */
export function publishBackupAccess(dataDir: string, host: string, port: number): PublishedBackup {
  const file = backupAccessFileOf(dataDir);
  const access: BackupAccess = {
    pid: process.pid,
    url: loopbackUrl(host, port),
    key: randomBytes(32).toString('hex'),
  };
  rmSync(file, { force: true });
  writeFileSync(file, JSON.stringify(access), { mode: 0o600, flag: 'wx' });
  return {
    key: access.key,
    withdraw() {
      if (readBackupAccess(dataDir)?.key === access.key) rmSync(file, { force: true });
    },
  };
}

/** `POST /admin/backup`: the data folder as a tar.gz, taken between transactions (Db.dumpDataDir). */
export async function serveBackup(
  req: IncomingMessage,
  res: ServerResponse,
  options: { db: Db; key: string; logger: Logger },
): Promise<void> {
  // To anyone else the path has nothing behind it, as a development route refused.
  if (!fromThisMachine(req)) return sendRawError(res, 404, 'Not found.');
  if (!bearerMatches(req.headers.authorization, options.key)) {
    return sendRawError(res, 401, 'The backup key of the data folder is required.', 'unauthorized', {
      'WWW-Authenticate': 'Bearer',
    });
  }
  if (req.method !== 'POST') {
    return sendRawError(res, 405, 'Only POST takes a backup.', 'method_not_allowed', { Allow: 'POST' });
  }
  if (!options.db.dumpDataDir) return sendRawError(res, 404, 'Not found.');
  const started = performance.now();
  let dump: Blob;
  try {
    dump = await options.db.dumpDataDir();
  } catch (error) {
    options.logger.log('error', 'backup failed', { err: errorField(error) });
    return sendRawError(res, 500, 'The backup could not be taken.', 'internal_error');
  }
  res.writeHead(200, {
    'Content-Type': 'application/gzip',
    'Content-Length': String(dump.size),
    'Cache-Control': 'no-store',
  });
  await pipeline(Readable.fromWeb(dump.stream() as never), res);
  options.logger.log('info', 'backup taken', {
    bytes: dump.size,
    ms: Math.round(performance.now() - started),
  });
}
