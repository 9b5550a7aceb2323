import { assign, fromPromise, setup } from 'xstate';
import { compactUserCode, isUserCode } from '../contract/domain/user-code';
import { errorOf, outputOf } from './actor-events';

// DeviceDetect on a phone (spec §2, §7 POST /user-code/redeem): a user code shown on a computer carries the
// onboarding here. The code comes as one event, code.submitted, whether it was typed in the form or came in
// the address (the QR on the computer encodes /device-detect?code=…). Redeeming it hands the onboarding to
// the enrolment machine (`continueOnboarding`), which loads it and shows its step.

/** What redeeming a code failed with (the DeviceDetect texts deviceDetect.redeem.*). */
export type RedeemProblem = 'not-found' | 'expired' | 'used' | 'failed';

/** What POST /user-code/redeem answers. */
export interface RedeemedCode {
  onboarding_id: string;
  expires_at: string;
}

/** What redeemCode rejects with: the HTTP status of the failed call (0 without an answer), and its problem's code. */
export interface RedeemError {
  status: number;
  code?: string | undefined;
}

export interface PhoneHandoffContext {
  /** The code as it was given (typed, or from the address), for the way back after signing in. */
  code: string | null;
  onboardingId: string | null;
}

export type PhoneHandoffEvent = { type: 'code.submitted'; code: string };

/**
 * The problem a failed redemption is (404 and 422 say the code is unknown or malformed). A 409 is a used code unless
 * it names another conflict, which this screen has no words for: that one could not be checked, not "used".
 */
export function redeemProblemOf(error: unknown): RedeemProblem {
  const { status, code } = (error ?? {}) as Partial<RedeemError>;
  if (status === 404 || status === 422) return 'not-found';
  if (status === 410) return 'expired';
  if (status === 409) return code === undefined || code === 'user_code_used' ? 'used' : 'failed';
  return 'failed';
}

export const phoneHandoffMachine = setup({
  types: {
    context: {} as PhoneHandoffContext,
    events: {} as PhoneHandoffEvent,
  },
  actors: {
    // Placeholder: src/actors/device-handoff.ts provides the call (src/api/onboardings).
    redeemCode: fromPromise<RedeemedCode, { code: string }>(async () => {
      throw new Error('redeemCode is provided by src/actors/device-handoff.ts');
    }),
  },
  actions: {
    storeCode: assign(({ context, event }) =>
      event.type === 'code.submitted' ? { code: event.code } : context,
    ),
    storeOnboarding: assign({ onboardingId: ({ event }) => outputOf<RedeemedCode>(event).onboarding_id }),
    /** Hands context.onboardingId to the enrolment machine (onboarding.continue); provided by src/actors. */
    continueOnboarding: () => {},
  },
  guards: {
    isWellFormedCode: ({ event }) =>
      event.type === 'code.submitted' && isUserCode(compactUserCode(event.code)),
    /** Someone is signed in (the code redeems only for the account that generated it); provided by src/actors. */
    isSignedIn: () => false,
    hasCode: ({ event }, params: { code: RedeemProblem }) => redeemProblemOf(errorOf(event)) === params.code,
  },
}).createMachine({
  id: 'phoneHandoff',
  description:
    'DeviceDetect on a phone (spec §2 DeviceDetect; spec §7 POST /user-code/redeem): the person types the user code shown on the computer, or opens its link (the QR), signs in with the same account if needed, and the onboarding goes on here. Refused codes name why: user_code_not_found, user_code_expired, user_code_used.',
  context: { code: null, onboardingId: null },
  initial: 'idle',
  states: {
    idle: {
      description:
        'DeviceDetect without a code: this device will do (Continue), and a form takes a code typed by hand.',
      on: {
        'code.submitted': [
          { guard: 'isWellFormedCode', target: '#phoneHandoff.waitingForSession', actions: 'storeCode' },
          { target: '#phoneHandoff.refused.notFound', actions: 'storeCode' },
        ],
      },
    },
    waitingForSession: {
      description: 'A well-formed code: redeemed at once for someone signed in, else sign in first.',
      always: [{ guard: 'isSignedIn', target: 'redeeming' }, { target: 'signInNeeded' }],
    },
    signInNeeded: {
      description:
        'Signed out with a code: "sign in with the same account" and a Log in button that comes back to this address with the code.',
      on: {
        'code.submitted': [
          { guard: 'isWellFormedCode', target: '#phoneHandoff.waitingForSession', actions: 'storeCode' },
          { target: '#phoneHandoff.refused.notFound', actions: 'storeCode' },
        ],
      },
    },
    redeeming: {
      description: 'A spinner while the code is checked.',
      tags: ['busy'],
      // A code redeems once: code.submitted is not taken while it is being redeemed.
      invoke: {
        id: 'redeemCode',
        src: 'redeemCode',
        input: ({ context }) => ({ code: compactUserCode(context.code ?? '') }),
        onDone: { target: 'continued', actions: ['storeOnboarding', 'continueOnboarding'] },
        onError: [
          {
            guard: { type: 'hasCode', params: { code: 'not-found' } },
            target: 'refused.notFound',
          },
          { guard: { type: 'hasCode', params: { code: 'expired' } }, target: 'refused.expired' },
          { guard: { type: 'hasCode', params: { code: 'used' } }, target: 'refused.used' },
          { target: 'refused.failed' },
        ],
      },
    },
    refused: {
      description: 'The code was refused: why, and the form to type a code (the same one again, or another).',
      tags: ['error'],
      on: {
        'code.submitted': [
          { guard: 'isWellFormedCode', target: '#phoneHandoff.waitingForSession', actions: 'storeCode' },
          { target: '#phoneHandoff.refused.notFound', actions: 'storeCode' },
        ],
      },
      initial: 'failed',
      states: {
        notFound: {
          description:
            'Error user_code_not_found: no such code for this account (or it is not a code at all).',
          meta: { errorCode: 'user_code_not_found', problem: 'not-found' },
        },
        expired: {
          description: 'Error user_code_expired: the code has expired; the computer shows a new one.',
          meta: { errorCode: 'user_code_expired', problem: 'expired' },
        },
        used: {
          description: 'Error user_code_used: the code was already used.',
          meta: { errorCode: 'user_code_used', problem: 'used' },
        },
        failed: {
          description: 'The code could not be checked (no answer, or the server failed): try again.',
          meta: { problem: 'failed' },
        },
      },
    },
    continued: {
      description: 'The onboarding goes on on this phone: the enrolment machine loads it and shows its step.',
      type: 'final',
    },
  },
});
