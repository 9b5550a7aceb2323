import { describe, expect, it } from 'vitest';
import { type AccountProfileEvent, accountProfileMachine } from '../../machines/account-profile.machine';
import { coverMachine, type ModelSpec } from './harness';

const PROFILE = {
  account_id: 'a-1',
  username: 'ane',
  email: 'ane@example.test',
  locale: 'eu',
  user: null,
};

const spec: ModelSpec<typeof accountProfileMachine> = {
  machine: accountProfileMachine,
  events: () => [
    { type: 'profile.retry' } satisfies AccountProfileEvent,
    { type: 'data.export' } satisfies AccountProfileEvent,
    { type: 'xstate.done.actor.loadProfile', output: PROFILE },
    { type: 'xstate.error.actor.loadProfile', error: { status: 0 } },
    { type: 'xstate.done.actor.exportData', output: undefined },
    { type: 'xstate.error.actor.exportData', error: { status: 500 } },
  ],
  provide: (control) =>
    accountProfileMachine.provide({
      actors: { loadProfile: control.actor('loadProfile'), exportData: control.actor('exportData') },
    }),
};

describe('account profile machine (generated paths)', () => {
  it('covers every transition on a real actor', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
  });
});
