// Staff actions: ActivateUsers' and AssistantAccountCancellation's calls, and adding a location to a user's
// credentials (PortalUserDetail). Failures are rejected as { status, code, detail } for the machines' guards.

import type { ActivationResult } from '../../contract/api/users';
import { type ActivationRequest, activateUsersMachine } from '../../machines/activate-users.machine';
import {
  assistantAccountCancellationMachine,
  type CancellationError,
  type FoundAccount,
} from '../../machines/assistant-account-cancellation.machine';
import { isApiError } from '../api/errors';
import { lazyCalls } from '../api/lazy';
import type { Runtime } from '../runtime/context';
import { fromPromise } from './promise';

const { deleteAccount, findAccountsByEmail } = lazyCalls(() => import('../api/accounts'));
const { addUserLocation } = lazyCalls(() => import('../api/credentials'));
const { activateUsers } = lazyCalls(() => import('../api/users'));

type StaffRuntime = Pick<Runtime, 'apiClient' | 'app'>;

function problemOf(error: unknown): CancellationError {
  if (!isApiError(error)) return { status: 0 };
  return {
    status: error.status,
    ...(error.problem?.code ? { code: error.problem.code } : {}),
    ...(error.problem?.detail ? { detail: error.problem.detail } : {}),
  };
}

async function orProblem<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw problemOf(error);
  }
}

/** ActivateUsers with its call (POST /public/users/activation). */
export function activateUsersLogic(runtime: StaffRuntime) {
  return activateUsersMachine.provide({
    actors: {
      activateUsers: fromPromise<ActivationResult, { request: ActivationRequest }>(async ({ input }) =>
        orProblem(async () => activateUsers(await runtime.apiClient(), input.request, { silent: true })),
      ),
    },
  });
}

/** AssistantAccountCancellation with its calls: the account by email, then DELETE with the DNI/NIE. */
export function assistantAccountCancellationLogic(runtime: StaffRuntime) {
  return assistantAccountCancellationMachine.provide({
    actors: {
      findAccount: fromPromise<FoundAccount, { email: string }>(async ({ input }) =>
        orProblem(async () => {
          const [account] = await findAccountsByEmail(await runtime.apiClient(), input.email, {
            silent: true,
          });
          if (!account) throw { status: 404, code: 'not_found' } satisfies CancellationError;
          return {
            id: account.id,
            username: account.username,
            email: account.email,
            firstName: account.firstName,
            lastName: account.lastName,
          };
        }),
      ),
      cancelAccount: fromPromise<void, { accountId: string; idNumber: string }>(async ({ input }) =>
        orProblem(async () =>
          deleteAccount(
            await runtime.apiClient(),
            input.accountId,
            { id_number: input.idNumber },
            // The mismatch's detail is shown as it comes (spec §8): in the portal's language.
            { silent: true, headers: { 'accept-language': runtime.app.getSnapshot().context.locale } },
          ),
        ),
      ),
    },
  });
}

/** Adds a facility to the user's credentials (post_credentials_location). */
export const addLocationLogic = ({ apiClient }: Pick<Runtime, 'apiClient'>) =>
  fromPromise<string[], { id: string; location: string }>(async ({ input }) => {
    const answer = await addUserLocation(await apiClient(), input.id, input.location);
    return answer.locations;
  });
