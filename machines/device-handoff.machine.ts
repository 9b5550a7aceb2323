import { assign, fromPromise, setup } from 'xstate';
import { errorOf, outputOf } from './actor-events';

// DeviceDetect on a computer (spec §2, §5): the enrolment goes on on a phone. The computer shows a short user
// code (POST /user-code/generate) that carries the onboarding to the phone, and follows what happens there by
// asking for the onboarding's status every 3 s until the registration is finished. The code and the progress
// are two regions: the code expires and is renewed while the progress goes on being followed.

/** A user code for the phone (the fields of POST /user-code/generate the computer shows). */
export interface HandoffCode {
  code: string;
  onboarding_id: string;
  expires_at: string;
  /** Seconds the code stays valid from now. */
  expires_in: number;
  link?: string;
  /** The link as a QR image (a PNG data URL). */
  qr?: string;
}

/** Where the onboarding stands (GET /internal/onboardings/{id}/status). */
export interface HandoffStatus {
  status: 'started' | 'legal_terms_accepted' | 'in_progress' | 'completed';
  legal_terms_accepted: boolean;
  portrayals: { portrayal_type: string; images: string[]; result: 'pending' | 'error' | 'ready' }[];
  outcome: string | null;
  reason: string | null;
  user_id: string | null;
  qr_sid: string | null;
}

/** What fetchStatus rejects with: the HTTP status of the failed call (0 without an answer). */
export interface HandoffError {
  status: number;
}

export interface DeviceHandoffInput {
  onboardingId: string;
}

export interface DeviceHandoffContext {
  onboardingId: string;
  code: HandoffCode | null;
  status: HandoffStatus | null;
  /** The last question about the status went unanswered: the screen says so until one is answered. */
  statusFailed: boolean;
}

export type DeviceHandoffEvent = { type: 'code.renew' };

export const deviceHandoffMachine = setup({
  types: {
    context: {} as DeviceHandoffContext,
    events: {} as DeviceHandoffEvent,
    input: {} as DeviceHandoffInput,
  },
  actors: {
    // Placeholders: src/actors/device-handoff.ts provides the calls (src/api/onboardings).
    generateCode: fromPromise<HandoffCode, { onboardingId: string }>(async () => {
      throw new Error('generateCode is provided by src/actors/device-handoff.ts');
    }),
    fetchStatus: fromPromise<HandoffStatus, { onboardingId: string }>(async () => {
      throw new Error('fetchStatus is provided by src/actors/device-handoff.ts');
    }),
  },
  actions: {
    storeCode: assign({ code: ({ event }) => outputOf<HandoffCode>(event) }),
    forgetCode: assign({ code: null }),
    storeStatus: assign({ status: ({ event }) => outputOf<HandoffStatus>(event), statusFailed: false }),
    markStatusFailed: assign({ statusFailed: true }),
    /** The phone finished the registration: the account is enrolled now (the runtime renews the session). */
    markEnrolled: () => {},
  },
  guards: {
    isCompleted: ({ event }) => outputOf<HandoffStatus>(event).status === 'completed',
    // The onboarding was deleted (cancelled on the phone): there is nothing left to follow.
    isGone: ({ event }) => {
      const status = (errorOf(event) as Partial<HandoffError> | null)?.status;
      return status === 404 || status === 410;
    },
  },
  delays: {
    statusInterval: 3000,
    codeLifetime: ({ context }) => Math.max(0, (context.code?.expires_in ?? 0) * 1000),
  },
}).createMachine({
  id: 'deviceHandoff',
  description:
    'DeviceDetect on a computer, for someone signed in with an onboarding in progress (spec §2: onboarding screens send the user to DeviceDetect on a PC; spec §7 POST /user-code/generate, GET /internal/onboardings/{id}/status): a short user code and its QR carry the onboarding to a phone, and the progress made there is followed every 3 s until the registration is finished.',
  context: ({ input }) => ({
    onboardingId: input.onboardingId,
    code: null,
    status: null,
    statusFailed: false,
  }),
  type: 'parallel',
  states: {
    code: {
      description: 'The card with the user code for the phone.',
      initial: 'generating',
      states: {
        generating: {
          description: 'A spinner while a new user code is generated.',
          tags: ['busy'],
          invoke: {
            id: 'generateCode',
            src: 'generateCode',
            input: ({ context }) => ({ onboardingId: context.onboardingId }),
            onDone: { target: 'active', actions: 'storeCode' },
            // The API client has told the person; 'New code' asks again.
            onError: { target: 'failed', actions: 'forgetCode' },
          },
        },
        active: {
          description:
            'The user code (in two groups of four), its QR and link, and the time left until it expires.',
          after: { codeLifetime: 'expired' },
        },
        expired: {
          description: 'The code has expired: "This code has expired" and a "New code" button.',
          on: { 'code.renew': 'generating' },
        },
        failed: {
          description:
            'No code could be generated (the API client showed the error): a message and a "New code" button.',
          tags: ['error'],
          on: { 'code.renew': 'generating' },
        },
      },
    },
    progress: {
      description: 'The steps done on the phone: legal terms, document, selfie, result, finished.',
      initial: 'fetching',
      states: {
        fetching: {
          description: 'Asking for the status of the onboarding (the steps stay as last known).',
          invoke: {
            id: 'fetchStatus',
            src: 'fetchStatus',
            input: ({ context }) => ({ onboardingId: context.onboardingId }),
            onDone: [
              { guard: 'isCompleted', target: 'completed', actions: 'storeStatus' },
              { target: 'waiting', actions: 'storeStatus' },
            ],
            onError: [
              { guard: 'isGone', target: 'gone' },
              // A dropped connection or a busy server: the screen says the progress could not be checked, and
              // asks again at the next interval.
              { target: 'waiting', actions: 'markStatusFailed' },
            ],
          },
        },
        waiting: {
          description:
            'The steps as last known, until the next question 3 s later; a rejected registration shows its reason, and an unanswered question "The progress could not be checked".',
          after: { statusInterval: 'fetching' },
        },
        completed: {
          description:
            'The registration was finished on the phone: "Registration complete" and a button to go home.',
          type: 'final',
          entry: 'markEnrolled',
        },
        gone: {
          description:
            'The onboarding no longer exists (cancelled on the phone, 404 or 410): a message and a button to start again.',
          type: 'final',
        },
      },
    },
  },
});
