// Doors and the access audit (spec §3 Audit access, §4 access results): a door's attempt decided granted or denied
// and stored with its reason and a copy of the entity; the audit read with filters, paging and a streamed csv
// export. Every query names the tenant.
import type { AccessReason, AuditAccess, AuditFilter } from '../../contract/api/audit';
import { AUDIT_CSV_COLUMNS } from '../../contract/api/audit';
import { CSV_BOM, csvRow } from '../../contract/domain/csv';
import type { Queryable } from '../db/db';
import { type EnforcementSource, EnforcementUnavailableError } from '../enforcement/source';
import { isUuid } from '../http/validation';
import type { AuditLevel } from './settings';

/** The audit list counts its matches up to this; beyond, total is this and totalIsLowerBound is true. */
export const AUDIT_COUNT_LIMIT = 10_000;

export interface Facility {
  facility_id: string;
  alias: string;
  legal_domain: string | null;
}

/** The facility of the tenant, when the caller may use it (scope null: every facility of the tenant). */
export async function facilityInScope(
  q: Queryable,
  tenant: string,
  facilityId: string,
  scope: string | null,
): Promise<Facility | undefined> {
  const { rows } = await q.query<Facility>(
    `select f.facility_id, f.alias, f.legal_domain from facilities f
      where f.tenant = $1 and f.facility_id = $2
        and ($3::text is null or exists (select 1 from account_facilities a
              where a.tenant = f.tenant and a.facility_id = f.facility_id and a.account_id = $3))`,
    [tenant, facilityId, scope],
  );
  return rows[0];
}

interface CredentialHolder {
  user_id: string;
  credential_type: string;
  state: string;
  starts_at: Date;
  ends_at: Date | null;
  active: boolean;
  first_name: string;
  last_name: string;
  birth_date: string;
  document_type: string;
  document_number: string;
  id_number: string | null;
  onboarding_date: Date;
}

/** The sid a door read: the last part of a QR text acs:<tenant>:<acs_id>:<sid> of this tenant, or a bare sid. */
export function sidOfCredential(tenant: string, credential: string): string | null {
  const qr = /^acs:([^:]+):([^:]*):([^:]+)$/.exec(credential.trim());
  if (qr) return qr[1] === tenant ? (qr[3] ?? null) : null;
  return credential.trim();
}

export interface DoorOptions {
  now: Date;
  legalDomains: string[];
  enforcement: EnforcementSource;
}

/** Decides an attempt at the facility and stores it in the audit (one row per attempt, whatever the result). */
export async function decideAccess(
  q: Queryable,
  tenant: string,
  facility: Facility,
  credential: string,
  options: DoorOptions,
): Promise<{ access_id: string; granted: boolean; reason: AccessReason }> {
  const sid = sidOfCredential(tenant, credential);
  let holder: CredentialHolder | undefined;
  if (sid !== null && isUuid(sid)) {
    const { rows } = await q.query<CredentialHolder>(
      `select u.user_id::text as user_id, c.credential_type, c.state, c.starts_at, c.ends_at, u.active,
              u.first_name, u.last_name, to_char(u.birth_date, 'YYYY-MM-DD') as birth_date, u.document_type,
              u.document_number, u.id_number, u.onboarding_date
         from credentials c join users u on u.tenant = c.tenant and u.user_id = c.user_id
        where c.tenant = $1 and c.sid = $2::uuid and c.credential_type in ('qr', 'embedding')`,
      [tenant, sid],
    );
    holder = rows[0];
  }
  const domains = facility.legal_domain ? [facility.legal_domain] : options.legalDomains;
  let reason: AccessReason = 'granted';
  let checked: string[] = [];
  let sourceList: string | null = null;
  if (!holder) reason = 'credential_not_found';
  else if (holder.state !== 'active') reason = 'credential_revoked';
  else if (holder.starts_at.getTime() > options.now.getTime()) reason = 'credential_not_yet_valid';
  else if (holder.ends_at !== null && holder.ends_at.getTime() <= options.now.getTime())
    reason = 'credential_expired';
  else if (!holder.active) reason = 'user_inactive';
  else {
    checked = domains;
    try {
      const match = await options.enforcement.check(q, tenant, domains, {
        first_name: holder.first_name,
        last_name: holder.last_name,
        birth_date: holder.birth_date,
        document_number: holder.document_number,
        id_number: holder.id_number,
      });
      if (match) {
        reason = 'user_interdicted';
        sourceList = match.watchlist_id ?? null;
      }
    } catch (error) {
      if (!(error instanceof EnforcementUnavailableError)) throw error;
      reason = 'enforcement_source_unavailable';
    }
  }
  const granted = reason === 'granted';
  const { rows } = await q.query<{ access_id: string }>(
    `insert into audit_accesses (tenant, created_at, facility_id, user_id, sid, credential_type, doc_type, granted,
        reason, enforcement_source, first_name, last_name, birth_date, document_type, document_number, id_number,
        registration_date, watchlists_check_mode, watchlists_checked, enforcement_watchlist_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
     returning access_id::text as access_id`,
    [
      tenant,
      options.now,
      facility.facility_id,
      holder?.user_id ?? null,
      sid,
      holder?.credential_type ?? null,
      granted ? 'access' : 'denied',
      granted,
      reason,
      checked.length > 0 ? 'reference-watchlists' : null,
      holder?.first_name ?? null,
      holder?.last_name ?? null,
      holder?.birth_date ?? null,
      holder?.document_type ?? null,
      holder?.document_number ?? null,
      holder?.id_number ?? null,
      holder?.onboarding_date ?? null,
      checked.length > 0 ? 'interdicted' : null,
      checked,
      sourceList,
    ],
  );
  return { access_id: rows[0]?.access_id ?? '', granted, reason };
}

