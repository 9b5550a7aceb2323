// npm run test:changed (the last step of test:quick): the Vitest tests of what changed since the last commit, within
// about 45 s on two cores. Vitest's own `--changed` runs every test file whose imports reach a changed file; for
// a file near the root of the graph (src/api/errors.ts reaches most server tests through the first paint) that was
// four minutes. So: the related files are listed first (`vitest list --changed`), and their cost estimated from
// Vitest's record of how long each file took last time. When they fit the budget they all run. When they do not,
// the files that are closest to the change run — those changed themselves, then those that import a changed file
// directly, the quickest first, as long as they fit — and the rest are named as a count, with the command that runs
// them all. Extra arguments go to Vitest (e.g. `npm run test:changed -- --project unit`).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

// typecheck and lint take about 20 s of test:quick's minute and a half.
const BUDGET_SECONDS = 45;
const PROJECTS = ['unit', 'server', 'scripts', 'model'];
// What a file costs that Vitest has no record of (a new file, a fresh clone), in seconds.
const UNKNOWN_COST = { server: 6, default: 1.5 };
// What every server worker pays once before its first file: the server's module graph, PGlite and the seed image.
const SERVER_START = 10;

const vitest = join('node_modules', 'vitest', 'vitest.mjs');
const extra = process.argv.slice(2);
const projectArgs = extra.some((arg) => arg.startsWith('--project'))
  ? []
  : PROJECTS.flatMap((project) => ['--project', project]);

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
const changed = new Set(
  [...git('diff', '--name-only', 'HEAD'), ...git('ls-files', '--others', '--exclude-standard')].map((file) =>
    resolve(file),
  ),
);
if (changed.size === 0) {
  console.log('Nothing changed since the last commit: no related tests to run.');
  process.exit(0);
}

const listed = spawnSync(
  process.execPath,
  [vitest, 'list', '--changed', '--filesOnly', '--json', ...projectArgs, ...extra],
  { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
if (listed.status !== 0) {
  process.stderr.write(listed.stderr);
  process.exit(listed.status ?? 1);
}
/** @type {{ file: string; projectName?: string }[]} */
const related = JSON.parse(listed.stdout.slice(listed.stdout.indexOf('[')) || '[]');
if (related.length === 0) {
  console.log('No Vitest test depends on what changed.');
  process.exit(0);
}

const durations = lastDurations();
const cost = ({ file, projectName = '' }) => {
  const ms = durations.get(`${projectName}:${relative('.', file)}`);
  return ms === undefined ? (UNKNOWN_COST[projectName] ?? UNKNOWN_COST.default) : ms / 1000;
};
const workers = availableParallelism();
const estimate = (entries) =>
  entries.reduce((sum, entry) => sum + cost(entry), 0) / workers +
  (entries.some((entry) => entry.projectName === 'server') ? SERVER_START : 0);

let chosen = related;
if (estimate(related) > BUDGET_SECONDS) {
  const closeness = (entry) => (changed.has(entry.file) ? 0 : importsChanged(entry.file) ? 1 : 2);
  const candidates = related
    .filter((entry) => closeness(entry) < 2)
    .sort((a, b) => closeness(a) - closeness(b) || cost(a) - cost(b));
  chosen = [];
  for (const entry of candidates) {
    if (chosen.length > 0 && estimate([...chosen, entry]) > BUDGET_SECONDS) continue;
    chosen.push(entry);
  }
  const running =
    chosen.length === 0
      ? 'none of them is a changed test or imports a changed file directly, so none runs now'
      : `running the ${chosen.length} closest to the change`;
  console.log(
    `${related.length} test files depend on what changed (about ${Math.round(estimate(related))} s on ${workers} ` +
      `cores): ${running}. \`npm run test:unit\` runs them all; npm test runs everything.`,
  );
}
if (chosen.length === 0) process.exit(0);

const files = [...new Set(chosen.map((entry) => relative('.', entry.file)))];
const projects = [...new Set(chosen.map((entry) => entry.projectName).filter(Boolean))];
const run = spawnSync(
  process.execPath,
  [vitest, 'run', ...projects.flatMap((project) => ['--project', project]), ...extra, ...files],
  { stdio: 'inherit' },
);
process.exit(run.status ?? 1);

/** Vitest's record of each file's last duration in ms, by `project:path` (node_modules/.vite/vitest/…/results.json). */
function lastDurations() {
  const map = new Map();
  const root = join('node_modules', '.vite', 'vitest');
  if (!existsSync(root)) return map;
  for (const folder of readdirSync(root)) {
    const path = join(root, folder, 'results.json');
    if (!existsSync(path)) continue;
    try {
      for (const [key, value] of JSON.parse(readFileSync(path, 'utf8')).results ?? []) {
        if (typeof value?.duration === 'number') map.set(key, value.duration);
      }
    } catch {
      // A record being written by a run beside this one: no estimate from it.
    }
  }
  return map;
}

/** Whether a test file imports one of the changed files itself (not through another module). */
function importsChanged(file) {
  const source = readFileSync(file, 'utf8');
  const specifiers = [
    ...source.matchAll(/(?:from\s+|import\s*\(\s*|vi\.mock\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g),
  ];
  return specifiers.some(([, specifier]) => {
    const base = resolve(dirname(file), specifier);
    if (changed.has(base)) return true;
    const stem = base.replace(/\.js$/, '');
    return ['.ts', '.tsx', '.mjs', '/index.ts', '/index.tsx'].some((ending) => changed.has(stem + ending));
  });
}
