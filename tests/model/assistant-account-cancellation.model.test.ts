import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { FoundAccount } from '../../machines/assistant-account-cancellation.machine';
import {
  type AssistantAccountCancellationEvent,
  assistantAccountCancellationMachine,
} from '../../machines/assistant-account-cancellation.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

const account: FoundAccount = {
  id: 'a-1',
  username: 'member-03',
  email: 'member-03@x.example',
  firstName: 'Ane',
  lastName: 'Arana',
};

const spec: ModelSpec<typeof assistantAccountCancellationMachine> = {
  machine: assistantAccountCancellationMachine,
  events: () => [
    { type: 'account.searched', email: 'member-03@x.example' } satisfies AssistantAccountCancellationEvent,
    { type: 'field.submitted', value: '40000003X' } satisfies AssistantAccountCancellationEvent,
    { type: 'cancellation.confirmed' } satisfies AssistantAccountCancellationEvent,
    { type: 'cancellation.cancelled' } satisfies AssistantAccountCancellationEvent,
    { type: 'xstate.done.actor.findAccount', output: account },
    { type: 'xstate.error.actor.findAccount', error: { status: 404, code: 'not_found' } },
    { type: 'xstate.error.actor.findAccount', error: { status: 0 } },
    { type: 'xstate.done.actor.cancelAccount' },
    { type: 'xstate.error.actor.cancelAccount', error: { status: 409, code: 'visit_in_progress' } },
    { type: 'xstate.error.actor.cancelAccount', error: { status: 400, code: 'bad_request' } },
    {
      type: 'xstate.error.actor.cancelAccount',
      error: { status: 422, code: 'id_mismatch', detail: 'El DNI/NIE no coincide.' },
    },
    { type: 'xstate.error.actor.cancelAccount', error: { status: 403, code: 'staff_account' } },
    { type: 'xstate.error.actor.cancelAccount', error: { status: 409, code: 'last_admin' } },
    { type: 'xstate.error.actor.cancelAccount', error: { status: 500 } },
  ],
  provide: (control) =>
    assistantAccountCancellationMachine.provide({
      actors: { findAccount: control.actor('findAccount'), cancelAccount: control.actor('cancelAccount') },
    }),
  errorCodes: {
    expected: [
      'account_not_found',
      'visit_in_progress',
      'bad_request',
      'id_mismatch',
      'staff_account',
      'last_admin',
    ],
    read: codesInMeta('errorCode'),
  },
};

describe('assistant account cancellation machine (generated paths)', () => {
  it('covers every transition and every refusal on a real actor', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });

  it('keeps the server detail of a mismatch, then cancels the account found with the DNI/NIE typed', async () => {
    const calls: unknown[] = [];
    const actor = createActor(
      assistantAccountCancellationMachine.provide({
        actors: {
          findAccount: fromPromise(async () => account),
          cancelAccount: fromPromise(async ({ input }) => {
            calls.push(input);
            if (input.idNumber !== '40000003X') {
              throw { status: 422, code: 'id_mismatch', detail: 'El DNI/NIE no coincide.' };
            }
          }),
        },
      }),
    ).start();
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'account.searched', email: ' member-03@x.example ' });
    await settle();
    actor.send({ type: 'field.submitted', value: '12345678Z' });
    actor.send({ type: 'cancellation.confirmed' });
    await settle();
    expect(actor.getSnapshot().value).toEqual({ refused: 'idMismatch' });
    expect(actor.getSnapshot().context.detail).toBe('El DNI/NIE no coincide.');
    actor.send({ type: 'field.submitted', value: '40000003X' });
    actor.send({ type: 'cancellation.confirmed' });
    await settle();
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(calls).toEqual([
      { accountId: 'a-1', idNumber: '12345678Z' },
      { accountId: 'a-1', idNumber: '40000003X' },
    ]);
  });
});
