import type {
  AuditFilter,
  AuditPage,
  InterdictionRequest,
  InterdictionResponse,
} from '../../contract/api/audit.ts';
import { auditPage, interdictionResponse } from './answers.ts';
import type { ApiClient, RequestOptions } from './client.ts';

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

/** One page of the access audit (GET /public/audit_accesses), newest first. */
export interface AuditQuery extends AuditFilter {
  pageSize: number;
  pageIndex: number;
}

export function listAuditAccesses(
  api: ApiClient,
  query: AuditQuery,
  options: CallOptions = {},
): Promise<AuditPage> {
  const searchParams: Record<string, string | number> = {
    pageSize: query.pageSize,
    pageIndex: query.pageIndex,
  };
  for (const key of ['from', 'to', 'facility_id', 'result'] as const) {
    const value = query[key];
    if (value) searchParams[key] = value;
  }
  return api.get('/public/audit_accesses', { ...options, searchParams, schema: auditPage });
}

// POST /public/audit_accesses with the list's filters: the csv of exactly those rows, read as a stream (spec §7
// "a blob response"); onProgress hears the bytes and line breaks read so far.
export function exportAuditAccesses(
  api: ApiClient,
  filter: AuditFilter,
  onProgress: (read: { bytes: number; lines: number }) => void,
  options: CallOptions = {},
): Promise<Blob> {
  return api.post<Blob>('/public/audit_accesses', csvExport(filter, onProgress, options));
}

/** The request of a csv export (the audit's exports): the filter as JSON, the answer read as a stream. */
export function csvExport(
  filter: object,
  onProgress: (read: { bytes: number; lines: number }) => void,
  options: CallOptions = {},
) {
  return {
    ...options,
    json: filter,
    responseType: 'blob' as const,
    headers: { ...options.headers, accept: 'text/csv' },
    // A large export takes longer to start than a page; its headers still come once the first rows are read.
    timeout: 120_000,
    onDownloadProgress: onProgress,
  };
}
