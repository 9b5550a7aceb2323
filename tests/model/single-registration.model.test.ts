import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import {
  type SingleRegistrationEvent,
  singleRegistrationMachine,
} from '../../machines/single-registration.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

// Generated paths over SingleRegistration: both modes, the existence checks as the person types (each check's
// pause is a SimulatedClock step; one region waits at a time so that one step fires one timer), every rejection
// reason of spec §8, the field errors of a 409/422, a busy server's retries (and the form after the last), and a
// failure without an answer. The acs_id schema is the
// machine's input: one spec per schema (string64 reaches wrong_format, Wiegand reaches wiegand_range).

const body = { mode: 'fields' as const, email: 'ane@example.test' };
const rejected = (reason: string, code: number) => ({ result: { outcome: 'rejected', reason, code } });

function events(acsIds: { valid: string; invalid: string }) {
  return (snapshot: { matches: (value: unknown) => boolean }): (EventObject & Record<string, unknown>)[] => {
    const emailWaits = snapshot.matches({ editing: { email: 'waiting' } });
    const acsWaits = snapshot.matches({ editing: { acsId: 'waiting' } });
    return [
      { type: 'mode.changed', mode: 'image' } satisfies SingleRegistrationEvent,
      ...(acsWaits
        ? []
        : [{ type: 'email.changed', email: 'ane@example.test' } satisfies SingleRegistrationEvent]),
      { type: 'email.changed', email: 'ane@' } satisfies SingleRegistrationEvent,
      ...(emailWaits
        ? []
        : [{ type: 'acsId.changed', acsId: acsIds.valid } satisfies SingleRegistrationEvent]),
      { type: 'acsId.changed', acsId: acsIds.invalid } satisfies SingleRegistrationEvent,
      { type: 'acsId.changed', acsId: '' } satisfies SingleRegistrationEvent,
      { type: 'submit', body } satisfies SingleRegistrationEvent,
      { type: 'again' } satisfies SingleRegistrationEvent,
      { type: 'xstate.after.typingPause.singleRegistration.editing.email.waiting' },
      { type: 'xstate.after.typingPause.singleRegistration.editing.acsId.waiting' },
      { type: 'xstate.done.actor.checkEmail', output: true },
      { type: 'xstate.done.actor.checkEmail', output: false },
      { type: 'xstate.error.actor.checkEmail', error: { status: 0 } },
      { type: 'xstate.done.actor.checkAcsId', output: true },
      { type: 'xstate.done.actor.checkAcsId', output: false },
      { type: 'xstate.error.actor.checkAcsId', error: { status: 0 } },
      {
        type: 'xstate.done.actor.register',
        output: { result: { outcome: 'accepted', reason: null, code: 0, user_id: 'u-1', qr_sid: 's-1' } },
      },
      { type: 'xstate.done.actor.register', output: rejected('selfie_not_provided', 1) },
      { type: 'xstate.done.actor.register', output: rejected('embedding_generation_failed', 1) },
      { type: 'xstate.done.actor.register', output: rejected('acs_id_already_in_use', 2) },
      { type: 'xstate.done.actor.register', output: rejected('qr_generation_failed', 3) },
      { type: 'xstate.done.actor.register', output: rejected('something_else', 0) },
      {
        type: 'xstate.error.actor.register',
        error: {
          status: 409,
          code: 'email_already_in_use',
          errors: [{ field: 'email', code: 'email_already_in_use' }],
        },
      },
      { type: 'xstate.error.actor.register', error: { status: 429, code: 'busy', retryAfter: 3 } },
      { type: 'xstate.after.busyRetry.singleRegistration.busy' },
      { type: 'xstate.error.actor.register', error: { status: 0 } },
    ];
  };
}

const specFor = (
  acsIdSchema: 'string64' | 'wiegand',
  acsIds: { valid: string; invalid: string },
  expected: string[],
): ModelSpec<typeof singleRegistrationMachine> => ({
  machine: singleRegistrationMachine,
  input: { acsIdSchema, qrEmailAllowed: acsIdSchema === 'wiegand' },
  events: events(acsIds) as never,
  // The busy answers so far tell a retry from the last one (after five, the form says busy).
  serialize: (s) => ({
    value: s.value,
    busyAnswers: s.matches('busy') || s.matches('submitting') ? s.context.busyAnswers : 0,
  }),
  provide: (control) =>
    singleRegistrationMachine.provide({
      actors: {
        checkEmail: control.actor('checkEmail'),
        checkAcsId: control.actor('checkAcsId'),
        register: control.actor('register'),
      },
    }),
  errorCodes: { expected, read: codesInMeta('errorCode', 'fieldError') },
});

const REASONS = [
  'document-expired',
  'embedding-failed',
  'id-already-used',
  'qr-generation-failed',
  'unknown',
];

describe('single registration machine (generated paths)', () => {
  it('covers every transition, every rejection reason and every field error on a real actor', async () => {
    const report = await coverMachine([
      specFor('string64', { valid: 'ACS-0042', invalid: 'has space' }, [
        'email_already_in_use',
        'acs_id_already_in_use',
        'wrong_format',
        'busy',
        ...REASONS,
      ]),
      specFor('wiegand', { valid: '42', invalid: '65536' }, ['wiegand_range']),
    ]);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });
});
