// Prints the model-based coverage report written by tests/model (one JSON per machine) and fails when a
// machine in machines/ has no report or a transition no generated path took.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { formatTable } from './table';

interface Report {
  machine: string;
  paths: number;
  transitions: number;
  covered: number;
  missing: string[];
  errorCodes?: { total: number; covered: number; missing: string[] };
}

const dir = 'coverage/model';
const machines = readdirSync('machines')
  .filter((f) => f.endsWith('.machine.ts'))
  .map((f) => f.replace('.machine.ts', ''));
const reports = new Map<string, Report>();
if (existsSync(dir)) {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const report = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as Report;
    // Reports are named by machine id (portrayalResult), machine files in kebab-case (portrayal-result).
    reports.set(
      report.machine.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
      report,
    );
  }
}

const problems: string[] = [];
const rows = machines.map((name) => {
  const r = reports.get(name);
  if (!r) {
    problems.push(`${name}: no generated paths (add tests/model/${name}.model.test.ts)`);
    return [name, '—', '—', 'no report'];
  }
  for (const t of r.missing) problems.push(`${name}: transition never taken: ${t}`);
  for (const c of r.errorCodes?.missing ?? []) problems.push(`${name}: error code never reached: ${c}`);
  const codes = r.errorCodes ? ` · codes ${r.errorCodes.covered}/${r.errorCodes.total}` : '';
  return [
    name,
    String(r.paths),
    `${r.covered}/${r.transitions}${codes}`,
    r.missing.length ? 'MISSING' : 'ok',
  ];
});

console.log('\nModel-based coverage (generated paths replayed on real actors)\n');
console.log(formatTable(['machine', 'paths', 'transitions covered', 'result'], rows));
if (problems.length) {
  console.error(`\n${problems.join('\n')}`);
  process.exit(1);
}
