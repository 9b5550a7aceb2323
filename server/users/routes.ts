// Enrolled users as staff manage them (spec §3 User; §7 Accounts and users):
//   GET    /public/users                      get_users_all | post_onboardings_assisted (pageSize, pageIndex, bookmark, filter, orderby,
//                                             sorted, idNumber, birthDate)
//   GET    /public/users/{id}                 get_users_all: every field of spec §3 User, and which evidences exist
//   GET    /public/users/{id}/selfie|obverse|reverse   get_users_all: the evidence image; 410 evidence_deleted
//                                             (deleted_at, deleted_by) when the retention rule deleted it
//   DELETE /public/users                      delete_users_all: every user record of the tenant (with credentials and
//                                             evidences); the body names the tenant, { users, images }
//   PUT    /public/users/deleteAllData        delete_users_all: also every onboarding, portrayal and image, and the
//                                             personal fields of the accounts that had enrolled and of the access
//                                             audit (the decisions stay); recorded; the tables are then rewritten
//                                             (VACUUM FULL) so the deleted rows leave the disk
//   PUT    /public/accounts/{id}/onboarding   post_onboardings_assisted | can_view_complete_onboardings: an assistant
//                                             completes a pending onboarding (incompleted → completed, spec §4)
// Another tenant's user, or an id that is not a UUID: 404. Every query names the tenant of the call.
import { Hono } from 'hono';
import {
  type BulkResult,
  completeOnboardingBody,
  EVIDENCE_KINDS,
  USER_ORDER_FIELDS,
  type UserOrderField,
} from '../../contract/api/users';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import { HttpProblem, makeProblem, problemResponse } from '../http/problem';
import { intParam } from '../http/query';
import { confirmTenant } from '../http/tenant-confirmation';
import { isUuid, readBody } from '../http/validation';
import { refusalsOf } from '../onboarding/store/portrayals';
import { evidenceDeletionsOf } from '../retention/store';
import { recordsStaffAction, recordsWithin } from '../staff-actions/routes';
import { bookmarkOf, isIsoDate, MAX_PAGE_SIZE, normalIdNumber, pageOfBookmark, unquoteFilter } from './rules';
import {
  completeOnboarding,
  deleteAllData,
  deleteUsers,
  evidenceImage,
  findUser,
  listUsers,
  reclaim,
  type SummaryRow,
  type UserListQuery,
} from './store';

const notFound = () => new HttpProblem(404, 'No user with that id.', 'not_found');
const badQuery = (detail: string) => new HttpProblem(400, detail, 'invalid_query');

const summaryOf = (row: SummaryRow) => ({ ...row, created_at: row.created_at.toISOString() });

/** The list's query string, checked: 400 invalid_query names the first parameter that is wrong. */
function listQueryOf(query: (name: string) => string | undefined): UserListQuery {
  const pageSize = intParam(query('pageSize'), 'pageSize', 10, 1, MAX_PAGE_SIZE);
  const bookmark = query('bookmark');
  let pageIndex: number;
  if (bookmark) {
    const page = pageOfBookmark(bookmark);
    if (page === null) throw badQuery('bookmark is not one this server gave.');
    pageIndex = page;
  } else {
    pageIndex = intParam(query('pageIndex'), 'pageIndex', 0, 0, 100_000);
  }
  const orderby = query('orderby') || 'created_at';
  if (!(USER_ORDER_FIELDS as readonly string[]).includes(orderby)) {
    throw badQuery(`orderby must be one of ${USER_ORDER_FIELDS.join(', ')}.`);
  }
  const sorted = (query('sorted') || (orderby === 'created_at' ? 'desc' : 'asc')).toLowerCase();
  if (sorted !== 'asc' && sorted !== 'desc') throw badQuery('sorted must be asc or desc.');
  const idNumber = query('idNumber')?.trim();
  const birthDate = query('birthDate')?.trim();
  if (birthDate && !isIsoDate(birthDate)) throw badQuery('birthDate must be a date YYYY-MM-DD.');
  return {
    filter: unquoteFilter(query('filter')),
    idNumber: idNumber ? normalIdNumber(idNumber) : undefined,
    birthDate: birthDate || undefined,
    orderby: orderby as UserOrderField,
    sorted,
    pageSize,
    pageIndex,
  };
}

