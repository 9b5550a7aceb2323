import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  type CredentialResetEvent,
  credentialResetMachine,
  type ResetCredential,
  resetRefusalOf,
} from '../../machines/credential-reset.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

// Whether someone is signed in is the runtime's answer; here a link opened with this token says "signed out".
const SIGNED_OUT_TOKEN = 'signed-out-token-0000000000000000';

const modelled = credentialResetMachine.provide({
  guards: { isSignedIn: ({ event }) => event.type === 'link.opened' && event.token !== SIGNED_OUT_TOKEN },
});

const spec: ModelSpec<typeof credentialResetMachine> = {
  machine: modelled,
  events: () => [
    { type: 'reset.requested', email: 'ane@example.test' } satisfies CredentialResetEvent,
    { type: 'link.opened', token: 'a-token-of-forty-characters-000000000000' } satisfies CredentialResetEvent,
    { type: 'link.opened', token: SIGNED_OUT_TOKEN } satisfies CredentialResetEvent,
    { type: 'link.retry' } satisfies CredentialResetEvent,
    { type: 'xstate.done.actor.requestReset', output: undefined },
    { type: 'xstate.error.actor.requestReset', error: { status: 0 } },
    {
      type: 'xstate.done.actor.redeemReset',
      output: {
        user_id: 'u-1',
        sid: 's-2',
        starts_at: '2030-01-01T00:00:00Z',
        ends_at: '2030-01-16T00:00:00Z',
        revoked: 1,
      },
    },
    { type: 'xstate.error.actor.redeemReset', error: { status: 410, code: 'reset_link_expired' } },
    { type: 'xstate.error.actor.redeemReset', error: { status: 409, code: 'reset_link_used' } },
    { type: 'xstate.error.actor.redeemReset', error: { status: 404, code: 'reset_link_not_found' } },
    { type: 'xstate.error.actor.redeemReset', error: { status: 403, code: 'forbidden' } },
    { type: 'xstate.error.actor.redeemReset', error: { status: 409, code: 'not_enrolled' } },
    { type: 'xstate.done.actor.fetchQrImage', output: 'blob:qr' },
    { type: 'xstate.error.actor.fetchQrImage', error: { status: 0 } },
  ],
  provide: (control) =>
    modelled.provide({
      actors: {
        requestReset: control.actor('requestReset'),
        redeemReset: control.actor('redeemReset'),
        fetchQrImage: control.actor('fetchQrImage'),
      },
    }),
  errorCodes: {
    expected: ['reset_link_expired', 'reset_link_used', 'reset_link_not_found', 'forbidden'],
    read: codesInMeta('errorCode'),
  },
};

describe('credential reset machine (generated paths)', () => {
  it('covers every transition and every refusal on a real actor', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });
});

describe('a redemption that fails', () => {
  it('is no claim that the link was used when the conflict has a code the portal does not know', () => {
    expect(resetRefusalOf({ status: 409, code: 'a_code_nobody_knows' })).toBe('unknown');
    expect(resetRefusalOf({ status: 409, code: 'not_enrolled' })).toBe('unknown');
    expect(resetRefusalOf({ status: 409, code: 'reset_link_used' })).toBe('reset_link_used');
    expect(resetRefusalOf({ status: 409 })).toBe('reset_link_used');
    expect(resetRefusalOf({ status: 410 })).toBe('reset_link_expired');
  });

  it('takes a 403 for what retrying cannot change: its own refusal, with no Try again', async () => {
    expect(resetRefusalOf({ status: 403, code: 'forbidden' })).toBe('forbidden');
    expect(resetRefusalOf({ status: 403 })).toBe('forbidden');
    const actor = createActor(
      credentialResetMachine.provide({
        guards: { isSignedIn: () => true },
        actors: {
          redeemReset: fromPromise<ResetCredential, { token: string }>(async () => {
            throw { status: 403, code: 'forbidden', text: 'You do not have the permission this call needs.' };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'link.opened', token: 'a-token' });
    const refused = await waitFor(actor, (s) => s.matches('refused'));
    expect(refused.matches({ refused: 'forbidden' })).toBe(true);
    expect(refused.can({ type: 'link.retry' })).toBe(false);
    // The way on: the email form asks for a new link.
    expect(refused.can({ type: 'reset.requested', email: 'ane@example.test' })).toBe(true);
  });

  it('keeps the code and the server’s words of a refusal no state names, to say them, and may be tried again', () => {
    const actor = createActor(
      credentialResetMachine.provide({
        guards: { isSignedIn: () => true },
        actors: {
          redeemReset: fromPromise<ResetCredential, { token: string }>(async () => {
            throw { status: 409, code: 'a_code_nobody_knows', text: 'Nobody knows' };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'link.opened', token: 'a-token' });
    return waitFor(actor, (s) => s.matches('refused')).then((s) => {
      expect(s.matches({ refused: 'failed' })).toBe(true);
      expect(s.context.problem).toEqual({ code: 'a_code_nobody_knows', text: 'Nobody knows' });
      expect(s.can({ type: 'link.retry' })).toBe(true);
    });
  });
});
