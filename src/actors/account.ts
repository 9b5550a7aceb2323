// The real effects of the enrolled person's account screens: UserProfile (machines/account-profile), DeleteAccount
// (machines/account-deletion) and ResetCredentials (machines/credential-reset), built on src/api/accounts. Failed
// calls reach the machines as { status, code, detail }: the machines name the refusal.

import type { AccountProfile } from '../../contract/api/accounts';
import type { LocaleCode } from '../../contract/api/settings';
import { accountDeletionMachine, type DeletionError } from '../../machines/account-deletion.machine';
import { accountProfileMachine } from '../../machines/account-profile.machine';
import {
  credentialResetMachine,
  type ResetCredential,
  type ResetError,
} from '../../machines/credential-reset.machine';
import { isApiError, serverText } from '../api/errors';
import { lazyCalls } from '../api/lazy';
import type { Runtime } from '../runtime/context';
import { type FirstCalls, preloadable } from './preloaded-calls';
import { fromPromise } from './promise';

const accounts = lazyCalls(() => import('../api/accounts'));
const {
  deleteAccount,
  exportAccountData,
  fetchCredentialQr,
  redeemCredentialReset,
  requestCredentialReset,
  saveAccountLocale,
} = accounts;
// UserProfile's first call (src/actors/preload.ts).
const getAccountProfile = preloadable('getAccountProfile', accounts.getAccountProfile);

type AccountRuntime = Pick<Runtime, 'apiClient' | 'session' | 'app'>;

/** What the machines read of a failed call. */
function problemOf(error: unknown): DeletionError & ResetError {
  if (!isApiError(error)) return { status: 0 };
  return {
    status: error.status,
    ...(error.problem?.code ? { code: error.problem.code } : {}),
    ...(error.problem?.detail ? { detail: error.problem.detail } : {}),
    ...(error.kind === 'http' && serverText(error) ? { text: serverText(error) } : {}),
  };
}

async function orProblem<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw problemOf(error);
  }
}

function accountIdOf(runtime: AccountRuntime): string {
  const session = runtime.session.getSnapshot().context.session;
  if (!session) throw { status: 401 } satisfies DeletionError;
  return session.userId;
}

/** Hands a blob to the browser as a file download. */
function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL; it is released a little later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** UserProfile's load: the profile of whoever is signed in. */
const loadProfile =
  (runtime: AccountRuntime) =>
  async ({ signal }: { signal: AbortSignal }): Promise<AccountProfile> =>
    orProblem(async () => getAccountProfile(await runtime.apiClient(), accountIdOf(runtime), { signal }));

/** UserProfile's first call: the profile. */
export const userProfileFirstCalls: FirstCalls = (runtime, _session, signal) =>
  loadProfile(runtime)({ signal });

/** UserProfile: the profile of whoever is signed in, and their data as one zip. */
export function accountProfileLogic(runtime: AccountRuntime) {
  return accountProfileMachine.provide({
    actors: {
      loadProfile: fromPromise<AccountProfile>(loadProfile(runtime)),
      exportData: fromPromise<void>(async ({ signal }) => {
        const blob = await orProblem(async () =>
          exportAccountData(await runtime.apiClient(), accountIdOf(runtime), { signal }),
        );
        saveFile(blob, `my-data-${new Date().toISOString().slice(0, 10)}.zip`);
      }),
    },
  });
}

/** Saves the language to the account of whoever is signed in (spec §7 PUT /internal/accounts/{userId}/locale). */
export async function saveLocaleToAccount(runtime: AccountRuntime, locale: LocaleCode): Promise<void> {
  await saveAccountLocale(await runtime.apiClient(), accountIdOf(runtime), locale, { silent: true });
}

const ENROLMENT_PREFIX = 'portal.enrolment:';

/** DeleteAccount: the deletion, then local data cleared and the session ended at the provider. */
export function accountDeletionLogic(runtime: AccountRuntime) {
  return accountDeletionMachine.provide({
    actors: {
      deleteAccount: fromPromise<void, { field: string }>(async ({ input }) =>
        orProblem(async () =>
          deleteAccount(
            await runtime.apiClient(),
            accountIdOf(runtime),
            input.field ? { id_number: input.field } : {},
            // The refusal's detail is shown as it comes (spec §8): in the portal's language.
            { silent: true, headers: { 'accept-language': runtime.app.getSnapshot().context.locale } },
          ),
        ),
      ),
    },
    actions: {
      clearLocalData: () => {
        const session = runtime.session.getSnapshot().context.session;
        const tenant = runtime.app.getSnapshot().context.tenant?.tenant;
        if (!session || !tenant) return;
        // The stored onboarding of this person (spec §3: onboarding state persists): a new sign-in starts anew.
        const mine = `${ENROLMENT_PREFIX}${tenant}:${session.userId}`;
        for (const key of Object.keys(window.localStorage)) {
          if (key === mine || key.startsWith(`${mine}:`)) window.localStorage.removeItem(key);
        }
      },
      // The session machine logs out at the provider and clears the stored user; the provider sends the browser
      // back to the root, the public welcome.
      endSession: () => runtime.session.send({ type: 'session.logout' }),
    },
  });
}

const saidByTheScreen = () => {};
const LINK_REFUSALS = {
  400: saidByTheScreen,
  403: saidByTheScreen,
  404: saidByTheScreen,
  409: saidByTheScreen,
  410: saidByTheScreen,
  422: saidByTheScreen,
};

/** ResetCredentials: ask by email, redeem the mailed link signed in, show the new QR. */
export function credentialResetLogic(runtime: AccountRuntime) {
  return credentialResetMachine.provide({
    actors: {
      requestReset: fromPromise<void, { email: string }>(async ({ input }) =>
        orProblem(async () =>
          requestCredentialReset(
            await runtime.apiClient(),
            { email: input.email, locale: runtime.app.getSnapshot().context.locale },
            { silent: true },
          ),
        ),
      ),
      // The screen says the link's refusals (a 403 among them: what to do instead, since retrying cannot help, and a
      // refusal no state names); why anything else failed (no answer, too slow, a server fault) is the API
      // client's notice beside "could not be reset".
      redeemReset: fromPromise<ResetCredential, { token: string }>(async ({ input }) =>
        orProblem(async () =>
          redeemCredentialReset(await runtime.apiClient(), input.token, { handlers: LINK_REFUSALS }),
        ),
      ),
      fetchQrImage: fromPromise<string, { userId: string; sid: string }>(async ({ input, signal }) => {
        const blob = await orProblem(async () =>
          fetchCredentialQr(await runtime.apiClient(), input.userId, input.sid, { silent: true, signal }),
        );
        return URL.createObjectURL(blob);
      }),
    },
    guards: {
      isSignedIn: () => runtime.session.getSnapshot().matches('authenticated'),
    },
  });
}
