// Checks the model coverage reports (coverage/model/<machine id>.json, written by coverMachine) against the
// machines as they are now (machines/*.machine.ts, imported again): every machine needs a report, the report
// must be for this version of the machine (machineFingerprint), and it must show every declared transition
// and every expected error code taken. scripts/model-coverage.ts prints the result.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { type CoverageReport, declaredTransitions, machineFingerprint } from './harness';

export const REPORTS_DIR = 'coverage/model';
export const MACHINES_DIR = 'machines';

export interface MachineFile {
  /** e.g. capture.machine.ts */
  file: string;
  machines: AnyStateMachine[];
}

function isMachine(value: unknown): value is AnyStateMachine {
  const candidate = value as Partial<AnyStateMachine> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.id === 'string' &&
    typeof candidate.getInitialSnapshot === 'function' &&
    typeof candidate.toJSON === 'function' &&
    candidate.root !== undefined
  );
}

/** The machines exported by machines/*.machine.ts, one per id (machine.provide() keeps the id). */
export async function loadMachineFiles(dir = MACHINES_DIR): Promise<MachineFile[]> {
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.machine.ts'))
    .sort();
  const loaded: MachineFile[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(resolve(dir, file)).href)) as Record<string, unknown>;
    const byId = new Map<string, AnyStateMachine>();
    for (const value of Object.values(module)) {
      if (isMachine(value) && !byId.has(value.id)) byId.set(value.id, value);
    }
    loaded.push({ file, machines: [...byId.values()] });
  }
  return loaded;
}

/** The reports found, by machine id. */
export function readReports(dir = REPORTS_DIR): Map<string, CoverageReport> {
  const reports = new Map<string, CoverageReport>();
  if (!existsSync(dir)) return reports;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CoverageReport;
    reports.set(report.machine, report);
  }
  return reports;
}

export type Verdict = 'ok' | 'MISSING' | 'STALE' | 'no report';

export interface CoverageCheck {
  /** machine file, machine id, paths, transitions covered, verdict */
  rows: { file: string; machine: string; paths: string; covered: string; verdict: Verdict }[];
  problems: string[];
}

/** What the reports say about the machines, and everything that is wrong. */
export function checkCoverage(files: MachineFile[], reports: Map<string, CoverageReport>): CoverageCheck {
  const check: CoverageCheck = { rows: [], problems: [] };
  for (const { file, machines } of files) {
    if (machines.length === 0) check.problems.push(`${file}: exports no state machine`);
    const testFile = `tests/model/${file.replace('.machine.ts', '.model.test.ts')}`;
    for (const machine of machines) {
      const name = `${file} (${machine.id})`;
      const row = { file, machine: machine.id, paths: '—', covered: '—' };
      const report = reports.get(machine.id);
      if (!report) {
        check.problems.push(`${name}: no report: no model test covered it (add ${testFile})`);
        check.rows.push({ ...row, verdict: 'no report' });
        continue;
      }
      row.paths = String(report.paths);
      row.covered = `${report.covered}/${report.transitions}${
        report.errorCodes ? ` · codes ${report.errorCodes.covered}/${report.errorCodes.total}` : ''
      }`;
      if (report.fingerprint !== machineFingerprint(machine)) {
        const now = declaredTransitions(machine).map((t) => t.key);
        const then = new Set(report.declared ?? []);
        const added = now.filter((key) => !then.has(key));
        const removed = [...then].filter((key) => !now.includes(key));
        const what = [
          ...added.map((key) => `transition added since: ${key}`),
          ...removed.map((key) => `transition gone since: ${key}`),
        ];
        if (what.length === 0) what.push('states, events, guards, actors or meta changed since');
        check.problems.push(
          `${name}: stale report: it was written for another version of the machine; ${what.join('; ')}`,
        );
        check.rows.push({ ...row, verdict: 'STALE' });
        continue;
      }
      for (const key of report.missing) check.problems.push(`${name}: transition never taken: ${key}`);
      for (const code of report.errorCodes?.missing ?? []) {
        check.problems.push(`${name}: error code never reached: ${code}`);
      }
      const incomplete = report.missing.length > 0 || (report.errorCodes?.missing.length ?? 0) > 0;
      check.rows.push({ ...row, verdict: incomplete ? 'MISSING' : 'ok' });
    }
  }
  return check;
}
