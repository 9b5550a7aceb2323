// The PostgreSQL tests and `npm run cluster` start a throwaway server from Debian's binaries. Install them when
// they are missing and we can (root with apt-get); otherwise say exactly what to install.
import { spawnSync } from 'node:child_process';
import { runWithHeartbeat } from '../tests/support/heartbeat.mjs';
import { postgresBinDir } from './postgres.mjs';

if (postgresBinDir()) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (!isRoot || !hasApt) {
  console.error(
    "PostgreSQL is missing (no initdb under /usr/lib/postgresql/*/bin). Install Debian's postgresql package (as root: apt-get update && apt-get install -y postgresql), or set PG_BIN_DIR to the folder holding initdb and pg_ctl.",
  );
  process.exit(1);
}
console.log('Installing Debian PostgreSQL for the database tests (apt-get install postgresql)…');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update'], ['install', '-y', 'postgresql']]) {
  const code = await runWithHeartbeat(`apt-get ${args[0]}`, 'apt-get', ['-q', ...args], { env });
  if (code !== 0) {
    console.error(`apt-get ${args.join(' ')} failed (exit ${code}).`);
    process.exit(1);
  }
}
if (!postgresBinDir()) {
  console.error('apt-get finished but initdb is still missing under /usr/lib/postgresql/*/bin.');
  process.exit(1);
}
