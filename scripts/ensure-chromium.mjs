// Playwright drives Debian's Chromium (its own browser download is not reachable here). Install it when
// it is missing and we can (root with apt-get); otherwise say exactly what to install.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { runWithHeartbeat } from '../tests/support/heartbeat.mjs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (!isRoot || !hasApt) {
  console.error(
    `Chromium is missing at ${path}. Install Debian's chromium package (as root: apt-get update && apt-get install -y chromium), or set CHROMIUM_PATH to a Chromium binary.`,
  );
  process.exit(1);
}
console.log('Installing Debian Chromium for the browser tests (apt-get install chromium)…');
// apt-get prints a line per index, per package downloaded, unpacked and set up (-q: without the progress
// bars of a terminal); the heartbeat covers a long download of one package.
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const aptGet = async (...args) => {
  const code = await runWithHeartbeat(`apt-get ${args[0]}`, 'apt-get', ['-q', ...args], { env });
  if (code !== 0) {
    console.error(`apt-get ${args.join(' ')} failed (exit ${code}).`);
    process.exit(1);
  }
};
await aptGet('update');
await aptGet('install', '-y', 'chromium', 'fonts-dejavu-core');
if (!existsSync(path)) {
  console.error(`apt-get finished but ${path} is still missing.`);
  process.exit(1);
}
