import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import type { Credential } from '../../contract/api/credentials';
import {
  type AccreditationRequestEvent,
  accreditationRequestMachine,
  type RightGranted,
} from '../../machines/accreditation-request.machine';
import { ActorControl, codesInMeta, coverMachine, type ModelSpec, replay } from './harness';

const face: Credential = {
  sid: 'sid-face',
  user_id: 'user-1',
  credential_type: 'embedding',
  state: 'active',
  starts_at: '2026-11-23T10:00:00.000Z',
  ends_at: null,
  created_at: '2026-11-23T10:00:00.000Z',
  valid: true,
};

const granted = (alreadyExisted: boolean): EventObject =>
  ({
    type: 'xstate.done.actor.requestRight',
    output: { credential: face, alreadyExisted } satisfies RightGranted,
  }) as EventObject;

const photo = new Blob(['selfie'], { type: 'image/jpeg' });

const specFor = (action: 'access_face' | 'access_proof'): ModelSpec<typeof accreditationRequestMachine> => ({
  machine: accreditationRequestMachine,
  input: { action },
  events: () => [
    granted(false),
    granted(true),
    { type: 'xstate.error.actor.requestRight', error: new Error('500') },
    { type: 'xstate.done.actor.sendSelfie', output: 'portrayal-1' },
    { type: 'xstate.error.actor.sendSelfie', error: new Error('422') },
    ...([
      { type: 'request.send' },
      { type: 'selfie.renew' },
      { type: 'selfie.captured', photo },
      { type: 'selfie.cancel' },
      { type: 'request.retry' },
    ] satisfies AccreditationRequestEvent[]),
  ],
  serialize: (s) => ({ value: s.value, portrayal: s.context.portrayalId }),
  provide: (control) =>
    accreditationRequestMachine.provide({
      actors: { requestRight: control.actor('requestRight'), sendSelfie: control.actor('sendSelfie') },
    }),
  errorCodes: { expected: ['request_failed', 'selfie_upload_failed'], read: codesInMeta('errorCode') },
});

describe('accreditation request machine (generated paths)', () => {
  it('covers every transition and error code, for the face and the proof accreditation', async () => {
    const report = await coverMachine([specFor('access_face'), specFor('access_proof')]);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });

  it('sends the new selfie and asks for the face accreditation again with its portrayal', async () => {
    const spec = specFor('access_face');
    let control = new ActorControl();
    const steps = [
      { event: { type: 'selfie.renew' }, expected: '{"value":"capturing","portrayal":null}' },
      { event: { type: 'selfie.captured', photo }, expected: '{"value":"sendingSelfie","portrayal":null}' },
      {
        event: { type: 'xstate.done.actor.sendSelfie', output: 'portrayal-1' },
        expected: '{"value":"requesting","portrayal":"portrayal-1"}',
      },
      { event: granted(false), expected: '{"value":"granted","portrayal":"portrayal-1"}' },
    ];
    const provide = (given: ActorControl) => {
      control = given;
      return spec.provide(given);
    };
    const result = await replay({ ...spec, provide }, steps);
    expect(result.path).toContain('xstate.done.actor.sendSelfie');
    expect(control.calls).toEqual([
      { src: 'sendSelfie', input: { photo } },
      { src: 'requestRight', input: { action: 'access_face', portrayalId: 'portrayal-1' } },
    ]);
  });
});
