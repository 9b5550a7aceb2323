// The real effects of SingleRegistration (machines/single-registration), built on src/api/singles. Failed calls
// reach the machine as { status, code, errors, retryAfter }: a 409/422 carries the per-field errors, a 429 busy the
// seconds to wait.

import type { SingleRegistrationBody, SingleRegistrationResult } from '../../contract/api/singles';
import { type SingleError409, singleRegistrationMachine } from '../../machines/single-registration.machine';
import { isApiError, serverText } from '../api/errors';
import { lazyCalls } from '../api/lazy';
import type { Runtime } from '../runtime/context';
import { fromPromise } from './promise';

const { acsIdTaken, emailTaken, registerSingle } = lazyCalls(() => import('../api/singles'));

type SinglesRuntime = Pick<Runtime, 'apiClient' | 'app'>;

const shownByTheForm = () => {};
const FORM_SHOWS = { 409: shownByTheForm, 422: shownByTheForm, 429: shownByTheForm };

function problemOf(error: unknown): SingleError409 {
  if (!isApiError(error)) return { status: 0 };
  const errors = (error.problem as { errors?: { field: string; code: string }[] } | undefined)?.errors;
  // 429 busy: the seconds to wait, from the body's retry_after or the Retry-After header.
  const header = (error.cause as { response?: Response } | undefined)?.response?.headers.get('retry-after');
  const retryAfter =
    error.status === 429
      ? Number((error.body as { retry_after?: unknown } | undefined)?.retry_after ?? header)
      : NaN;
  const text = error.kind === 'http' ? serverText(error) : '';
  return {
    status: error.status,
    ...(error.problem?.code ? { code: error.problem.code } : {}),
    ...(text ? { text } : {}),
    ...(Array.isArray(errors) ? { errors } : {}),
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfter } : {}),
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
      // The form shows its refusals (409/422 beside the fields, 429 busy above the button); any other failure is
      // said by the API client's notice (no answer, too slow, a server fault) under the form's "could not be sent".
      register: fromPromise<SingleRegistrationResult, { body: SingleRegistrationBody }>(async ({ input }) =>
        orProblem(async () =>
          registerSingle(await runtime.apiClient(), input.body, {
            handlers: FORM_SHOWS,
            // The QR mail, when asked for, is in the portal's language (the person is with the staff member).
            headers: { 'accept-language': runtime.app.getSnapshot().context.locale },
          }),
        ),
      ),
    },
  });
}
