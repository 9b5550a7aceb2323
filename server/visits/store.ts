// The SQL of visits (spec §3 Visit; tables of migration 004): every query names the tenant.
import type { HistoryAction, Visit, VisitStatus } from '../../contract/api/visits';
import type { Queryable } from '../db/db';

interface VisitRow {
  id: string;
  title: string;
  expected_at: Date;
  leaving_at: Date;
  host_email: string;
  host_account_id: string | null;
  host_name: string | null;
  host_locale: string | null;
  facility_id: string;
  alias: string;
  timezone: string;
  status: VisitStatus;
  visitor: string | null;
  visitor_name: string | null;
  visitor_email: string | null;
  visitor_acs_id: string | null;
  visitor_enrolled: boolean | null;
  guests: number;
  extra_fields: Record<string, unknown>;
}

interface HistoryRow {
  visit_id: string;
  datetime: Date;
  action: HistoryAction;
  actor: string | null;
  message: string | null;
  result: string | null;
}

export const personName = (first: string | null, last: string | null, fallback: string) =>
  [first, last].filter(Boolean).join(' ').trim() || fallback;

const SELECT = `select v.visit_id::text as id, v.title, v.expected_at, v.leaving_at, v.host_email,
    v.host_account_id::text as host_account_id,
    nullif(trim(coalesce(h.first_name, '') || ' ' || coalesce(h.last_name, '')), '') as host_name,
    h.locale as host_locale,
    v.facility_id, f.alias, f.timezone, v.status, v.visitor_account_id::text as visitor, v.visitor_name,
    v.visitor_email, va.acs_id as visitor_acs_id, va.enrolled as visitor_enrolled, v.guests, v.extra_fields
  from visits v
  join facilities f on f.tenant = v.tenant and f.facility_id = v.facility_id
  left join accounts h on h.tenant = v.tenant and h.id = v.host_account_id
  left join accounts va on va.tenant = v.tenant and va.id = v.visitor_account_id`;

export type StoredVisit = Visit & { hostAccountId: string | null; hostLocale: string | null };

function toVisit(row: VisitRow, history: HistoryRow[]): StoredVisit {
  return {
    id: row.id,
    title: row.title,
    expected_at: row.expected_at.toISOString(),
    leaving_at: row.leaving_at.toISOString(),
    host: { email: row.host_email, name: row.host_name },
    location: { facility_id: row.facility_id, alias: row.alias, timezone: row.timezone },
    history: history.map((h) => ({
      datetime: h.datetime.toISOString(),
      action: h.action,
      actor: h.actor,
      message: h.message,
      result: h.result,
    })),
    status: row.status,
    visitor: row.visitor,
    visitorData: { name: row.visitor_name, email: row.visitor_email },
    visitorProfile: { acs_id: row.visitor_acs_id, enrolled: row.visitor_enrolled ?? false },
    guests: row.guests,
    extra_fields: row.extra_fields,
    hostAccountId: row.host_account_id,
    hostLocale: row.host_locale,
  };
}

/** The public shape (without the store's own members). */
export function publicVisit({ hostAccountId: _h, hostLocale: _l, ...visit }: StoredVisit): Visit {
  return visit;
}

async function withHistory(db: Queryable, tenant: string, rows: VisitRow[]): Promise<StoredVisit[]> {
  if (rows.length === 0) return [];
  const { rows: history } = await db.query<HistoryRow>(
    `select visit_id::text as visit_id, datetime, action, actor, message, result from visit_history
      where tenant = $1 and visit_id = any($2::uuid[]) order by visit_id, seq`,
    [tenant, rows.map((row) => row.id)],
  );
  return rows.map((row) =>
    toVisit(
      row,
      history.filter((h) => h.visit_id === row.id),
    ),
  );
}

/** One visit of the tenant; with `visitorAccountId`, only when that person is its visitor. */
export async function findVisit(
  db: Queryable,
  tenant: string,
  visitId: string,
  visitorAccountId?: string,
): Promise<StoredVisit | undefined> {
  const params: unknown[] = [tenant, visitId];
  let where = 'v.tenant = $1 and v.visit_id = $2::uuid';
  if (visitorAccountId !== undefined) {
    params.push(visitorAccountId);
    where += ' and v.visitor_account_id::text = $3';
  }
  const { rows } = await db.query<VisitRow>(`${SELECT} where ${where}`, params);
  return (await withHistory(db, tenant, rows))[0];
}

