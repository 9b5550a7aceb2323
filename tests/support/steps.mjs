// npm test: runs the package.json scripts named on the command line, in order, stopping at the first that
// fails (like `a && b && c`), each with a heartbeat (tests/support/heartbeat.mjs), and prints how long each
// step took. With --record, the run's step times are appended to bench/results/test-steps.jsonl (npm test
// does; npm run test:quick does not), where `npm run bench` reads them so the suite's growth shows.
//   node tests/support/steps.mjs [--record] typecheck lint …
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, dirname, resolve } from 'node:path';
import { formatDuration, runWithHeartbeat } from './heartbeat.mjs';
import { STEP_TIMES_FILE } from './step-times.mjs';

const { scripts } = JSON.parse(readFileSync('package.json', 'utf8'));
const args = process.argv.slice(2);
const record = args[0] === '--record';
const steps = record ? args.slice(1) : args;
const unknown = steps.filter((step) => !scripts[step]);
if (steps.length === 0 || unknown.length > 0) {
  console.error(
    `usage: node tests/support/steps.mjs [--record] <script>…; not in package.json: ${unknown.join(', ')}`,
  );
  process.exit(2);
}

// What npm run gives a script: the local binaries first on the PATH.
const env = { PATH: `${resolve('node_modules/.bin')}${delimiter}${process.env.PATH ?? ''}` };
const times = [];
const event = process.env.npm_lifecycle_event;
const title = event === 'test' ? 'npm test' : event ? `npm run ${event}` : 'steps';
const summary = () => {
  const total = times.reduce((sum, t) => sum + t.ms, 0);
  console.log(`\n${title}, wall time per step:`);
  for (const t of times)
    console.log(`  ${t.step.padEnd(22)} ${formatDuration(t.ms).padStart(10)}  ${t.result}`);
  console.log(`  ${'total'.padEnd(22)} ${formatDuration(total).padStart(10)}`);
  if (record) save(total);
};

/** One line per run: when, which commit, how many cores, each step's seconds and result. */
function save(total) {
  let commit = null;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    // Not a git checkout: the line goes without a commit.
  }
  const line = {
    date: new Date().toISOString(),
    commit,
    cores: availableParallelism(),
    ci: Boolean(process.env.CI),
    ok: times.every((t) => t.result === 'ok'),
    totalSeconds: Math.round(total / 1000),
    steps: times.map((t) => ({ step: t.step, seconds: Math.round(t.ms / 1000), result: t.result })),
  };
  mkdirSync(dirname(STEP_TIMES_FILE), { recursive: true });
  appendFileSync(STEP_TIMES_FILE, `${JSON.stringify(line)}\n`);
}

for (const [index, step] of steps.entries()) {
  console.log(`\n▶ ${index + 1}/${steps.length} ${step}: ${scripts[step]}`);
  const started = Date.now();
  const code = await runWithHeartbeat(step, scripts[step], [], { shell: true, env });
  times.push({ step, ms: Date.now() - started, result: code === 0 ? 'ok' : `FAILED (exit ${code})` });
  if (code !== 0) {
    summary();
    process.exit(code);
  }
}
summary();
