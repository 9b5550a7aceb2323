// npm test: runs the package.json scripts named on the command line, in order, stopping at the first that
// fails (like `a && b && c`), each with a heartbeat (tests/support/heartbeat.mjs), and prints how long each
// step took.
//   node tests/support/steps.mjs typecheck lint …
import { readFileSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';
import { formatDuration, runWithHeartbeat } from './heartbeat.mjs';

const { scripts } = JSON.parse(readFileSync('package.json', 'utf8'));
const steps = process.argv.slice(2);
const unknown = steps.filter((step) => !scripts[step]);
if (steps.length === 0 || unknown.length > 0) {
  console.error(`usage: node tests/support/steps.mjs <script>…; not in package.json: ${unknown.join(', ')}`);
  process.exit(2);
}

// What npm run gives a script: the local binaries first on the PATH.
const env = { PATH: `${resolve('node_modules/.bin')}${delimiter}${process.env.PATH ?? ''}` };
const times = [];
const summary = () => {
  const total = times.reduce((sum, t) => sum + t.ms, 0);
  console.log('\nnpm test, wall time per step:');
  for (const t of times)
    console.log(`  ${t.step.padEnd(22)} ${formatDuration(t.ms).padStart(10)}  ${t.result}`);
  console.log(`  ${'total'.padEnd(22)} ${formatDuration(total).padStart(10)}`);
};

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