export function usersRoutes(deps: AppDeps, auth: ApiAuth): Hono<AuthEnv> {
  const { db } = deps;
  const app = new Hono<AuthEnv>();

  // Assistants search it too, to pick the existing user they re-enrol (AssistedExistingUsers).
  app.get('/public/users', auth.requireAuth('get_users_all', 'post_onboardings_assisted'), async (c) => {
    const query = listQueryOf((name) => c.req.query(name));
    const { rows, totalItems } = await listUsers(db, c.get('tenant'), query);
    const { pageIndex, pageSize } = query;
    return c.json({
      items: rows.map(summaryOf),
      totalItems,
      pageIndex,
      pageSize,
      bookmark: (pageIndex + 1) * pageSize < totalItems ? bookmarkOf(pageIndex + 1) : null,
    });
  });

  app.get('/public/users/:id', auth.requireAuth('get_users_all'), async (c) => {
    const id = c.req.param('id');
    if (!isUuid(id)) throw notFound();
    const tenant = c.get('tenant');
    const found = await findUser(db, tenant, id);
    if (!found) throw notFound();
    const { row, evidences } = found;
    const portrayalId = typeof row.portrayal_id === 'string' ? row.portrayal_id : null;
    return c.json({
      ...summaryOf(row),
      onboarding_date: row.onboarding_date.toISOString(),
      evidences: EVIDENCE_KINDS.filter((kind) => evidences.includes(kind)),
      deleted_evidences: await evidenceDeletionsOf(db, tenant, id),
      refusals: portrayalId ? await refusalsOf(db, tenant, portrayalId) : [],
    });
  });

  for (const kind of EVIDENCE_KINDS) {
    const reads = recordsStaffAction(db, { action: 'evidence.read', subjectParam: 'id' });
    app.get(`/public/users/:id/${kind}`, auth.requireAuth('get_users_all'), reads, async (c) => {
      const id = c.req.param('id');
      if (!isUuid(id)) throw notFound();
      const image = await evidenceImage(db, c.get('tenant'), id, kind);
      if (!image) {
        const deletion = (await evidenceDeletionsOf(db, c.get('tenant'), id)).find((d) => d.kind === kind);
        if (deletion) {
          const { deleted_at, deleted_by } = deletion;
          const detail = `The ${kind} image was deleted on ${deleted_at} by the retention rule.`;
          return problemResponse(makeProblem(410, detail, 'evidence_deleted'), { deleted_at, deleted_by });
        }
        throw new HttpProblem(404, `This user has no ${kind} image.`, 'not_found');
      }
      return c.body(new Uint8Array(image.bytes), 200, {
        'Content-Type': image.content_type,
        'Cache-Control': 'private, no-store',
      });
    });
  }

  const deletesUsers = recordsStaffAction(db, { action: 'users.delete_all' });
  app.delete('/public/users', auth.requireAuth('delete_users_all'), deletesUsers, async (c) => {
    await confirmTenant(c);
    const tenant = c.get('tenant');
    const actor = c.get('auth').sub;
    return c.json<BulkResult>(await recordsWithin(c, db, (tx) => deleteUsers(tx, tenant, actor)));
  });

  const deletesData = recordsStaffAction(db, { action: 'data.delete_all' });
  app.put('/public/users/deleteAllData', auth.requireAuth('delete_users_all'), deletesData, async (c) => {
    await confirmTenant(c);
    const tenant = c.get('tenant');
    const actor = c.get('auth').sub;
    const result = await recordsWithin(c, db, (tx) => deleteAllData(tx, tenant, actor));
    await reclaim(db, deps.logger);
    return c.json<BulkResult>(result);
  });

  app.put(
    '/public/accounts/:id/onboarding',
    auth.requireAuth('post_onboardings_assisted', 'can_view_complete_onboardings'),
    recordsStaffAction(db, { action: 'onboarding.complete', subjectParam: 'id' }),
    async (c) => {
      const id = c.req.param('id');
      await readBody(c, completeOnboardingBody);
      if (!isUuid(id)) throw new HttpProblem(404, 'No such account.', 'not_found');
      // Refused inside the transaction, so that a refusal records nothing.
      await recordsWithin(c, db, async (tx) => {
        const outcome = await completeOnboarding(tx, c.get('tenant'), id);
        if (outcome === 'not_found') throw new HttpProblem(404, 'No such account.', 'not_found');
        if (outcome === 'not_pending') {
          throw new HttpProblem(409, 'This onboarding is not pending.', 'onboarding_not_pending');
        }
      });
      return c.json({ id, onboarding_status: 'completed' });
    },
  );

  return app;
}