export interface VisitQuery {
  pageSize: number;
  pageIndex: number;
  from?: Date;
  to?: Date;
  pending: boolean;
  now: Date;
  visitor?: string;
  host?: string;
  orderby: 'expected_at' | 'visitor' | 'host' | 'status';
  sorted: 'asc' | 'desc';
  /** Only this person's visits (a visitor's own); every visit of the tenant for reception. */
  visitorAccountId?: string;
}

const ORDER: Record<VisitQuery['orderby'], string> = {
  expected_at: 'v.expected_at',
  visitor: "lower(coalesce(v.visitor_name, ''))",
  host: 'lower(v.host_email)',
  status: 'v.status',
};

export async function listVisits(
  db: Queryable,
  tenant: string,
  query: VisitQuery,
): Promise<{ items: StoredVisit[]; totalItems: number }> {
  const params: unknown[] = [tenant];
  const where = ['v.tenant = $1'];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    where.push(sql(params.length));
  };
  if (query.visitorAccountId !== undefined)
    add((n) => `v.visitor_account_id::text = $${n}`, query.visitorAccountId);
  if (query.from) add((n) => `v.expected_at >= $${n}`, query.from);
  if (query.to) add((n) => `v.expected_at < $${n}`, query.to);
  if (query.pending) {
    where.push(`v.status in ('requested', 'accepted')`);
    add((n) => `v.leaving_at > $${n}`, query.now);
  }
  const like = (value: string) => `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  if (query.visitor)
    add(
      (n) =>
        `(lower(coalesce(v.visitor_name, '')) like $${n} or lower(coalesce(v.visitor_email, '')) like $${n})`,
      like(query.visitor),
    );
  if (query.host) add((n) => `lower(v.host_email) like $${n}`, like(query.host));
  const whereSql = where.join(' and ');
  const { rows: count } = await db.query<{ n: number }>(
    `select count(*)::int as n from visits v where ${whereSql}`,
    params,
  );
  const direction = query.sorted === 'desc' ? 'desc' : 'asc';
  const { rows } = await db.query<VisitRow>(
    `${SELECT} where ${whereSql} order by ${ORDER[query.orderby]} ${direction}, v.expected_at, v.visit_id
      limit ${query.pageSize} offset ${query.pageSize * query.pageIndex}`,
    params,
  );
  return { items: await withHistory(db, tenant, rows), totalItems: count[0]?.n ?? 0 };
}

/** Appends one history event (spec §4) with who did it: a person's name, 'automatic', 'kiosk' or 'terminal'. */
export async function appendHistory(
  tx: Queryable,
  tenant: string,
  visitId: string,
  event: { action: HistoryAction; actor: string; at: Date; message?: string; result?: string },
): Promise<void> {
  await tx.query(
    `insert into visit_history (tenant, visit_id, seq, datetime, action, actor, message, result)
     values ($1, $2::uuid, (select coalesce(max(seq), 0) + 1 from visit_history where tenant = $1 and visit_id = $2::uuid),
       $3, $4, $5, $6, $7)`,
    [tenant, visitId, event.at, event.action, event.actor, event.message ?? null, event.result ?? null],
  );
}

/** Moves a visit from one status to another; false when it was no longer in `from` (a race lost). */
export async function moveVisit(
  tx: Queryable,
  tenant: string,
  visitId: string,
  from: readonly VisitStatus[],
  to: VisitStatus,
): Promise<boolean> {
  const { rows } = await tx.query(
    `update visits set status = $3 where tenant = $1 and visit_id = $2::uuid and status = any($4::text[]) returning 1`,
    [tenant, visitId, to, from],
  );
  return rows.length > 0;
}

export interface AccountRow {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  username: string;
  locale: string | null;
}

export async function accountByEmail(
  db: Queryable,
  tenant: string,
  email: string,
): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow>(
    `select id::text as id, email, first_name, last_name, username, locale from accounts
      where tenant = $1 and lower(email) = lower($2) limit 1`,
    [tenant, email],
  );
  return rows[0];
}

export async function accountById(
  db: Queryable,
  tenant: string,
  id: string,
): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow>(
    `select id::text as id, email, first_name, last_name, username, locale from accounts
      where tenant = $1 and id::text = $2`,
    [tenant, id],
  );
  return rows[0];
}

/** Whether the host already has a visit (not cancelled nor over) overlapping [start, end). */
export async function hostBusy(
  db: Queryable,
  tenant: string,
  hostEmail: string,
  start: Date,
  end: Date,
): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from visits where tenant = $1 and lower(host_email) = lower($2)
       and status in ('requested', 'accepted', 'checked_in') and expected_at < $4 and leaving_at > $3 limit 1`,
    [tenant, hostEmail, start, end],
  );
  return rows.length > 0;
}

