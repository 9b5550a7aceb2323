import { assign, fromPromise, setup } from 'xstate';

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
}

export type DeviceHandoffEvent = { type: 'code.renew' };

export const deviceHandoffMachine = setup({
  types: {
    context: {} as DeviceHandoffContext,
    events: {} as DeviceHandoffEvent,
    input: {} as DeviceHandoffInput,
  },
  actors: {
    // Placeholders: the DeviceDetect screen provides the calls (src/api/onboardings).
    generateCode: fromPromise<HandoffCode, { onboardingId: string }>(async () => {
      throw new Error('generateCode is provided by the screen');
    }),
    fetchStatus: fromPromise<HandoffStatus, { onboardingId: string }>(async () => {
      throw new Error('fetchStatus is provided by the screen');
    }),
  },
  actions: {
    /** The phone finished the registration: the account is enrolled now (the screen renews the session). */
    markEnrolled: () => {},
  },
  guards: {
    isCompleted: (_, params: { status: HandoffStatus }) => params.status.status === 'completed',
    // The onboarding was deleted (cancelled on the phone): there is nothing left to follow.
    isGone: (_, params: { error: unknown }) => {
      const status = (params.error as Partial<HandoffError> | null)?.status;
      return status === 404 || status === 410;
    },
  },
  delays: {
    statusInterval: 3000,
    codeLifetime: ({ context }) => Math.max(0, (context.code?.expires_in ?? 0) * 1000),
  },
}).createMachine({
  id: 'deviceHandoff',
  context: ({ input }) => ({ onboardingId: input.onboardingId, code: null, status: null }),
  type: 'parallel',
  states: {
    code: {
      initial: 'generating',
      states: {
        generating: {
          tags: ['loading'],
          invoke: {
            id: 'generateCode',
            src: 'generateCode',
            input: ({ context }) => ({ onboardingId: context.onboardingId }),
            onDone: { target: 'active', actions: assign({ code: ({ event }) => event.output }) },
            // The API client has told the person; 'New code' asks again.
            onError: { target: 'failed', actions: assign({ code: null }) },
          },
        },
        active: {
          after: { codeLifetime: 'expired' },
        },
        expired: {
          on: { 'code.renew': 'generating' },
        },
        failed: {
          on: { 'code.renew': 'generating' },
        },
      },
    },
    progress: {
      initial: 'fetching',
      states: {
        fetching: {
          invoke: {
            id: 'fetchStatus',
            src: 'fetchStatus',
            input: ({ context }) => ({ onboardingId: context.onboardingId }),
            onDone: [
              {
                guard: { type: 'isCompleted', params: ({ event }) => ({ status: event.output }) },
                target: 'completed',
                actions: assign({ status: ({ event }) => event.output }),
              },
              { target: 'waiting', actions: assign({ status: ({ event }) => event.output }) },
            ],
            onError: [
              { guard: { type: 'isGone', params: ({ event }) => ({ error: event.error }) }, target: 'gone' },
              // A dropped connection or a busy server: ask again at the next interval.
              { target: 'waiting' },
            ],
          },
        },
        waiting: {
          after: { statusInterval: 'fetching' },
        },
        completed: {
          type: 'final',
          entry: 'markEnrolled',
        },
        gone: {
          type: 'final',
        },
      },
    },
  },
});
