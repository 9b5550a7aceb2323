// Runs a command and passes its output through; when it has printed nothing for 20 s, prints a line saying
// it is still running, so no step of `npm test` stays silent for 30 s on a busy machine (a long apt-get,
// servers starting before the first journey, a slow test file).
//   node tests/support/heartbeat.mjs <label> -- <command> [args…]
import { spawn } from 'node:child_process';

const QUIET_MS = 20_000;

const seconds = (ms) => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

/** Resolves with the exit code (1 when killed by a signal). */
export function runWithHeartbeat(label, command, args, options = {}) {
  const started = Date.now();
  let last = started;
  const env = { ...process.env, ...options.env };
  // Piped output is not a terminal; keep the colours when ours is one.
  if (process.stdout.isTTY && env.FORCE_COLOR === undefined && env.NO_COLOR === undefined)
    env.FORCE_COLOR = '1';
  const child = spawn(command, args, {
    stdio: ['inherit', 'pipe', 'pipe'],
    env,
    shell: options.shell ?? false,
  });
  child.stdout.on('data', (chunk) => {
    last = Date.now();
    process.stdout.write(chunk);
  });
  child.stderr.on('data', (chunk) => {
    last = Date.now();
    process.stderr.write(chunk);
  });
  const timer = setInterval(() => {
    const now = Date.now();
    if (now - last < QUIET_MS) return;
    last = now;
    console.log(`… ${label}: still running (${seconds(now - started)} so far)`);
  }, 1_000);
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.on('error', (error) => {
      console.error(`${label}: ${error.message}`);
    });
    child.on('close', (code) => {
      clearInterval(timer);
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? 1);
    });
  });
}

export { seconds as formatDuration };

if (import.meta.url === `file://${process.argv[1]}`) {
  const [label, separator, command, ...args] = process.argv.slice(2);
  if (!label || separator !== '--' || !command) {
    console.error('usage: node tests/support/heartbeat.mjs <label> -- <command> [args…]');
    process.exit(2);
  }
  process.exit(await runWithHeartbeat(label, command, args));
}
