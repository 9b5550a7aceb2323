// Playwright drives Debian's Chromium (its own browser download is not reachable here): the journeys run in
// chromium-headless-shell, Chromium's headless browser without the desktop browser's UI (a third less CPU
// than the full browser in headless mode, which renders its own window and tab strip for nobody); Lighthouse
// and the bench drive the full browser. Install what is missing when we can (root with apt-get); otherwise
// say exactly what to install.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { browserPath, headlessShellPath } from '../tests/support/chromium.mjs';
import { runWithHeartbeat } from '../tests/support/heartbeat.mjs';

const missing = [
  ['chromium', browserPath()],
  ['chromium-headless-shell', headlessShellPath()],
].filter(([, path]) => !existsSync(path));
if (missing.length === 0) process.exit(0);

const packages = missing.map(([name]) => name);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (!isRoot || !hasApt) {
  console.error(
    `Missing: ${missing.map(([name, path]) => `${name} (${path})`).join(', ')}. Install Debian's packages (as root: apt-get update && apt-get install -y ${packages.join(' ')}), or set CHROMIUM_PATH and CHROMIUM_HEADLESS_SHELL_PATH to Chromium binaries.`,
  );
  process.exit(1);
}
console.log(`Installing Debian Chromium for the browser tests (apt-get install ${packages.join(' ')})…`);
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
await aptGet('install', '-y', ...packages, 'fonts-dejavu-core');
const still = missing.filter(([, path]) => !existsSync(path));
if (still.length > 0) {
  console.error(`apt-get finished but ${still.map(([, path]) => path).join(', ')} is still missing.`);
  process.exit(1);
}
