// The record of staff actions on personal data (contract/api/staff-actions.ts; docs/audit.md#staff-actions):
//   GET  /public/staff_actions   post_audit_accesses_all (the auditor): filters staff, person, action, from, to;
//                                pageSize (10, 25, 50, 100) and pageIndex as GET /public/audit_accesses
//   POST /public/staff_actions   post_audit_accesses_all: the same filter as a JSON body; the csv (formula-safe cells)
// and `recordsStaffAction`, the middleware every staff route that touches a person's data carries: once the action
// has succeeded (a 2xx answer), it writes one row naming who, their roles, what, whose data and the request id,
// unless the handler already wrote it in the action's own transaction (`recordsWithin`).
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
import type { Db, Queryable } from '../db/db';
import { readBody, validationProblem } from '../http/validation';
import { actsAsStaff, STAFF_ACTIONS_PAGE_SIZES, staffRolesOf } from './rules';
import { listStaffActions, type NewStaffAction, recordStaffAction, staffActionsCsv } from './store';

/** What a handler says of the action it did when the route alone cannot: its name, whose data; null: none. */
export interface StaffActionNote {
  action?: StaffActionName;
  subject?: string | null;
}

export type StaffActionEnv = AuthEnv & {
  Variables: {
    staffAction: StaffActionNote | null;
    /** Set by the route's recorder: what it records. */
    staffActionRecording: StaffActionRecording;
    /** Set once the row is written in the action's transaction: the recorder writes no second one. */
    staffActionWritten: boolean;
  };
};

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
 * The row this request records, or undefined: a caller who holds no staff permission (a person on their own data
 * through a route staff share) is not recorded, nor staff on their own data (their own account, say), nor a call
 * whose handler said there is nothing to record.
 */
function rowOf(c: Context<StaffActionEnv>, recording: StaffActionRecording): NewStaffAction | undefined {
  const note = c.get('staffAction');
  if (note === null) return undefined;
  const claims = c.get('auth');
  if (!claims || !actsAsStaff(claims.roles)) return undefined;
  const action = note?.action ?? (recording.action === 'named by the handler' ? undefined : recording.action);
  if (!action) return undefined;
  const param = recording.subjectParam ? c.req.param(recording.subjectParam) : undefined;
  const subject = note?.subject !== undefined ? note.subject : (param ?? null);
  if (subject !== null && subject === claims.sub) return undefined;
  return {
    tenant: c.get('tenant'),
    at: new Date(),
    staffId: claims.sub,
    staffName: claims.preferred_username ?? claims.name ?? null,
    staffRoles: staffRolesOf(claims.roles),
    action,
    subjectId: subject,
    requestId: c.get('reqId') ?? null,
  };
}

/**
 * Runs the action's writes and its row of the record in one transaction, so that neither commits without the other
 * (a process that dies between two transactions would otherwise keep the action and lose its record). `fn` throws
 * to refuse (the transaction rolls back and nothing is recorded); `note` (or noteStaffAction inside fn) says whose
 * data when the route cannot.
 * On a route without a recorder it only runs `fn` in a transaction.
 */
export async function recordsWithin<T>(
  c: Context,
  db: Db,
  fn: (tx: Queryable) => Promise<T>,
  note?: StaffActionNote,
): Promise<T> {
  const own = c as unknown as Context<StaffActionEnv>;
  if (note) own.set('staffAction', note);
  const recording = own.get('staffActionRecording');
  let written = false;
  const result = await db.transaction(async (tx) => {
    const done = await fn(tx);
    // After fn: it may name whose data only once it has made it (a new account).
    const row = recording ? rowOf(own, recording) : undefined;
    if (row) await recordStaffAction(tx, row);
    written = row !== undefined;
    return done;
  });
  if (written) own.set('staffActionWritten', true);
  return result;
}

/**
 * After a staff call that succeeded, one row of the record (rowOf says who is not recorded), unless the handler
 * wrote it in the action's transaction (recordsWithin). Otherwise it is written right after the action, in a
 * transaction of its own, and a crash between the two loses the row: that is so for the import from photos (the
 * people are registered by a job after the answer), the watchlist upload (its entries go in batches of their own
 * before a short transaction makes the list current) and the evidence reads (no change to join; the row is written
 * before the image leaves, so no row means no image). A failed write is an error of the call, logged with its
 * request id, never silent.
 */
export function recordsStaffAction(
  db: Queryable,
  recording: StaffActionRecording,
): MiddlewareHandler<AuthEnv> {
  const middleware: MiddlewareHandler<AuthEnv> = async (c, next) => {
    const own = c as unknown as Context<StaffActionEnv>;
    own.set('staffActionRecording', recording);
    await next();
    if (c.res.status < 200 || c.res.status >= 300) return;
    if (own.get('staffActionWritten')) return;
    const row = rowOf(own, recording);
    if (row) await recordStaffAction(db, row);
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
