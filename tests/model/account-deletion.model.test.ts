import { describe, expect, it } from 'vitest';
import { type AccountDeletionEvent, accountDeletionMachine } from '../../machines/account-deletion.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

const spec: ModelSpec<typeof accountDeletionMachine> = {
  machine: accountDeletionMachine,
  events: () => [
    { type: 'field.submitted', value: '12345678Z' } satisfies AccountDeletionEvent,
    { type: 'deletion.confirmed' } satisfies AccountDeletionEvent,
    { type: 'deletion.cancelled' } satisfies AccountDeletionEvent,
    { type: 'xstate.done.actor.deleteAccount', output: undefined },
    { type: 'xstate.error.actor.deleteAccount', error: { status: 409, code: 'visit_in_progress' } },
    { type: 'xstate.error.actor.deleteAccount', error: { status: 400, code: 'bad_request' } },
    {
      type: 'xstate.error.actor.deleteAccount',
      error: { status: 422, code: 'id_mismatch', detail: 'The DNI/NIE does not match.' },
    },
    { type: 'xstate.error.actor.deleteAccount', error: { status: 403, code: 'staff_account' } },
    { type: 'xstate.error.actor.deleteAccount', error: { status: 409, code: 'last_admin' } },
    { type: 'xstate.error.actor.deleteAccount', error: { status: 0 } },
  ],
  provide: (control) =>
    accountDeletionMachine.provide({ actors: { deleteAccount: control.actor('deleteAccount') } }),
  errorCodes: {
    expected: ['visit_in_progress', 'bad_request', 'id_mismatch', 'staff_account', 'last_admin'],
    read: codesInMeta('errorCode'),
  },
};

describe('account deletion machine (generated paths)', () => {
  it('covers every transition and every refusal on a real actor', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });
});
