// The real effects of SingleRegistration (machines/single-registration), built on src/api/singles. Failed calls
// reach the machine as { status, code, errors }: a 409/422 carries the per-field errors.
import { fromPromise } from 'xstate';
import { type SingleError409, singleRegistrationMachine } from '../../machines/single-registration.machine';
import type { SingleRegistrationBody, SingleRegistrationResult } from '../api/contract/singles';
import { isApiError } from '../api/errors';
import { acsIdTaken, emailTaken, registerSingle } from '../api/singles';
import type { Runtime } from '../runtime/context';

type SinglesRuntime = Pick<Runtime, 'apiClient'>;

function problemOf(error: unknown): SingleError409 {
  if (!isApiError(error)) return { status: 0 };
  const errors = (error.problem as { errors?: { field: string; code: string }[] } | undefined)?.errors;
  return {
    status: error.status,
    ...(error.problem?.code ? { code: error.problem.code } : {}),
    ...(Array.isArray(errors) ? { errors } : {}),
  };
}

async function orProblem<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw problemOf(error);
  }
}

export function singleRegistrationLogic(runtime: SinglesRuntime) {
  return singleRegistrationMachine.provide({
    actors: {
      checkEmail: fromPromise<boolean, { email: string }>(async ({ input, signal }) =>
        orProblem(async () => emailTaken(await runtime.apiClient(), input.email, { silent: true, signal })),
      ),
      checkAcsId: fromPromise<boolean, { acsId: string }>(async ({ input, signal }) =>
        orProblem(async () => acsIdTaken(await runtime.apiClient(), input.acsId, { silent: true, signal })),
      ),
      register: fromPromise<SingleRegistrationResult, { body: SingleRegistrationBody }>(async ({ input }) =>
        orProblem(async () => registerSingle(await runtime.apiClient(), input.body, { silent: true })),
      ),
    },
  });
}
