// The record of staff actions on personal data (contract/api/staff-actions.ts; docs/audit.md#staff-actions):
//   GET  /public/staff_actions   post_audit_accesses_all (the auditor): filters staff, person, action, from, to;
//                                pageSize (10, 25, 50, 100) and pageIndex as GET /public/audit_accesses
//   POST /public/staff_actions   post_audit_accesses_all: the same filter as a JSON body; the csv (formula-safe cells)
// and `recordsStaffAction`, the middleware every staff route that touches a person's data carries: once the action
// has succeeded (a 2xx answer), it writes one row naming who, their roles, what, whose data and the request id.
// Nothing here updates or deletes a row; the retention purge trims the record after retention.auditDays.
import { type } from 'arktype';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import {
  type StaffActionName,
  type StaffActionsPage,
  staffActionsFilter,
} from '../../contract/api/staff-actions';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import type { Queryable } from '../db/db';
import { readBody, validationProblem } from '../http/validation';
import { actsAsStaff, STAFF_ACTIONS_PAGE_SIZES, staffRolesOf } from './rules';
import { listStaffActions, recordStaffAction, staffActionsCsv } from './store';

/** What a handler says of the action it did when the route alone cannot: its name, whose data; null: none. */
export interface StaffActionNote {
  action?: StaffActionName;
  subject?: string | null;
}

export type StaffActionEnv = AuthEnv & { Variables: { staffAction: StaffActionNote | null } };

/** What a route records, read by the test that proves every staff route on personal data records. */
export interface StaffActionRecording {
  action: StaffActionName | 'named by the handler';
  /** The path parameter that names whose data, when the route has one. */
  subjectParam?: string;
}

const recordings = new WeakMap<object, StaffActionRecording>();

/** The recording a middleware of the route table makes, if it is a recorder. */
export function recordingOf(handler: unknown): StaffActionRecording | undefined {
  return typeof handler === 'function' ? recordings.get(handler) : undefined;
}

/** Lets a handler name the action (registration or re-enrolment), whose data, or that nothing is recorded (null). */
export function noteStaffAction(c: Context, note: StaffActionNote | null): void {
  (c as Context<StaffActionEnv>).set('staffAction', note);
}

/**
 * After a staff call that succeeded, one row of the record. A caller who holds no staff permission (a person on
 * their own data through a route staff share) is not recorded. The row is written right after the action, not in
 * its transaction: a failed write is an error of the call, logged with its request id, never silent.
 */
export function recordsStaffAction(
  db: Queryable,
  recording: StaffActionRecording,
): MiddlewareHandler<AuthEnv> {
  const middleware: MiddlewareHandler<AuthEnv> = async (c, next) => {
    await next();
    if (c.res.status < 200 || c.res.status >= 300) return;
    const note = (c as unknown as Context<StaffActionEnv>).get('staffAction');
    if (note === null) return;
    const claims = c.get('auth');
    if (!claims || !actsAsStaff(claims.roles)) return;
    const action =
      note?.action ?? (recording.action === 'named by the handler' ? undefined : recording.action);
    if (!action) return;
    const param = recording.subjectParam ? c.req.param(recording.subjectParam) : undefined;
    const subject = note?.subject !== undefined ? note.subject : (param ?? null);
    // Staff on their own data (their own account, say) act as the person, not as staff on someone's.
    if (subject !== null && subject === claims.sub) return;
    await recordStaffAction(db, {
      tenant: c.get('tenant'),
      at: new Date(),
      staffId: claims.sub,
      staffName: claims.preferred_username ?? claims.name ?? null,
      staffRoles: staffRolesOf(claims.roles),
      action,
      subjectId: subject,
      requestId: c.get('reqId') ?? null,
    });
  };
  recordings.set(middleware, recording);
  return middleware;
}

/** The filter from the query string or a body; 422 naming each field that is wrong. */
function readFilter(raw: unknown) {
  const filter = staffActionsFilter(raw);
  if (filter instanceof type.errors) {
    throw validationProblem(
      filter.map((error) => ({ field: String(error.path[0] ?? 'query'), code: 'wrong_format' })),
    );
  }
  return filter;
}

const FILTER_FIELDS = ['staff', 'person', 'action', 'from', 'to'] as const;

function queryFilter(query: Record<string, string | undefined>) {
  const given: Record<string, string> = {};
  for (const field of FILTER_FIELDS) {
    const value = query[field]?.trim();
    if (value) given[field] = value;
  }
  return readFilter(given);
}

function pageOf(query: (name: string) => string | undefined) {
  const pageSize = Number(query('pageSize') ?? 25);
  const pageIndex = Number(query('pageIndex') ?? 0);
  if (!(STAFF_ACTIONS_PAGE_SIZES as readonly number[]).includes(pageSize)) {
    throw validationProblem([{ field: 'pageSize', code: 'wrong_format' }]);
  }
  if (!Number.isInteger(pageIndex) || pageIndex < 0 || pageIndex > 100_000) {
    throw validationProblem([{ field: 'pageIndex', code: 'wrong_format' }]);
  }
  return { pageSize, pageIndex };
}

export function staffActionsRoutes(deps: AppDeps, auth: ApiAuth): Hono<AuthEnv> {
  const { db } = deps;
  const app = new Hono<AuthEnv>();

  // The auditor of the whole tenant: the record spans every facility, so the facility-scoped audit right is not enough.
  app.get('/public/staff_actions', auth.requireAuth('post_audit_accesses_all'), async (c) => {
    const filter = queryFilter(c.req.query());
    const { pageSize, pageIndex } = pageOf((name) => c.req.query(name));
    const page = await listStaffActions(db, c.get('tenant'), filter, { pageIndex, pageSize });
    return c.json<StaffActionsPage>({ ...page, pageIndex, pageSize });
  });

  app.post('/public/staff_actions', auth.requireAuth('post_audit_accesses_all'), async (c) => {
    const filter = await readBody(c, staffActionsFilter);
    return new Response(staffActionsCsv(db, c.get('tenant'), filter), {
      status: 200,
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="staff-actions.csv"',
        'cache-control': 'no-store',
      },
    });
  });

  return app;
}
