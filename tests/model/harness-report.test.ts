import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { coverMachine, machineFingerprint } from './harness';
import { checkCoverage, readReports } from './harness-report';

// The coverage check must be able to fail: no report, a report of another version of the machine (stale),
// and a transition no path took.
const v1 = createMachine({
  id: 'probe',
  initial: 'a',
  states: { a: { on: { go: 'b' } }, b: { on: { back: 'a' } } },
});
// The same machine with one more transition, added after its report was written.
const v2 = createMachine({
  id: 'probe',
  initial: 'a',
  states: { a: { on: { go: 'b' } }, b: { on: { back: 'a', skip: 'a' } } },
});
const events = () => [{ type: 'go' }, { type: 'back' }, { type: 'skip' }];
const reportOf = (machine: typeof v1) =>
  coverMachine({ machine, events, provide: () => machine }, { writeReport: false });
const file = (machine: typeof v1) => [{ file: 'probe.machine.ts', machines: [machine] }];

describe('model coverage check', () => {
  it('passes a report written for the machine as it is', async () => {
    const check = checkCoverage(file(v1), new Map([['probe', await reportOf(v1)]]));
    expect(check.problems).toEqual([]);
    expect(check.rows).toMatchObject([{ machine: 'probe', covered: '2/2', verdict: 'ok' }]);
  });

  it('fails a stale report, naming the transition added since it was written', async () => {
    const check = checkCoverage(file(v2), new Map([['probe', await reportOf(v1)]]));
    expect(check.rows).toMatchObject([{ verdict: 'STALE' }]);
    expect(check.problems).toEqual([
      expect.stringMatching(
        /^probe\.machine\.ts \(probe\): stale report: .*transition added since: probe\.b --skip\[0\]--> probe\.a$/,
      ),
    ]);
  });

  it('fails a stale report when only the definition changed (a guard, a state, meta)', async () => {
    const v1WithMeta = createMachine({
      ...v1.config,
      states: { ...v1.config.states, a: { on: { go: 'b' }, meta: { screen: 'A' } } },
    });
    expect(machineFingerprint(v1WithMeta)).not.toBe(machineFingerprint(v1));
    const check = checkCoverage(file(v1WithMeta), new Map([['probe', await reportOf(v1)]]));
    expect(check.problems).toEqual([expect.stringMatching(/stale report: .*meta changed since$/)]);
  });

  it('keeps the fingerprint of a machine whose implementations are provided (the tests replay those)', () => {
    expect(machineFingerprint(v1.provide({ actions: {} }))).toBe(machineFingerprint(v1));
  });

  it('fails a machine without a report and a transition never taken', async () => {
    expect(checkCoverage(file(v1), new Map()).problems).toEqual([
      'probe.machine.ts (probe): no report: no model test covered it (add tests/model/probe.model.test.ts)',
    ]);
    const partial = await coverMachine(
      { machine: v2, events: () => [{ type: 'go' }, { type: 'back' }], provide: () => v2 },
      { writeReport: false },
    );
    expect(checkCoverage(file(v2), new Map([['probe', partial]])).problems).toEqual([
      'probe.machine.ts (probe): transition never taken: probe.b --skip[0]--> probe.a',
    ]);
  });

  it('reads the reports by machine id', () => {
    const dir = mkdtempSync(join(tmpdir(), 'model-reports-'));
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'probe.json'), JSON.stringify({ machine: 'probe', missing: [] }));
      expect([...readReports(dir).keys()]).toEqual(['probe']);
      expect(readReports(join(dir, 'absent')).size).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
