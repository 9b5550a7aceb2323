import type { ApiClient, RequestOptions } from './client.ts';
import { type IamAccountPage, iamAccountPage } from './contract/accounts.ts';

type CallOptions = Pick<RequestOptions, 'signal' | 'silent' | 'handlers' | 'onError'>;

// GET /public/accounts with pageSize, pageIndex, filter (spec §7 "Accounts and users").
export function listAccounts(
  api: ApiClient,
  query: { pageSize: number; pageIndex: number; filter: string },
  options: CallOptions = {},
): Promise<IamAccountPage> {
  const searchParams: Record<string, string | number> = {
    pageSize: query.pageSize,
    pageIndex: query.pageIndex,
  };
  if (query.filter) searchParams.filter = query.filter;
  return api.get('/public/accounts', { ...options, searchParams, schema: iamAccountPage });
}
