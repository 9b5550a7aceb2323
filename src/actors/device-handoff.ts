// The real effects of DeviceDetect's two machines (spec §2, §7): the computer's user code and progress
// (machines/device-handoff.machine.ts) and the phone's redemption of that code (machines/phone-handoff.machine.ts),
// built on src/api/onboardings.

import {
  deviceHandoffMachine,
  type HandoffCode,
  type HandoffError,
  type HandoffStatus,
} from '../../machines/device-handoff.machine';
import {
  phoneHandoffMachine,
  type RedeemError,
  type RedeemedCode,
} from '../../machines/phone-handoff.machine';
import { isApiError } from '../api/errors';
import { lazyCalls } from '../api/lazy';
import type { Runtime } from '../runtime/context';
import { fromPromise } from './promise';

const { generateUserCode, getOnboardingStatus, redeemUserCode } = lazyCalls(
  () => import('../api/onboardings'),
);

type HandoffRuntime = Pick<Runtime, 'apiClient' | 'session'>;

/** What the machines read of a failed call: its HTTP status, 0 without an answer. */
const statusOf = (error: unknown): HandoffError & RedeemError => ({
  status: isApiError(error) ? error.status : 0,
  code: isApiError(error) ? error.problem?.code : undefined,
});

/** The computer's side: a user code for the onboarding, and the onboarding's status every 3 s. */
export function deviceHandoffLogic(runtime: HandoffRuntime) {
  return deviceHandoffMachine.provide({
    actors: {
      generateCode: fromPromise<HandoffCode, { onboardingId: string }>(async ({ input }) =>
        generateUserCode(await runtime.apiClient(), input.onboardingId),
      ),
      fetchStatus: fromPromise<HandoffStatus, { onboardingId: string }>(async ({ input }) => {
        try {
          return await getOnboardingStatus(await runtime.apiClient(), input.onboardingId);
        } catch (error) {
          throw statusOf(error);
        }
      }),
    },
    // The server has marked the account enrolled: a renewed token says so, and home is the enrolled home.
    actions: { markEnrolled: () => runtime.session.send({ type: 'session.renew' }) },
  });
}

/** Where a redeemed onboarding goes on: the enrolment actor of whoever is signed in. */
export interface OnboardingContinuation {
  send(event: { type: 'onboarding.continue'; onboardingId: string }): void;
}

/** The phone's side: redeem the code for the signed-in account and go on with its onboarding here. */
export function phoneHandoffLogic(
  runtime: HandoffRuntime,
  enrolment: () => OnboardingContinuation | undefined,
) {
  return phoneHandoffMachine.provide({
    actors: {
      redeemCode: fromPromise<RedeemedCode, { code: string }>(async ({ input }) => {
        try {
          return await redeemUserCode(await runtime.apiClient(), input.code);
        } catch (error) {
          throw statusOf(error);
        }
      }),
    },
    actions: {
      continueOnboarding: ({ context }) => {
        if (context.onboardingId)
          enrolment()?.send({ type: 'onboarding.continue', onboardingId: context.onboardingId });
      },
    },
    guards: {
      isSignedIn: () => runtime.session.getSnapshot().matches('authenticated'),
    },
  });
}
