// Staff users: the list machine's fetchPage for PortalUsers, the user detail and its evidences for PortalUserDetail,
// the Administration machine's runAction, and completing an onboarding for PortalAccounts.

import type { EvidenceKind } from '../../contract/api/users';
import { nationalIdProblem } from '../../contract/domain/dni';
import {
  type AdminAction,
  type AdminResult,
  administrationMachine,
} from '../../machines/administration.machine';
import { listMachine, type Page, type PageQuery } from '../../machines/list.machine';
import { isApiError } from '../api/errors';
import { lazyCalls } from '../api/lazy';
import { PAGE_SIZES } from '../domain/lists';
import type { Runtime } from '../runtime/context';
import type { CredentialChange, UserWithCredentials } from '../runtime/machines';
import { firstPageQuery } from './first-page';
import { type FirstCalls, preloadable } from './preloaded-calls';
import { fromPromise } from './promise';

const { getUserCredentials, setCredentialState } = lazyCalls(() => import('../api/credentials'));
const { listFacilities } = lazyCalls(() => import('../api/facilities'));
const users = lazyCalls(() => import('../api/users'));
const { completeOnboarding, deleteAllUsers, getUser, getUserEvidence, setAllActive, setUserActive } = users;
// PortalUsers' first call (src/actors/preload.ts).
const listUsers = preloadable('listUsers', users.listUsers);

type Deps = Pick<Runtime, 'apiClient'>;

/** A search is a national id (sent as idNumber) or else text (an email) sent as the quoted filter. */
const usersPage =
  ({ apiClient }: Deps) =>
  async ({ input, signal }: { input: PageQuery; signal: AbortSignal }): Promise<Page> => {
    const text = input.filter.trim();
    const byId = text !== '' && nationalIdProblem(text.toUpperCase()) === null;
    return listUsers(
      await apiClient(),
      {
        pageSize: input.pageSize,
        pageIndex: input.pageIndex,
        ...(byId ? { idNumber: text.toUpperCase() } : text ? { filter: text } : {}),
        orderby: 'last_name',
        sorted: 'asc',
      },
      { signal },
    );
  };

export function fetchUsersPage(runtime: Deps) {
  return fromPromise<Page, PageQuery>(usersPage(runtime));
}

/** PortalUsers' first call: the first page of users, unfiltered. */
export const portalUsersFirstCalls: FirstCalls = (runtime, _session, signal) =>
  usersPage(runtime)({ input: firstPageQuery(PAGE_SIZES.users), signal });

export const usersListLogic = (runtime: Deps) =>
  listMachine.provide({ actors: { fetchPage: fetchUsersPage(runtime) } });

/** The user and their credentials (loaded again after each change). */
export const userDetailLogic = ({ apiClient }: Deps) =>
  fromPromise<UserWithCredentials, { id: string }>(async ({ input, signal }) => {
    const api = await apiClient();
    const [user, creds, facilities] = await Promise.all([
      getUser(api, input.id, { signal }),
      getUserCredentials(api, input.id, { signal }),
      listFacilities(api, { signal }),
    ]);
    return {
      user,
      activated: creds.activated,
      locations: creds.locations,
      facilities: facilities.map(({ facility_id, alias }) => ({ facility_id, alias })),
      credentials: Object.entries(creds.credentials).map(([sid, c]) => ({
        sid,
        credential_type: c.credential_type,
        state: c.state ?? 'active',
        ends_at: c.ends_at ?? null,
        valid: c.valid ?? true,
      })),
    };
  });

/** One evidence image as an object URL, fetched only when its tab opens. */
export const evidenceLogic = ({ apiClient }: Deps) =>
  fromPromise<string, { id: string; kind: EvidenceKind }>(async ({ input, signal }) =>
    URL.createObjectURL(await getUserEvidence(await apiClient(), input.id, input.kind, { signal })),
  );

/** Activate or deactivate the user; revoke, or extend (set active again: a new 15-day window) a credential. */
export const credentialChangeLogic = ({ apiClient }: Deps) =>
  fromPromise<void, { id: string; change: CredentialChange }>(async ({ input }) => {
    const api = await apiClient();
    if (input.change.kind === 'user') await setUserActive(api, input.id, input.change.active);
    else await setCredentialState(api, input.id, input.change.sid, input.change.state);
  });

export const completeOnboardingLogic = ({ apiClient }: Deps) =>
  fromPromise<void, { accountId: string }>(async ({ input }) =>
    completeOnboarding(await apiClient(), input.accountId),
  );

/** The Administration machine with its calls; every one carries the typed tenant name, which the server checks. */
export function administrationLogic({ apiClient }: Deps) {
  return administrationMachine.provide({
    actors: {
      runAction: fromPromise<AdminResult, { action: AdminAction; confirm: string }>(async ({ input }) => {
        const api = await apiClient();
        try {
          if (input.action === 'activateAll') return await setAllActive(api, true, input.confirm);
          if (input.action === 'deactivateAll') return await setAllActive(api, false, input.confirm);
          return await deleteAllUsers(api, input.confirm, input.action === 'deleteAllData');
        } catch (error) {
          // The machine's guards read the problem's code (confirmation_mismatch), which an ApiError keeps inside.
          throw isApiError(error)
            ? {
                status: error.status,
                ...(error.problem?.code ? { code: error.problem.code } : {}),
                ...(error.problem?.detail ? { detail: error.problem.detail } : {}),
              }
            : { status: 0 };
        }
      }),
    },
  });
}
