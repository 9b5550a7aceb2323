import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { InterdictionRequest, InterdictionResponse } from '../../contract/api/audit';
import {
  type InterdictionCheckEvent,
  interdictionCheckMachine,
} from '../../machines/interdiction-check.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

const request = { id_number: '12345678Z', birth_date: '1980-01-01' };

const spec: ModelSpec<typeof interdictionCheckMachine> = {
  machine: interdictionCheckMachine,
  events: () => [
    { type: 'check.submitted', request } satisfies InterdictionCheckEvent,
    { type: 'check.again' } satisfies InterdictionCheckEvent,
    ...(['user_not_found', 'granted', 'denied', 'underaged', 'indeterminate'] as const).map((result) => ({
      type: 'xstate.done.actor.checkInterdiction',
      output: { result, reason: null },
    })),
    { type: 'xstate.error.actor.checkInterdiction', error: { status: 422, code: 'validation' } },
    { type: 'xstate.error.actor.checkInterdiction', error: { status: 0 } },
  ],
  provide: (control) =>
    interdictionCheckMachine.provide({ actors: { checkInterdiction: control.actor('checkInterdiction') } }),
  errorCodes: {
    expected: ['validation', 'unknown'],
    read: codesInMeta('errorCode'),
  },
};

describe('interdiction check machine (generated paths)', () => {
  it('covers every transition and every error on a real actor', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });

  it('keeps what the server said of a failed check for the screen, and forgets it with the next check', async () => {
    let fail = true;
    const actor = createActor(
      interdictionCheckMachine.provide({
        actors: {
          checkInterdiction: fromPromise<InterdictionResponse, { request: InterdictionRequest }>(async () => {
            if (fail) throw { status: 409, code: 'nobody_knows', detail: 'A conflict of its own' };
            return { result: 'granted', reason: null };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'check.submitted', request });
    await waitFor(actor, (s) => s.matches({ failed: 'unknown' }));
    expect(actor.getSnapshot().context.problem).toEqual({
      code: 'nobody_knows',
      detail: 'A conflict of its own',
    });
    fail = false;
    actor.send({ type: 'check.submitted', request });
    expect(actor.getSnapshot().context.problem).toBeNull();
    await waitFor(actor, (s) => s.matches('answered'));
  });
});
