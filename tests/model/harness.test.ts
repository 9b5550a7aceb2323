import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { coverMachine, replay } from './harness';

// The harness must be able to fail: a transition no path reaches is reported, and a replay that
// disagrees with the model throws.
const machine = createMachine({
  id: 'probe',
  initial: 'a',
  states: {
    a: { on: { go: 'b' } },
    b: { on: { back: 'a' } },
    orphan: { on: { go: 'a' } },
  },
});

describe('model harness', () => {
  it('reports a transition that no generated path takes', async () => {
    const report = await coverMachine(
      { machine, events: () => [{ type: 'go' }, { type: 'back' }], provide: () => machine },
      { writeReport: false },
    );
    expect(report.covered).toBe(2);
    expect(report.missing).toEqual(['probe.orphan --go[0]--> probe.a']);
  });

  it('reports the error codes that no path reaches', async () => {
    const report = await coverMachine(
      {
        machine,
        events: () => [{ type: 'go' }, { type: 'back' }],
        provide: () => machine,
        errorCodes: { expected: ['in-b', 'in-orphan'], read: (s) => (s.matches('b') ? ['in-b'] : []) },
      },
      { writeReport: false },
    );
    expect(report.errorCodes).toEqual({ total: 2, covered: 1, missing: ['in-orphan'] });
  });

  it('throws when the real actor ends a step elsewhere than the model', async () => {
    await expect(
      replay({ machine, events: () => [], provide: () => machine }, [
        { event: { type: 'go' }, expected: '"a"' },
      ]),
    ).rejects.toThrow(/ended in "b", the model says "a"/);
  });
});
