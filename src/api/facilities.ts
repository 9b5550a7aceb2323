import type { FacilityList } from '../../contract/api/facilities.ts';
import { facilityList } from './answers.ts';
import type { ApiClient, RequestOptions } from './client.ts';

type CallOptions = Pick<RequestOptions, 'signal' | 'silent' | 'handlers' | 'onError'>;

// GET /internal/facilities (spec §7 "Visits and audit"), validated against the contract.
// `mine`: only the caller's own facilities (account_facilities), for whom the audit scopes to them.
export function listFacilities(
  api: ApiClient,
  options: CallOptions & { mine?: boolean } = {},
): Promise<FacilityList> {
  const { mine, ...call } = options;
  return api.get('/internal/facilities', {
    ...call,
    ...(mine ? { searchParams: { mine: 1 } } : {}),
    schema: facilityList,
  });
}
