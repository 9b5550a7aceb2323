// `npm run cluster` puts Debian's HAProxy in front of the server processes. Install it when it is missing and
// we can (root with apt-get); otherwise say exactly what to install.
import { spawnSync } from 'node:child_process';
import { runWithHeartbeat } from '../tests/support/heartbeat.mjs';

export const haproxyPath = () =>
  process.env.HAPROXY_PATH ??
  (spawnSync('sh', ['-c', 'command -v haproxy || ls /usr/sbin/haproxy'], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')[0] ||
    undefined);

export async function ensureHaproxy() {
  if (haproxyPath()) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) {
    throw new Error(
      "HAProxy is missing. Install Debian's haproxy package (as root: apt-get update && apt-get install -y haproxy), or set HAPROXY_PATH.",
    );
  }
  console.log('Installing Debian HAProxy for the cluster (apt-get install haproxy)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', 'haproxy']]) {
    const code = await runWithHeartbeat(`apt-get ${args[0]}`, 'apt-get', ['-q', ...args], { env });
    if (code !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${code}).`);
  }
  if (!haproxyPath()) throw new Error('apt-get finished but haproxy is still missing.');
}
