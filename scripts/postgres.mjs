// A throwaway PostgreSQL server for the tests and `npm run cluster`: initdb in a temporary folder, pg_ctl on a
// free loopback port above 55000, no system service, removed by stop(). Debian's binaries
// (/usr/lib/postgresql/<version>/bin); initdb refuses root, so as root the server runs as the postgres user
// the package created.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folder holding initdb and pg_ctl, or undefined when PostgreSQL is not installed. */
export function postgresBinDir() {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return join(root, versions[0], 'bin');
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  return onPath ? join(onPath, '..') : undefined;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** A free TCP port on the loopback address in [from, to), tried in a random order. */
export async function freePort(from = 55_000, to = 65_000) {
  for (let i = 0; i < 50; i++) {
    const port = from + Math.floor(Math.random() * (to - from));
    const free = await new Promise((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port between ${from} and ${to}`);
}

/**
 * Starts a new PostgreSQL server. Resolves with its admin URL (user `portal`, trust on loopback, database
 * `postgres`), a url(db) helper and stop(), which stops the server and removes its folder.
 * Durability is off (fsync, synchronous_commit, full_page_writes): the data is thrown away anyway.
 */
export async function startThrowawayPostgres(options = {}) {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed: run node scripts/ensure-postgres.mjs');
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'portal-pg-'));
  const data = join(dir, 'data');
  let asUser = [];
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    asUser = ['runuser', '-u', 'postgres', '--'];
  }
  const run = (tool, args) => {
    const [command, ...rest] = [...asUser, join(bin, tool), ...args];
    const result = spawnSync(command, rest, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) {
      throw new Error(`${tool} failed (exit ${result.status}): ${result.stderr || result.stdout}`);
    }
  };
  let started = false;
  const stop = () => {
    if (started) {
      const [command, ...rest] = [
        ...asUser,
        join(bin, 'pg_ctl'),
        'stop',
        '-D',
        data,
        '-m',
        'immediate',
        '-w',
      ];
      spawnSync(command, rest, { stdio: 'ignore' });
      started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('initdb', ['-D', data, '-U', 'portal', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
    const settings = [
      `-p ${port}`,
      "-c listen_addresses='127.0.0.1'",
      `-c unix_socket_directories='${dir}'`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      `-c max_connections=${options.maxConnections ?? 300}`,
    ].join(' ');
    run('pg_ctl', ['start', '-D', data, '-w', '-t', '120', '-l', join(dir, 'server.log'), '-o', settings]);
    started = true;
  } catch (error) {
    stop();
    throw error;
  }
  const url = (db = 'postgres') => `postgres://portal@127.0.0.1:${port}/${db}`;
  return { port, dir, url, adminUrl: url(), stop };
}
