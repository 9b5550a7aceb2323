import type { ApiClient, RequestOptions } from './client.ts';
import {
  type InterdictionRequest,
  type InterdictionResponse,
  interdictionResponse,
} from './contract/audit.ts';

type CallOptions = Pick<RequestOptions, 'signal' | 'silent' | 'handlers' | 'onError' | 'headers'>;

/** The header that sends the interdiction check to the watch service where the tenant's useWatch says so. */
export const WATCH_HOST_HEADER = 'x-alternate-host';

// POST /internal/enforcements, or POST /enforcements with the alternate host header when useWatch (spec §7).
export function checkInterdiction(
  api: ApiClient,
  request: InterdictionRequest,
  useWatch: boolean,
  options: CallOptions = {},
): Promise<InterdictionResponse> {
  const headers = useWatch ? { ...options.headers, [WATCH_HOST_HEADER]: 'watch' } : options.headers;
  return api.post(useWatch ? '/enforcements' : '/internal/enforcements', {
    ...options,
    ...(headers ? { headers } : {}),
    json: request,
    schema: interdictionResponse,
  });
}
