import { describe, expect, it } from 'vitest';
import { type PhoneHandoffEvent, phoneHandoffMachine } from '../../machines/phone-handoff.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

// Whether someone is signed in is the runtime's answer; here a code typed while signed out says so.
const SIGNED_OUT_CODE = 'wxyz-6789';

// The guard is part of the model (paths are generated from it), so the machine is provided with it up front.
const modelled = phoneHandoffMachine.provide({
  guards: { isSignedIn: ({ event }) => event.type === 'code.submitted' && event.code !== SIGNED_OUT_CODE },
});

const spec: ModelSpec<typeof phoneHandoffMachine> = {
  machine: modelled,
  events: () => [
    { type: 'code.submitted', code: 'abcd-2345' } satisfies PhoneHandoffEvent,
    { type: 'code.submitted', code: SIGNED_OUT_CODE } satisfies PhoneHandoffEvent,
    { type: 'code.submitted', code: 'not a code' } satisfies PhoneHandoffEvent,
    {
      type: 'xstate.done.actor.redeemCode',
      output: { onboarding_id: 'o-9', expires_at: '2030-01-01T00:10:00Z' },
    },
    { type: 'xstate.error.actor.redeemCode', error: { status: 404 } },
    { type: 'xstate.error.actor.redeemCode', error: { status: 410 } },
    { type: 'xstate.error.actor.redeemCode', error: { status: 409 } },
    { type: 'xstate.error.actor.redeemCode', error: { status: 0 } },
  ],
  provide: (control) => modelled.provide({ actors: { redeemCode: control.actor('redeemCode') } }),
  errorCodes: {
    expected: ['user_code_not_found', 'user_code_expired', 'user_code_used'],
    read: codesInMeta('errorCode'),
  },
};

describe('phone hand-off machine (generated paths)', () => {
  it('covers every transition and every refusal on a real actor', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });
});
