// npm run restore -- <backup file> [--force]: loads a backup into the data folder (server/backup/files.ts).
import { configFromEnv } from '../server/config';
import { exitWith } from './exit-with';

async function run(): Promise<number> {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const files = args.filter((arg) => arg !== '--force');
  const config = configFromEnv();
  if (config.databaseUrl) {
    process.stderr.write(
      'DATABASE_URL points to PostgreSQL: restore a pg_dump -Fc file with pg_restore ' +
        '(docs/operations.md, "Backup and restore").\n',
    );
    return 2;
  }
  if (files.length !== 1 || !config.dataDir || config.dataDir === 'memory://') {
    process.stderr.write('usage: DATA_DIR=<folder> npm run restore -- <backup .tar.gz> [--force]\n');
    return 2;
  }
  const { restoreBackup, RestoreRefused } = await import('../server/backup/files');
  try {
    const restored = await restoreBackup({ dataDir: config.dataDir, file: files[0] as string, force });
    if (restored.keptAside)
      process.stdout.write(`The folder that was there is kept at ${restored.keptAside}.\n`);
    const migrations =
      restored.applied.length > 0 ? `migrations applied: ${restored.applied.join(', ')}` : 'up to date';
    process.stdout.write(`Restored into ${restored.dataDir} (${migrations}); it opens.\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof RestoreRefused)) throw error;
    process.stderr.write(`restore refused: ${error.message}\n`);
    return 3;
  }
}

exitWith('restore', run);
