// The SQL of the staff-action record: the one insert the routes' recorder makes, the auditor's filtered list and
// csv, a person's own part of it for their data export, and the retention trim. Every query names the tenant. No
// statement here updates a row, and only the retention trim deletes any.
import {
  type OwnStaffAction,
  STAFF_ACTIONS_CSV_COLUMNS,
  type StaffAction,
  type StaffActionName,
  type StaffActionsFilter,
} from '../../contract/api/staff-actions';
import { CSV_BOM, csvRow } from '../../contract/domain/csv';
import type { Queryable } from '../db/db';
import { STAFF_ACTIONS_COUNT_LIMIT } from './rules';

export interface NewStaffAction {
  tenant: string;
  at: Date;
  staffId: string;
  staffName: string | null;
  staffRoles: readonly string[];
  action: StaffActionName;
  subjectId: string | null;
  requestId: string | null;
}

export async function recordStaffAction(q: Queryable, row: NewStaffAction): Promise<void> {
  await q.query(
    `insert into staff_actions (tenant, at, staff_id, staff_name, staff_roles, action, subject_id, request_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      row.tenant,
      row.at,
      row.staffId,
      row.staffName,
      [...row.staffRoles],
      row.action,
      row.subjectId,
      row.requestId,
    ],
  );
}

// The person's name while their user record exists: found by the user id or the account id the route named.
const SELECT = `select s.id::text as id, s.at, s.at::text as at_key, s.staff_id, s.staff_name, s.staff_roles,
    s.action, s.subject_id, s.request_id,
    (select nullif(trim(u.first_name || ' ' || u.last_name), '') from users u
      where u.tenant = s.tenant and (u.user_id::text = s.subject_id or u.account_id = s.subject_id) limit 1)
      as subject_name
  from staff_actions s`;

interface Row {
  id: string;
  at: Date;
  /** at as PostgreSQL prints it (microseconds kept for the csv's keyset). */
  at_key: string;
  staff_id: string;
  staff_name: string | null;
  staff_roles: string[];
  action: StaffActionName;
  subject_id: string | null;
  subject_name: string | null;
  request_id: string | null;
}

const toAction = ({ at_key: _, at, ...row }: Row): StaffAction => ({ ...row, at: at.toISOString() });

/** Contains, case-insensitive, without LIKE's wildcards: a filter of "50%" means those three characters. */
const contains = (column: string, n: number) =>
  `position(lower($${n}) in lower(coalesce(${column}, ''))) > 0`;

function whereOf(tenant: string, filter: StaffActionsFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [tenant];
  const where = ['s.tenant = $1'];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    where.push(sql(params.length));
  };
  if (filter.from) add((n) => `s.at >= $${n}::timestamptz`, filter.from);
  if (filter.to) add((n) => `s.at < $${n}::timestamptz`, filter.to);
  if (filter.action) add((n) => `s.action = $${n}`, filter.action);
  if (filter.staff)
    add((n) => `(${contains('s.staff_id', n)} or ${contains('s.staff_name', n)})`, filter.staff);
  if (filter.person) {
    add(
      (n) =>
        `(${contains('s.subject_id', n)} or exists (select 1 from users u where u.tenant = s.tenant
           and (u.user_id::text = s.subject_id or u.account_id = s.subject_id)
           and (${contains("u.first_name || ' ' || u.last_name", n)} or ${contains('u.document_number', n)}
                or ${contains('u.id_number', n)})))`,
      filter.person.trim(),
    );
  }
  return { sql: where.join(' and '), params };
}

export async function listStaffActions(
  q: Queryable,
  tenant: string,
  filter: StaffActionsFilter,
  page: { pageIndex: number; pageSize: number },
): Promise<{ items: StaffAction[]; total: number; totalIsLowerBound: boolean }> {
  const { sql, params } = whereOf(tenant, filter);
  const [list, count] = await Promise.all([
    q.query<Row>(
      `${SELECT} where ${sql} order by s.at desc, s.id desc
        limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, page.pageSize, page.pageIndex * page.pageSize],
    ),
    q.query<{ total: number }>(
      `select count(*)::int as total from (select 1 from staff_actions s where ${sql}
        limit ${STAFF_ACTIONS_COUNT_LIMIT + 1}) x`,
      params,
    ),
  ]);
  const counted = count.rows[0]?.total ?? 0;
  return {
    items: list.rows.map(toAction),
    total: Math.min(counted, STAFF_ACTIONS_COUNT_LIMIT),
    totalIsLowerBound: counted > STAFF_ACTIONS_COUNT_LIMIT,
  };
}

const csvCells = (a: StaffAction) => [
  a.at,
  a.staff_id,
  a.staff_name,
  a.staff_roles.join(' '),
  a.action,
  a.subject_id,
  a.subject_name,
  a.request_id,
];

/** The filtered record as csv (BOM, header, one row per action, newest first), read 2000 rows at a time. */
export function staffActionsCsv(
  q: Queryable,
  tenant: string,
  filter: StaffActionsFilter,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const { sql, params } = whereOf(tenant, filter);
  let after: { at_key: string; id: string } | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(CSV_BOM + csvRow(STAFF_ACTIONS_CSV_COLUMNS)));
        return;
      }
      const keyset =
        after === null
          ? ''
          : ` and (s.at, s.id) < ($${params.length + 1}::timestamptz, $${params.length + 2}::uuid)`;
      const { rows } = await q.query<Row>(
        `${SELECT} where ${sql}${keyset} order by s.at desc, s.id desc limit 2000`,
        after === null ? params : [...params, after.at_key, after.id],
      );
      if (rows.length === 0) {
        controller.close();
        return;
      }
      const last = rows[rows.length - 1] as Row;
      after = { at_key: last.at_key, id: last.id };
      controller.enqueue(encoder.encode(rows.map((row) => csvRow(csvCells(toAction(row)))).join('')));
    },
  });
}

/** The staff actions on one person's data (their account, or a user record of it), for their data export. */
export async function ownStaffActions(
  q: Queryable,
  tenant: string,
  accountId: string,
): Promise<OwnStaffAction[]> {
  const { rows } = await q.query<{
    at: Date;
    action: StaffActionName;
    staff_roles: string[];
  }>(
    `select s.at, s.action, s.staff_roles from staff_actions s
      where s.tenant = $1 and (s.subject_id = $2
        or s.subject_id in (select u.user_id::text from users u where u.tenant = $1 and u.account_id = $2))
      order by s.at desc, s.id desc`,
    [tenant, accountId],
  );
  return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
}
