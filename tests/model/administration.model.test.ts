import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  type AdminAction,
  type AdministrationEvent,
  type AdminResult,
  administrationMachine,
} from '../../machines/administration.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

const spec: ModelSpec<typeof administrationMachine> = {
  machine: administrationMachine,
  input: { tenant: 'demo' },
  serialize: (snapshot) => ({ value: snapshot.value, typed: snapshot.context.typed }),
  events: () => [
    { type: 'action.chosen', action: 'deleteAllData' } satisfies AdministrationEvent,
    { type: 'confirmation.typed', value: 'demo' } satisfies AdministrationEvent,
    { type: 'confirmation.typed', value: 'dem' } satisfies AdministrationEvent,
    { type: 'action.confirmed' } satisfies AdministrationEvent,
    { type: 'action.cancelled' } satisfies AdministrationEvent,
    { type: 'xstate.done.actor.runAction', output: { users: 60, images: 178 } },
    { type: 'xstate.error.actor.runAction', error: { status: 422, code: 'confirmation_mismatch' } },
    { type: 'xstate.error.actor.runAction', error: { status: 0 } },
  ],
  provide: (control) => administrationMachine.provide({ actors: { runAction: control.actor('runAction') } }),
  errorCodes: {
    expected: ['confirmation_mismatch'],
    read: codesInMeta('errorCode'),
  },
};

describe('administration machine (generated paths)', () => {
  it('covers every transition and every refusal on a real actor', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });

  it('keeps what the server said of a failure for the screen, and forgets it with the next action', async () => {
    const actor = createActor(
      administrationMachine.provide({
        actors: {
          runAction: fromPromise<AdminResult, { action: AdminAction; confirm: string }>(async () => {
            throw { status: 409, code: 'nobody_knows', detail: 'A conflict of its own' };
          }),
        },
      }),
      { input: { tenant: 'demo' } },
    ).start();
    actor.send({ type: 'action.chosen', action: 'activateAll' });
    actor.send({ type: 'confirmation.typed', value: 'demo' });
    actor.send({ type: 'action.confirmed' });
    await waitFor(actor, (s) => s.matches({ failed: 'unknown' }));
    expect(actor.getSnapshot().context.problem).toEqual({
      code: 'nobody_knows',
      detail: 'A conflict of its own',
    });
    actor.send({ type: 'action.chosen', action: 'deactivateAll' });
    expect(actor.getSnapshot().context.problem).toBeNull();
  });

  it('does not run an action until the tenant name is typed', () => {
    const runs: string[] = [];
    const actor = createActor(
      administrationMachine.provide({
        actors: {
          runAction: fromPromise(async ({ input }) => {
            runs.push(input.action);
            return { users: 1, images: 0 };
          }),
        },
      }),
      { input: { tenant: 'demo' } },
    ).start();
    actor.send({ type: 'action.chosen', action: 'deleteUsers' });
    actor.send({ type: 'confirmation.typed', value: 'gambling' });
    actor.send({ type: 'action.confirmed' });
    expect(actor.getSnapshot().value).toBe('confirming');
    actor.send({ type: 'confirmation.typed', value: ' demo ' });
    actor.send({ type: 'action.confirmed' });
    expect(actor.getSnapshot().value).toBe('working');
    expect(runs).toEqual(['deleteUsers']);
  });

  it('hands the typed tenant name to every action, activate and deactivate all included', async () => {
    const inputs: { action: string; confirm: string }[] = [];
    const actor = createActor(
      administrationMachine.provide({
        actors: {
          runAction: fromPromise(async ({ input }) => {
            inputs.push(input);
            return { users: 1, images: 0 };
          }),
        },
      }),
      { input: { tenant: 'demo' } },
    ).start();
    const actions = ['activateAll', 'deactivateAll', 'deleteUsers', 'deleteAllData'] as const;
    for (const action of actions) {
      actor.send({ type: 'action.chosen', action });
      // A new action starts with an empty field: the name typed for the last one does not carry over.
      expect(actor.getSnapshot().context.typed).toBe('');
      actor.send({ type: 'confirmation.typed', value: 'demo ' });
      actor.send({ type: 'action.confirmed' });
      await waitFor(actor, (s) => s.matches('done'));
    }
    expect(inputs).toEqual(actions.map((action) => ({ action, confirm: 'demo' })));
  });
});