/** The user record holding an access id (what reception's QR reader or keyboard gives). */
export async function userByAcsId(db: Queryable, tenant: string, acsId: string) {
  const { rows } = await db.query<{ user_id: string; account_id: string | null; name: string }>(
    `select user_id::text as user_id, account_id,
              trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) as name
         from users where tenant = $1 and acs_id = $2 limit 1`,
    [tenant, acsId],
  );
  return rows[0];
}

/** A user's QR credentials; only the one of that sid when one is given. */
export async function qrCredentialsOf(db: Queryable, tenant: string, userId: string, sid?: string) {
  const { rows } = await db.query<{
    credential_type: 'qr' | 'embedding' | 'enrolment_proof';
    state: 'active' | 'revoked';
    ends_at: Date | null;
  }>(
    `select credential_type, state, ends_at from credentials
        where tenant = $1 and user_id = $2::uuid and credential_type = 'qr' ${sid !== undefined ? 'and sid::text = $3' : ''}`,
    sid !== undefined ? [tenant, userId, sid] : [tenant, userId],
  );
  return rows;
}

/** The QR credentials of the person of an account, the newest first, with the access id they encode. */
export async function accountQrCredentials(db: Queryable, tenant: string, accountId: string) {
  const { rows } = await db.query<{
    acs_id: string;
    sid: string;
    credential_type: 'qr';
    state: 'active' | 'revoked';
    ends_at: Date | null;
  }>(
    `select u.acs_id, c.sid::text as sid, c.credential_type, c.state, c.ends_at
         from users u join credentials c on c.tenant = u.tenant and c.user_id = u.user_id
        where u.tenant = $1 and u.account_id = $2 and c.credential_type = 'qr'
        order by c.created_at desc`,
    [tenant, accountId],
  );
  return rows;
}

/** A person of the tenant by the id of their user record or of their account: the visitor reception names. */
export async function visitorById(db: Queryable, tenant: string, id: string) {
  const { rows } = await db.query<{ id: string; name: string; email: string | null; username: string }>(
    `select a.id::text as id, a.username, coalesce(u.email, a.email) as email,
              trim(coalesce(u.first_name, a.first_name, '') || ' ' || coalesce(u.last_name, a.last_name, '')) as name
         from accounts a left join users u on u.tenant = a.tenant and u.account_id = a.id::text
        where a.tenant = $1 and (a.id = $2::uuid or u.user_id = $2::uuid)
        limit 1`,
    [tenant, id],
  );
  return rows[0];
}

export async function facilityById(db: Queryable, tenant: string, facilityId: string) {
  const { rows } = await db.query<{ facility_id: string; alias: string; timezone: string }>(
    'select facility_id, alias, timezone from facilities where tenant = $1 and facility_id = $2',
    [tenant, facilityId],
  );
  return rows[0];
}

export interface NewVisitRow {
  title: string;
  start: Date;
  end: Date;
  hostEmail: string | null;
  hostAccountId: string;
  facilityId: string;
  visitorAccountId: string | null;
  visitorName: string;
  visitorEmail: string | null;
  guests: number;
  status: 'accepted' | 'requested';
  extraFields: Record<string, unknown>;
  createdBy: string | null;
}

/** Inserts a visit and answers its id. */
export async function insertVisit(tx: Queryable, tenant: string, visit: NewVisitRow): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    `insert into visits (tenant, title, expected_at, leaving_at, host_email, host_account_id, facility_id,
           visitor_account_id, visitor_name, visitor_email, guests, status, extra_fields, created_by)
         values ($1, $2, $3, $4, $5, $6::uuid, $7, $8::uuid, $9, $10, $11, $12, $13, $14::uuid)
         returning visit_id::text as id`,
    [
      tenant,
      visit.title,
      visit.start,
      visit.end,
      visit.hostEmail,
      visit.hostAccountId,
      visit.facilityId,
      visit.visitorAccountId,
      visit.visitorName,
      visit.visitorEmail,
      visit.guests,
      visit.status,
      JSON.stringify(visit.extraFields),
      visit.createdBy,
    ],
  );
  return rows[0]?.id as string;
}
