import { type } from 'arktype';

// Access audit, doors, interdiction checks and watchlists (spec §3 Audit access, Watchlist upload; §7 Enforcement
// and watchlists, Visits and audit; §8 interdiction results). The reference server validates the request bodies with
// these schemas and src/api parses the responses with them.

/** Why a door decided as it did; `granted` is the only reason of a granted access. */
export const ACCESS_REASONS = [
  'granted',
  'credential_not_found',
  'credential_revoked',
  'credential_expired',
  'credential_not_yet_valid',
  'user_inactive',
  'user_interdicted',
  'enforcement_source_unavailable',
] as const;
export type AccessReason = (typeof ACCESS_REASONS)[number];

/** POST /internal/accesses: what a door read (a QR's text or a credential sid) at a facility. */
export const accessAttempt = type({
  facility_id: '0 < string <= 64',
  /** The QR text (acs:<tenant>:<acs_id>:<sid>) or a bare sid (a face credential matched by the door). */
  credential: '0 < string <= 512',
});
export type AccessAttempt = typeof accessAttempt.infer;

export const accessDecision = type({
  access_id: 'string',
  granted: 'boolean',
  reason: type.enumerated(...ACCESS_REASONS),
});
export type AccessDecision = typeof accessDecision.infer;

/** How the audit is filtered (query string of GET, JSON body of the csv export). Dates are ISO instants. */
export const auditFilter = type({
  'from?': 'string.date.iso',
  'to?': 'string.date.iso',
  'facility_id?': '0 < string <= 64',
  'result?': "'granted' | 'denied'",
});
export type AuditFilter = typeof auditFilter.infer;

export const AUDIT_PAGE_SIZES = [10, 25, 50, 100] as const;

export const auditEntity = type({
  name: 'string | null',
  surname: 'string | null',
  birth_date: 'string | null',
  document_type: 'string | null',
  document_number: 'string | null',
  id_number: 'string | null',
  registration_date: 'string | null',
  watchlists_check_mode: 'string | null',
  watchlists_checked: 'string[]',
  enforcement_source: 'string | null',
});
export type AuditEntity = typeof auditEntity.infer;

/** One access of the audit (spec §3); entity is null when the tenant's auditAccessesLevel hides it. */
export const auditAccess = type({
  access_id: 'string',
  created_at: 'string',
  user_id: 'string | null',
  doc_type: 'string',
  /** timezone: the facility's, where its times are shown (as visits show theirs). */
  facility: { facility_id: 'string', alias: 'string', 'timezone?': 'string' },
  access_type: "'granted' | 'denied'",
  reason: 'string',
  enforcement_source_url: 'string | null',
  entity: auditEntity.or('null'),
});
export type AuditAccess = typeof auditAccess.infer;

/** total is exact up to 10,000 matches; beyond, it is 10,000 and totalIsLowerBound is true. */
export const auditPage = type({
  items: auditAccess.array(),
  total: 'number',
  totalIsLowerBound: 'boolean',
  pageIndex: 'number',
  pageSize: 'number',
});
export type AuditPage = typeof auditPage.infer;

/** The csv export's columns, in order (first line of the file). */
export const AUDIT_CSV_COLUMNS = [
  'created_at',
  'user_id',
  'doc_type',
  'facility',
  'access_type',
  'reason',
  'enforcement_source_url',
  'name',
  'surname',
  'birth_date',
  'document_type',
  'document_number',
  'id_number',
  'registration_date',
  'watchlists_check_mode',
  'watchlists_checked',
  'enforcement_source',
] as const;

/** POST /internal/enforcements: id number and birth date required (spec §5); more with extendedInterdictionForm. */
export const interdictionRequest = type({
  id_number: '0 < string <= 20',
  birth_date: 'string.date.iso',
  'first_name?': 'string <= 100',
  'last_name?': 'string <= 100',
  'document_number?': 'string <= 40',
});
export type InterdictionRequest = typeof interdictionRequest.infer;

/** Spec §4/§8: the five interdiction results. */
export const INTERDICTION_RESULTS = [
  'user_not_found',
  'granted',
  'denied',
  'underaged',
  'indeterminate',
] as const;
export type InterdictionResult = (typeof INTERDICTION_RESULTS)[number];
export const interdictionResponse = type({
  result: type.enumerated(...INTERDICTION_RESULTS),
  reason: 'string | null',
});
export type InterdictionResponse = typeof interdictionResponse.infer;

/** What a watchlist upload stored (UploadWatchlistResult success true), or the refusal's problem otherwise. */
export const watchlistStored = type({
  watchlist_id: 'string',
  legal_domain: 'string',
  row_count: 'number',
  created_at: 'string',
  'file_name?': 'string | null',
  /** false once a later upload of the domain replaced it. */
  'current?': 'boolean',
});
export type WatchlistStored = typeof watchlistStored.infer;

/** GET /public/watchlists/uploads/{id}: a stored version, or why an upload was refused (kept by the server). */
export const watchlistUploadOutcome = type({ success: 'true', stored: watchlistStored }).or({
  success: 'false',
  upload_id: 'string',
  legal_domain: 'string | null',
  file_name: 'string | null',
  code: 'string',
  detail: 'string | null',
  invalid: 'number | null',
  created_at: 'string',
});
export type WatchlistUploadOutcome = typeof watchlistUploadOutcome.infer;
