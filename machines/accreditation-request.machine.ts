import { assign, fromPromise, setup } from 'xstate';
import type { Credential, RightAction } from '../contract/api/credentials';
import { outputOf } from './actor-events';

// Asking for an accreditation (spec §2 AccreditFace, AccreditProof; spec §7 POST /internal/rights with subject,
// object, action and optional claims.portrayal_id; "a response of accreditation-request/credential-already-exists
// is treated as success carrying the existing credential"; spec §1 "renewing a selfie"). The new selfie is taken by
// the capture machine (the screen's CaptureView), sent as a selfie portrayal, and the face accreditation is then
// asked for again with its portrayal_id. src/actors/accreditations.ts provides the effects.

/** What requestRight gives: the credential, and whether it was there already. */
export interface RightGranted {
  credential: Credential;
  alreadyExisted: boolean;
}

export interface AccreditationRequestInput {
  action: RightAction;
}

export interface AccreditationRequestContext extends AccreditationRequestInput {
  credential: Credential | null;
  /** The captured selfie, until it is sent. */
  selfie: Blob | null;
  /** The new selfie portrayal, once sent. */
  portrayalId: string | null;
}

export type AccreditationRequestEvent =
  | { type: 'request.send' }
  | { type: 'selfie.renew' }
  | { type: 'selfie.captured'; photo: Blob }
  | { type: 'selfie.cancel' }
  | { type: 'request.retry' };

export const accreditationRequestMachine = setup({
  types: {
    context: {} as AccreditationRequestContext,
    events: {} as AccreditationRequestEvent,
    input: {} as AccreditationRequestInput,
  },
  actors: {
    requestRight: fromPromise<RightGranted, { action: RightAction; portrayalId: string | null }>(async () => {
      throw new Error('requestRight is provided by src/actors/accreditations.ts');
    }),
    sendSelfie: fromPromise<string, { photo: Blob | null }>(async () => {
      throw new Error('sendSelfie is provided by src/actors/accreditations.ts');
    }),
  },
  actions: {
    storeGranted: assign({ credential: ({ event }) => outputOf<RightGranted>(event).credential }),
    storeSelfie: assign({
      selfie: ({ event }) => (event.type === 'selfie.captured' ? event.photo : null),
    }),
    storePortrayal: assign({ portrayalId: ({ event }) => outputOf<string>(event), selfie: null }),
    forgetSelfie: assign({ selfie: null, portrayalId: null }),
  },
  guards: {
    alreadyExisted: ({ event }) => outputOf<RightGranted>(event).alreadyExisted,
    isFace: ({ context }) => context.action === 'access_face',
  },
}).createMachine({
  id: 'accreditationRequest',
  description:
    'Asking for an accreditation with POST /internal/rights (spec §2 AccreditFace, AccreditProof; spec §7: accreditation-request/credential-already-exists is a success carrying the existing credential), and renewing the selfie behind the face accreditation (spec §1): the capture machine takes a new selfie, it is sent as a selfie portrayal, and the face accreditation is refreshed with claims.portrayal_id.',
  context: ({ input }) => ({ action: input.action, credential: null, selfie: null, portrayalId: null }),
  initial: 'idle',
  states: {
    idle: {
      description: 'What the accreditation is for, and the button that asks for it.',
      on: {
        'request.send': 'requesting',
        'selfie.renew': { guard: 'isFace', target: 'capturing' },
      },
    },
    requesting: {
      description: 'POST /internal/rights with the action (and the new selfie portrayal, when there is one).',
      tags: ['busy'],
      invoke: {
        id: 'requestRight',
        src: 'requestRight',
        input: ({ context }) => ({ action: context.action, portrayalId: context.portrayalId }),
        onDone: [
          { guard: 'alreadyExisted', target: 'alreadyHeld', actions: 'storeGranted' },
          { target: 'granted', actions: 'storeGranted' },
        ],
        onError: 'failed',
      },
    },
    granted: {
      description:
        'The accreditation was made: what it is, since when; the face one offers renewing the selfie.',
      on: { 'selfie.renew': { guard: 'isFace', target: 'capturing' } },
    },
    alreadyHeld: {
      description:
        'A success: the person holds this accreditation already (credential-already-exists) and sees it; the face one offers renewing the selfie.',
      on: { 'selfie.renew': { guard: 'isFace', target: 'capturing' } },
    },
    capturing: {
      description: 'The camera (the capture machine, in the screen) takes a new selfie; Cancel goes back.',
      on: {
        'selfie.captured': { target: 'sendingSelfie', actions: 'storeSelfie' },
        'selfie.cancel': { target: 'idle', actions: 'forgetSelfie' },
      },
    },
    sendingSelfie: {
      description:
        'POST /internal/portrayals (a selfie portrayal, process renew_selfie) and PUT /internal/portrayals/{id}/selfie.',
      tags: ['busy'],
      invoke: {
        id: 'sendSelfie',
        src: 'sendSelfie',
        input: ({ context }) => ({ photo: context.selfie }),
        onDone: { target: 'requesting', actions: 'storePortrayal' },
        onError: 'selfieFailed',
      },
    },
    failed: {
      description: 'Error request_failed: the accreditation could not be asked for; Retry asks again.',
      tags: ['error'],
      meta: { errorCode: 'request_failed' },
      on: { 'request.retry': 'requesting' },
    },
    selfieFailed: {
      description:
        'Error selfie_upload_failed: the new selfie could not be sent (refused or not reached); Retry takes another.',
      tags: ['error'],
      meta: { errorCode: 'selfie_upload_failed' },
      on: {
        'request.retry': 'capturing',
        'selfie.cancel': { target: 'idle', actions: 'forgetSelfie' },
      },
    },
  },
});
