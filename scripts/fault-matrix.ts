import { readFileSync, writeFileSync } from 'node:fs';
import { DOC, matrixMarkdown, readResults } from '../tests/support/fault-matrix.ts';
import { PENDING_ROWS } from '../tests/support/fault-matrix-rows.ts';

// Writes docs/fault-matrix.md from the last run of tests/e2e/fault-matrix.spec.ts (test-results/fault-matrix/), or
// with --check fails when the committed table is not what that run found: the table in the docs is the one the
// journeys proved, and a change in what a screen shows on a failure shows in review.
const args = process.argv.slice(2);
const known = ['--check', '--print'];
if (args.includes('--help') || args.some((arg) => !known.includes(arg))) {
  console.log(
    [
      'npm run fault-matrix [-- --check | --print]',
      `  (no option)  writes ${DOC} from test-results/fault-matrix/ (the last run of the spec)`,
      '  --check      fails when the committed table is not what that run found (in npm test)',
      '  --print      prints the table to stdout and writes nothing (a partial run: only its journeys)',
    ].join('\n'),
  );
  process.exit(args.includes('--help') ? 0 : 2);
}
const check = args.includes('--check');
const print = args.includes('--print');
const results = readResults();
if (results.length === 0) {
  console.error(
    'fault-matrix: no results in test-results/fault-matrix; run tests/e2e/fault-matrix.spec.ts first',
  );
  process.exit(1);
}
const catalogue = JSON.parse(readFileSync('src/i18n/messages/es.json', 'utf8')) as Record<string, string>;
const table = matrixMarkdown(results, PENDING_ROWS, catalogue);
if (check) {
  const committed = readFileSync(DOC, 'utf8');
  if (committed !== table) {
    console.error(
      `fault-matrix: ${DOC} is not what the last run found; run npm run fault-matrix and commit it`,
    );
    process.exit(1);
  }
  console.log(`fault-matrix: ${DOC} matches the last run`);
} else if (print) {
  process.stdout.write(table);
} else {
  writeFileSync(DOC, table);
  console.log(`fault-matrix: wrote ${DOC}`);
}