export interface AuditQuery extends AuditFilter {
  /** Only these facilities (the caller's, for post_accesses_myscope only); null: every facility. */
  scope: string | null;
}

function whereOf(tenant: string, query: AuditQuery): { sql: string; params: unknown[] } {
  const params: unknown[] = [tenant];
  const where = ['a.tenant = $1'];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    where.push(sql(params.length));
  };
  if (query.from) add((n) => `a.created_at >= $${n}::timestamptz`, query.from);
  if (query.to) add((n) => `a.created_at < $${n}::timestamptz`, query.to);
  if (query.facility_id) add((n) => `a.facility_id = $${n}`, query.facility_id);
  if (query.result) add((n) => `a.granted = $${n}`, query.result === 'granted');
  if (query.scope !== null) {
    add(
      (n) =>
        `a.facility_id in (select facility_id from account_facilities s where s.tenant = a.tenant and s.account_id = $${n})`,
      query.scope,
    );
  }
  return { sql: where.join(' and '), params };
}

interface AuditRow {
  access_id: string;
  created_at: Date;
  user_id: string | null;
  doc_type: string;
  facility_id: string;
  alias: string;
  timezone: string;
  granted: boolean;
  reason: string;
  enforcement_source: string | null;
  first_name: string | null;
  last_name: string | null;
  birth_date: string | null;
  document_type: string | null;
  document_number: string | null;
  id_number: string | null;
  registration_date: Date | null;
  watchlists_check_mode: string | null;
  watchlists_checked: string[];
  enforcement_watchlist_id: string | null;
  own_facility: boolean;
  /** created_at as PostgreSQL prints it (microseconds kept: a Date would lose them and break the keyset). */
  created_key: string;
}

const SELECT = (
  ownParam: number,
) => `select a.access_id::text as access_id, a.created_at, a.user_id::text as user_id,
    a.doc_type, a.facility_id, f.alias, f.timezone, a.granted, a.reason, a.enforcement_source, a.first_name, a.last_name,
    to_char(a.birth_date, 'YYYY-MM-DD') as birth_date, a.document_type, a.document_number, a.id_number,
    a.registration_date, a.watchlists_check_mode, a.watchlists_checked, a.created_at::text as created_key,
    a.enforcement_watchlist_id::text as enforcement_watchlist_id,
    exists (select 1 from account_facilities o where o.tenant = a.tenant and o.facility_id = a.facility_id
             and o.account_id = $${ownParam}) as own_facility
  from audit_accesses a join facilities f on f.tenant = a.tenant and f.facility_id = a.facility_id`;

/**
 * Where the auditor opens the source of a decision inside the portal: the watchlist version that refused the person,
 * on UploadWatchlistResult (upload-watchlist-result/true/<id>). Built from a uuid the database stored, never from
 * input, so it is always a same-origin path.
 */
export function enforcementSourceUrl(watchlistId: string | null): string | null {
  return watchlistId !== null && isUuid(watchlistId) ? `/upload-watchlist-result/true/${watchlistId}` : null;
}

