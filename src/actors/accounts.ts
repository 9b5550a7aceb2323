// The IAM accounts of the tenant for PortalAccounts (spec §2, §3 IAM account): the list machine's fetchPage.

import { listMachine, type Page, type PageQuery } from '../../machines/list.machine';
import { lazyCalls } from '../api/lazy';
import type { Runtime } from '../runtime/context';
import { fromPromise } from './promise';

const { listAccounts } = lazyCalls(() => import('../api/accounts'));

/** One page of GET /public/accounts; the signal cancels it when the filter or page changes meanwhile. */
export function fetchAccountsPage({ apiClient }: Pick<Runtime, 'apiClient'>) {
  return fromPromise<Page, PageQuery>(async ({ input, signal }) =>
    listAccounts(await apiClient(), input, { signal }),
  );
}

/** The list machine over the IAM accounts. */
export function accountsListLogic(runtime: Pick<Runtime, 'apiClient'>) {
  return listMachine.provide({ actors: { fetchPage: fetchAccountsPage(runtime) } });
}
