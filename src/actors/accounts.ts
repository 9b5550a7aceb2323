// The IAM accounts of the tenant for PortalAccounts (spec §2, §3 IAM account): the list machine's fetchPage.

import { listMachine, type Page, type PageQuery } from '../../machines/list.machine';
import { lazyCalls } from '../api/lazy';
import { PAGE_SIZES } from '../domain/lists';
import type { Runtime } from '../runtime/context';
import { firstPageQuery } from './first-page';
import { type FirstCalls, preloadable } from './preloaded-calls';
import { fromPromise } from './promise';

const calls = lazyCalls(() => import('../api/accounts'));
// PortalAccounts' first call (src/actors/preload.ts).
const listAccounts = preloadable('listAccounts', calls.listAccounts);

const accountsPage =
  ({ apiClient }: Pick<Runtime, 'apiClient'>) =>
  async ({ input, signal }: { input: PageQuery; signal: AbortSignal }): Promise<Page> =>
    listAccounts(await apiClient(), input, { signal });

/** One page of GET /public/accounts; the signal cancels it when the filter or page changes meanwhile. */
export function fetchAccountsPage(runtime: Pick<Runtime, 'apiClient'>) {
  return fromPromise<Page, PageQuery>(accountsPage(runtime));
}

/** PortalAccounts' first call: the first page of accounts, unfiltered. */
export const portalAccountsFirstCalls: FirstCalls = (runtime, _session, signal) =>
  accountsPage(runtime)({ input: firstPageQuery(PAGE_SIZES.accounts), signal });

/** The list machine over the IAM accounts. */
export function accountsListLogic(runtime: Pick<Runtime, 'apiClient'>) {
  return listMachine.provide({ actors: { fetchPage: fetchAccountsPage(runtime) } });
}
