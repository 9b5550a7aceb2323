import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { type ActivateUsersEvent, activateUsersMachine } from '../../machines/activate-users.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

const spec: ModelSpec<typeof activateUsersMachine> = {
  machine: activateUsersMachine,
  events: () => [
    { type: 'activation.submitted', request: { region: 'es-ct' } } satisfies ActivateUsersEvent,
    { type: 'activation.again' } satisfies ActivateUsersEvent,
    {
      type: 'xstate.done.actor.activateUsers',
      output: { users: 3, region: 'es-ct', facility_id: 'f-1', alias: 'Casino Gran Vía' },
    },
    { type: 'xstate.error.actor.activateUsers', error: { status: 404, code: 'no_users_found' } },
    { type: 'xstate.error.actor.activateUsers', error: { status: 409, code: 'no_facility' } },
    { type: 'xstate.error.actor.activateUsers', error: { status: 0 } },
  ],
  provide: (control) =>
    activateUsersMachine.provide({ actors: { activateUsers: control.actor('activateUsers') } }),
  errorCodes: {
    expected: ['no_users_found', 'no_facility'],
    read: codesInMeta('errorCode'),
  },
};

describe('activate users machine (generated paths)', () => {
  it('covers every transition and every error on a real actor', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });

  it('sends the region and DNI/NIE given, and keeps the count it answers', async () => {
    const sent: unknown[] = [];
    const actor = createActor(
      activateUsersMachine.provide({
        actors: {
          activateUsers: fromPromise(async ({ input }) => {
            sent.push(input.request);
            return { users: 1, region: 'es-an', facility_id: 'f', alias: 'Sala Bilbao' };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'activation.submitted', request: { region: 'es-an', id_number: '30001013C' } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual([{ region: 'es-an', id_number: '30001013C' }]);
    expect(actor.getSnapshot().value).toBe('activated');
    expect(actor.getSnapshot().context.result?.users).toBe(1);
  });
});
