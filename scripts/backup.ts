// npm run backup [-- --out <folder>]: a consistent copy of the embedded database (server/backup/files.ts).
import { configFromEnv } from '../server/config';
import { exitWith } from './exit-with';

const POSTGRES_WAY = `DATABASE_URL points to PostgreSQL: back it up with PostgreSQL's own tools, e.g.
  pg_dump -Fc --dbname="$DATABASE_URL" --file=portal-$(date -u +%Y-%m-%dT%H-%M-%SZ).dump
and restore with pg_restore (docs/operations.md, "Backup and restore").
`;

function outDirFrom(args: string[]): string {
  const at = args.indexOf('--out');
  if (at === -1) return 'backups';
  const value = args[at + 1];
  if (!value) throw new Error('--out needs a folder.');
  return value;
}

async function run(): Promise<number> {
  const config = configFromEnv();
  if (config.databaseUrl) {
    process.stderr.write(POSTGRES_WAY);
    return 2;
  }
  if (!config.dataDir || config.dataDir === 'memory://') {
    process.stderr.write('DATA_DIR is memory://: an in-memory database has nothing to back up.\n');
    return 2;
  }
  const { takeBackup } = await import('../server/backup/files');
  const taken = await takeBackup({ dataDir: config.dataDir, outDir: outDirFrom(process.argv.slice(2)) });
  const how =
    taken.from === 'server' ? 'from the running server' : 'from the data folder (no server running)';
  process.stdout.write(`Backup written to ${taken.file} (${taken.bytes} bytes, ${how}).\n`);
  return 0;
}

exitWith('backup', run);
