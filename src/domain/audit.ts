// AuditAccesses' filter (spec §2: date presets, facility and result filters): held by the list machine as one
// string, and the same instants go to the list (GET) and to the csv export (POST), so the file holds exactly the
// rows the list shows. The range ends at the moment the filter was applied: accesses that arrive later show after
// Refresh, never in the file alone.
import type { AuditFilter } from '../../contract/api/audit';
import { startOfDayIn } from '../../contract/domain/visits';

export const AUDIT_PRESETS = ['today', 'last7Days', 'last30Days', 'all'] as const;
export type AuditPreset = (typeof AUDIT_PRESETS)[number];

export interface AuditListFilter extends AuditFilter {
  preset: AuditPreset;
}

/**
 * From the start of the tenant's day (today, 6 or 29 days back, in the tenant's timezone, whatever the browser's)
 * until `now`; `all` has no start.
 */
export function auditFilterAt(
  preset: AuditPreset,
  now: Date,
  timeZone: string,
  rest: Pick<AuditFilter, 'facility_id' | 'result'> = {},
): AuditListFilter {
  const back = preset === 'today' ? 0 : preset === 'last7Days' ? -6 : preset === 'last30Days' ? -29 : null;
  const from = back === null ? null : startOfDayIn(now, timeZone, back);
  return {
    preset,
    ...(from ? { from: from.toISOString() } : {}),
    // One millisecond on: the server's `to` is exclusive and an access stored at `now` belongs to the list.
    to: new Date(now.getTime() + 1).toISOString(),
    ...(rest.facility_id ? { facility_id: rest.facility_id } : {}),
    ...(rest.result ? { result: rest.result } : {}),
  };
}

export const encodeAuditFilter = (filter: AuditListFilter): string => JSON.stringify(filter);

/** The filter the list machine holds; anything unreadable is the default (last 30 days, every result). */
export function decodeAuditFilter(text: string, now: Date, timeZone: string): AuditListFilter {
  try {
    const value = JSON.parse(text) as Partial<AuditListFilter>;
    if (value && AUDIT_PRESETS.includes(value.preset as AuditPreset)) return value as AuditListFilter;
  } catch {
    // the default below
  }
  return auditFilterAt('last30Days', now, timeZone);
}

/** What the API is sent (the preset is the screen's own). */
export function apiFilterOf(filter: AuditListFilter): AuditFilter {
  const { preset: _preset, ...api } = filter;
  return api;
}
