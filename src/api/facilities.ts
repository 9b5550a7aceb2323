import type { ApiClient, RequestOptions } from './client.ts';
import { type FacilityList, facilityList } from './contract/facilities.ts';

type CallOptions = Pick<RequestOptions, 'signal' | 'silent' | 'handlers' | 'onError'>;

// GET /internal/facilities (spec §7 "Visits and audit"), validated against the contract.
export function listFacilities(api: ApiClient, options: CallOptions = {}): Promise<FacilityList> {
  return api.get('/internal/facilities', { ...options, schema: facilityList });
}
