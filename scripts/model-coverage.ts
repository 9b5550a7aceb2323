// npm run test:model-coverage: runs the model-based tests (vitest --project model), which replay generated
// paths on every machine and write coverage/model/<machine id>.json, then checks those reports against the
// machines of machines/*.machine.ts as they are now, and fails when a machine has no report, when a report
// was written for another version of its machine (stale: a transition added, removed or changed since), or
// when a transition or an expected error code was never reached.
//   --no-run   check the reports of an earlier `npm run test:model` without running the tests again
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { checkCoverage, loadMachineFiles, REPORTS_DIR, readReports } from '../tests/model/harness-report';
import { formatTable } from './table';

const run = !process.argv.includes('--no-run');
let testsFailed = false;
if (run) {
  // A report left from an earlier run must not stand in for one this run did not write.
  rmSync(REPORTS_DIR, { recursive: true, force: true });
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const result = spawnSync(process.execPath, [vitest, 'run', '--project', 'model'], { stdio: 'inherit' });
  testsFailed = result.status !== 0;
}

const check = checkCoverage(await loadMachineFiles(), readReports());
console.log('\nModel-based coverage (generated paths replayed on real actors)\n');
console.log(
  formatTable(
    ['machine', 'id', 'paths', 'transitions covered', 'result'],
    check.rows.map((r) => [r.file, r.machine, r.paths, r.covered, r.verdict]),
  ),
);
if (check.problems.length) console.error(`\n${check.problems.join('\n')}`);
if (testsFailed) console.error('\nThe model tests failed (see above).');
if (check.problems.length || testsFailed) process.exit(1);
