import type { StaffActionsFilter, StaffActionsPage } from '../../contract/api/staff-actions.ts';
import { staffActionsPage } from './answers.ts';
import { csvExport } from './audit.ts';
import type { ApiClient, RequestOptions } from './client.ts';

type CallOptions = Pick<RequestOptions, 'signal' | 'silent' | 'handlers' | 'onError' | 'headers'>;

export interface StaffActionsQuery extends StaffActionsFilter {
  pageSize: number;
  pageIndex: number;
}

/** One page of the record of staff actions (GET /public/staff_actions), newest first. */
export function listStaffActions(
  api: ApiClient,
  query: StaffActionsQuery,
  options: CallOptions = {},
): Promise<StaffActionsPage> {
  const searchParams: Record<string, string | number> = {
    pageSize: query.pageSize,
    pageIndex: query.pageIndex,
  };
  for (const key of ['staff', 'person', 'action', 'from', 'to'] as const) {
    const value = query[key];
    if (value) searchParams[key] = value;
  }
  return api.get('/public/staff_actions', { ...options, searchParams, schema: staffActionsPage });
}

// POST /public/staff_actions with the list's filters: the csv of exactly those rows, read as a stream as the access
// audit's export; onProgress hears the bytes and line breaks read so far.
export function exportStaffActions(
  api: ApiClient,
  filter: StaffActionsFilter,
  onProgress: (read: { bytes: number; lines: number }) => void,
  options: CallOptions = {},
): Promise<Blob> {
  return api.post<Blob>('/public/staff_actions', csvExport(filter, onProgress, options));
}
