import type { InterdictionRequest, InterdictionResponse } from '../../contract/api/audit';
import { type InterdictionError, interdictionCheckMachine } from '../../machines/interdiction-check.machine';
import { isApiError } from '../api/errors';
import { lazyCalls } from '../api/lazy';
import type { Runtime } from '../runtime/context';
import { fromPromise } from './promise';

const { checkInterdiction } = lazyCalls(() => import('../api/audit'));

type AuditRuntime = Pick<Runtime, 'apiClient' | 'app'>;

function problemOf(error: unknown): InterdictionError {
  if (!isApiError(error)) return { status: 0 };
  return {
    status: error.status,
    ...(error.problem?.code ? { code: error.problem.code } : {}),
    ...(error.problem?.detail ? { detail: error.problem.detail } : {}),
  };
}

/** CheckInterdictions: the check, sent where the tenant's useWatch says. */
export function interdictionCheckLogic(runtime: AuditRuntime) {
  return interdictionCheckMachine.provide({
    actors: {
      checkInterdiction: fromPromise<InterdictionResponse, { request: InterdictionRequest }>(
        async ({ input }) => {
          const useWatch = runtime.app.getSnapshot().context.tenant?.settings.useWatch === true;
          try {
            return await checkInterdiction(await runtime.apiClient(), input.request, useWatch, {
              silent: true,
            });
          } catch (error) {
            throw problemOf(error);
          }
        },
      ),
    },
  });
}