/** The entity as much as the tenant's auditAccessesLevel shows: all, only at the caller's facilities, or none. */
function toAccess(row: AuditRow, level: AuditLevel): AuditAccess {
  const showEntity = level === 'all' || (level === 'myscope' && row.own_facility);
  return {
    access_id: row.access_id,
    created_at: row.created_at.toISOString(),
    user_id: row.user_id,
    doc_type: row.doc_type,
    facility: { facility_id: row.facility_id, alias: row.alias, timezone: row.timezone },
    access_type: row.granted ? 'granted' : 'denied',
    reason: row.reason,
    enforcement_source_url: enforcementSourceUrl(row.enforcement_watchlist_id),
    entity: showEntity
      ? {
          name: row.first_name,
          surname: row.last_name,
          birth_date: row.birth_date,
          document_type: row.document_type,
          document_number: row.document_number,
          id_number: row.id_number,
          registration_date: row.registration_date?.toISOString() ?? null,
          watchlists_check_mode: row.watchlists_check_mode,
          watchlists_checked: row.watchlists_checked,
          enforcement_source: row.enforcement_source,
        }
      : null,
  };
}

export async function listAccesses(
  q: Queryable,
  tenant: string,
  query: AuditQuery,
  page: { pageIndex: number; pageSize: number; caller: string; level: AuditLevel },
): Promise<{ items: AuditAccess[]; total: number; totalIsLowerBound: boolean }> {
  const { sql, params } = whereOf(tenant, query);
  const [list, count] = await Promise.all([
    q.query<AuditRow>(
      `${SELECT(params.length + 1)} where ${sql} order by a.created_at desc, a.access_id desc
        limit $${params.length + 2} offset $${params.length + 3}`,
      [...params, page.caller, page.pageSize, page.pageIndex * page.pageSize],
    ),
    // Counting 100,000 rows costs more than the page itself: counted up to AUDIT_COUNT_LIMIT, then "at least".
    q.query<{ total: number }>(
      `select count(*)::int as total from (select 1 from audit_accesses a where ${sql} limit ${AUDIT_COUNT_LIMIT + 1}) x`,
      params,
    ),
  ]);
  const counted = count.rows[0]?.total ?? 0;
  return {
    items: list.rows.map((row) => toAccess(row, page.level)),
    total: Math.min(counted, AUDIT_COUNT_LIMIT),
    totalIsLowerBound: counted > AUDIT_COUNT_LIMIT,
  };
}

export function accessCsvCells(access: AuditAccess): (string | null)[] {
  const e = access.entity;
  return [
    access.created_at,
    access.user_id,
    access.doc_type,
    access.facility.alias,
    access.access_type,
    access.reason,
    access.enforcement_source_url,
    e?.name ?? null,
    e?.surname ?? null,
    e?.birth_date ?? null,
    e?.document_type ?? null,
    e?.document_number ?? null,
    e?.id_number ?? null,
    e?.registration_date ?? null,
    e?.watchlists_check_mode ?? null,
    e ? e.watchlists_checked.join(' ') : null,
    e?.enforcement_source ?? null,
  ];
}

/** The filtered audit as csv (BOM, header, one row per access, newest first), read 2000 rows at a time. */
export function accessesCsv(
  q: Queryable,
  tenant: string,
  query: AuditQuery,
  caller: string,
  level: AuditLevel,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const { sql, params } = whereOf(tenant, query);
  let after: { created_key: string; access_id: string } | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(CSV_BOM + csvRow(AUDIT_CSV_COLUMNS)));
        return;
      }
      const keyset =
        after === null
          ? ''
          : ` and (a.created_at, a.access_id) < ($${params.length + 2}::timestamptz, $${params.length + 3}::uuid)`;
      const { rows } = await q.query<AuditRow>(
        `${SELECT(params.length + 1)} where ${sql}${keyset} order by a.created_at desc, a.access_id desc limit 2000`,
        after === null ? [...params, caller] : [...params, caller, after.created_key, after.access_id],
      );
      if (rows.length === 0) {
        controller.close();
        return;
      }
      const last = rows[rows.length - 1] as AuditRow;
      after = { created_key: last.created_key, access_id: last.access_id };
      controller.enqueue(
        encoder.encode(rows.map((row) => csvRow(accessCsvCells(toAccess(row, level)))).join('')),
      );
    },
  });
}
