// Enrolled users as staff manage them (spec §3 User; §7 Accounts and users):
//   GET    /public/users                      get_users_all | post_onboardings_assisted (pageSize, pageIndex, bookmark, filter, orderby,
//                                             sorted, idNumber, birthDate)
//   GET    /public/users/{id}                 get_users_all: every field of spec §3 User, and which evidences exist
//   GET    /public/users/{id}/selfie|obverse|reverse   get_users_all: the evidence image
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
  type EvidenceKind,
  USER_ORDER_FIELDS,
  type UserOrderField,
} from '../../contract/api/users';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import type { Queryable } from '../db/db';
import { HttpProblem } from '../http/problem';
import { isUuid, readBody } from '../http/validation';
import { refusalsOf } from '../onboarding/store/portrayals';
import { confirmTenant } from './tenant-confirmation';

const MAX_PAGE_SIZE = 100;

const SUMMARY_COLUMNS = `user_id::text as user_id, username, first_name, last_name, email, acs_id, id_number, active,
  onboarding_state, register_mode, created_at`;
const DETAIL_COLUMNS = `${SUMMARY_COLUMNS}, account_id, nie, nationality, to_char(birth_date, 'YYYY-MM-DD') as birth_date,
  to_char(expiry_date, 'YYYY-MM-DD') as expiry_date, document_number, document_type, expedition_country,
  portrayal_id::text as portrayal_id, onboarding_id::text as onboarding_id, host, onboarding_date, region,
  coalesce((select a.username from accounts a where a.tenant = users.tenant and a.id::text = users.assisted_by),
    assisted_by) as assisted_by,
  life_proofing_result, identity_proofing_result, ocr_integrity, document_validity, selfie_authenticity`;

interface SummaryRow {
  user_id: string;
  created_at: Date;
  [key: string]: unknown;
}

const notFound = () => new HttpProblem(404, 'No user with that id.', 'not_found');
const badQuery = (detail: string) => new HttpProblem(400, detail, 'invalid_query');

function intParam(value: string | undefined, name: string, fallback: number, min: number, max: number) {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw badQuery(`${name} must be an integer from ${min} to ${max}.`);
  return n;
}

/** Spec §5: the list filter is sent wrapped in quotes; the quotes are not part of what is looked for. */
export function unquoteFilter(raw: string | undefined): string {
  const value = (raw ?? '').trim().slice(0, 200);
  const quoted = /^"(.*)"$/s.exec(value);
  return (quoted ? (quoted[1] ?? '') : value).trim();
}

/** The bookmark of a page: the page it opens, opaque to the client (base64url). */
export const bookmarkOf = (pageIndex: number) => Buffer.from(`p:${pageIndex}`).toString('base64url');
function pageOfBookmark(bookmark: string): number {
  const match = /^p:(\d{1,6})$/.exec(Buffer.from(bookmark, 'base64url').toString());
  if (!match) throw badQuery('bookmark is not one this server gave.');
  return Number(match[1]);
}

const summaryOf = (row: SummaryRow) => ({ ...row, created_at: row.created_at.toISOString() });

async function evidenceCount(db: Queryable, tenant: string) {
  const { rows } = await db.query<{ count: number }>(
    `select (select count(*) from user_evidences where tenant = $1)
          + (select count(*) from portrayal_images where tenant = $1) as count`,
    [tenant],
  );
  return Number(rows[0]?.count ?? 0);
}

export function usersRoutes(deps: AppDeps, auth: ApiAuth): Hono<AuthEnv> {
  const { db } = deps;
  const app = new Hono<AuthEnv>();

  // Assistants search it too, to pick the existing user they re-enrol (AssistedExistingUsers).
  app.get('/public/users', auth.requireAuth('get_users_all', 'post_onboardings_assisted'), async (c) => {
    const tenant = c.get('tenant');
    const pageSize = intParam(c.req.query('pageSize'), 'pageSize', 10, 1, MAX_PAGE_SIZE);
    const bookmark = c.req.query('bookmark');
    const pageIndex = bookmark
      ? pageOfBookmark(bookmark)
      : intParam(c.req.query('pageIndex'), 'pageIndex', 0, 0, 100_000);
    const orderby = c.req.query('orderby') || 'created_at';
    if (!(USER_ORDER_FIELDS as readonly string[]).includes(orderby)) {
      throw badQuery(`orderby must be one of ${USER_ORDER_FIELDS.join(', ')}.`);
    }
    const sorted = (c.req.query('sorted') || (orderby === 'created_at' ? 'desc' : 'asc')).toLowerCase();
    if (sorted !== 'asc' && sorted !== 'desc') throw badQuery('sorted must be asc or desc.');

    const params: unknown[] = [tenant];
    const where = ['tenant = $1'];
    const filter = unquoteFilter(c.req.query('filter'));
    if (filter !== '') {
      params.push(`%${filter.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
      const p = `$${params.length}`;
      where.push(`(lower(first_name || ' ' || last_name) like ${p} or lower(coalesce(email, '')) like ${p}
        or lower(acs_id) like ${p} or lower(coalesce(id_number, '')) like ${p}
        or lower(coalesce(username, '')) like ${p})`);
    }
    const idNumber = c.req.query('idNumber')?.trim();
    if (idNumber) {
      params.push(idNumber.toUpperCase().replace(/[\s-]/g, ''));
      where.push(`upper(coalesce(id_number, nie, '')) = $${params.length}`);
    }
    const birthDate = c.req.query('birthDate')?.trim();
    if (birthDate) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(birthDate) || Number.isNaN(Date.parse(birthDate))) {
        throw badQuery('birthDate must be a date YYYY-MM-DD.');
      }
      params.push(birthDate);
      where.push(`birth_date = $${params.length}::date`);
    }
    const clause = where.join(' and ');
    const total = await db.query<{ count: number }>(
      `select count(*)::int as count from users where ${clause}`,
      params,
    );
    const column = orderby as UserOrderField;
    const { rows } = await db.query<SummaryRow>(
      `select ${SUMMARY_COLUMNS} from users where ${clause}
        order by ${column} ${sorted} nulls last, user_id limit ${pageSize} offset ${pageSize * pageIndex}`,
      params,
    );
    const totalItems = total.rows[0]?.count ?? 0;
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
    const { rows } = await db.query<SummaryRow & { onboarding_date: Date }>(
      `select ${DETAIL_COLUMNS} from users where tenant = $1 and user_id = $2::uuid`,
      [tenant, id],
    );
    const row = rows[0];
    if (!row) throw notFound();
    const evidences = await db.query<{ kind: EvidenceKind }>(
      'select kind from user_evidences where tenant = $1 and user_id = $2::uuid order by kind',
      [tenant, id],
    );
    const portrayalId = typeof row.portrayal_id === 'string' ? row.portrayal_id : null;
    return c.json({
      ...summaryOf(row),
      onboarding_date: row.onboarding_date.toISOString(),
      evidences: EVIDENCE_KINDS.filter((kind) => evidences.rows.some((e) => e.kind === kind)),
      refusals: portrayalId ? await refusalsOf(db, tenant, portrayalId) : [],
    });
  });

  for (const kind of EVIDENCE_KINDS) {
    app.get(`/public/users/:id/${kind}`, auth.requireAuth('get_users_all'), async (c) => {
      const id = c.req.param('id');
      if (!isUuid(id)) throw notFound();
      const { rows } = await db.query<{ content_type: string; bytes: Uint8Array }>(
        'select content_type, bytes from user_evidences where tenant = $1 and user_id = $2::uuid and kind = $3',
        [c.get('tenant'), id, kind],
      );
      const image = rows[0];
      if (!image) throw new HttpProblem(404, `This user has no ${kind} image.`, 'not_found');
      return c.body(new Uint8Array(image.bytes), 200, {
        'Content-Type': image.content_type,
        'Cache-Control': 'private, no-store',
      });
    });
  }

  async function record(
    tx: Queryable,
    tenant: string,
    action: string,
    actor: string,
    users: number,
    images: number,
  ) {
    await tx.query(
      'insert into tenant_admin_actions (tenant, action, actor, users, images) values ($1, $2, $3, $4, $5)',
      [tenant, action, actor, users, images],
    );
  }

  app.delete('/public/users', auth.requireAuth('delete_users_all'), async (c) => {
    await confirmTenant(c);
    const tenant = c.get('tenant');
    return db.transaction(async (tx) => {
      const images = await tx.query<{ count: number }>(
        'select count(*)::int as count from user_evidences where tenant = $1',
        [tenant],
      );
      const { rows } = await tx.query<{ account_id: string | null }>(
        'delete from users where tenant = $1 returning account_id',
        [tenant],
      );
      await unenrol(tx, tenant, rows, false);
      const result = { users: rows.length, images: images.rows[0]?.count ?? 0 };
      await record(tx, tenant, 'delete_users', c.get('auth').sub, result.users, result.images);
      return c.json<BulkResult>(result);
    });
  });

  app.put('/public/users/deleteAllData', auth.requireAuth('delete_users_all'), async (c) => {
    await confirmTenant(c);
    const tenant = c.get('tenant');
    const result = await db.transaction(async (tx) => {
      const images = await evidenceCount(tx, tenant);
      const { rows } = await tx.query<{ account_id: string | null }>(
        'delete from users where tenant = $1 returning account_id',
        [tenant],
      );
      // Onboardings carry the personal data typed or read in them; portrayals and their images go with them.
      await tx.query('delete from portrayals where tenant = $1', [tenant]);
      await tx.query('delete from onboardings where tenant = $1', [tenant]);
      await tx.query('delete from challenges where tenant = $1', [tenant]);
      // The results of "add users from photos" name each imported person by email.
      await tx.query('delete from bulk_imports where tenant = $1', [tenant]);
      // The access audit keeps each decision (when, where, granted or not, why) but not who it was about.
      await tx.query(
        `update audit_accesses set user_id = null, sid = null, first_name = null, last_name = null,
           birth_date = null, document_number = null, id_number = null, registration_date = null
          where tenant = $1 and (user_id is not null or sid is not null or first_name is not null
            or last_name is not null or birth_date is not null or document_number is not null
            or id_number is not null or registration_date is not null)`,
        [tenant],
      );
      await unenrol(tx, tenant, rows, true);
      const result = { users: rows.length, images };
      await record(tx, tenant, 'delete_all_data', c.get('auth').sub, result.users, result.images);
      return result;
    });
    await reclaim(db, deps.logger);
    return c.json<BulkResult>(result);
  });

  app.put(
    '/public/accounts/:id/onboarding',
    auth.requireAuth('post_onboardings_assisted', 'can_view_complete_onboardings'),
    async (c) => {
      const id = c.req.param('id');
      await readBody(c, completeOnboardingBody);
      if (!isUuid(id)) throw new HttpProblem(404, 'No such account.', 'not_found');
      const tenant = c.get('tenant');
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<{ onboarding_status: string }>(
          'select onboarding_status from accounts where tenant = $1 and id = $2::uuid for update',
          [tenant, id],
        );
        const account = rows[0];
        if (!account) throw new HttpProblem(404, 'No such account.', 'not_found');
        if (account.onboarding_status !== 'incompleted') {
          throw new HttpProblem(409, 'This onboarding is not pending.', 'onboarding_not_pending');
        }
        await tx.query(
          "update accounts set onboarding_status = 'completed' where tenant = $1 and id = $2::uuid",
          [tenant, id],
        );
        await tx.query(
          "update users set onboarding_state = 'completed' where tenant = $1 and account_id = $2",
          [tenant, id],
        );
        return c.json({ id, onboarding_status: 'completed' });
      });
    },
  );

  return app;
}

/** The accounts whose user records went are no longer enrolled; with all data, their personal fields go too. */
/** The tables whose deleted rows held images or personal data (deleteAllData). */
const RECLAIMED_TABLES = [
  'user_evidences',
  'portrayal_images',
  'portrayals',
  'onboardings',
  'users',
  'bulk_import_rows',
  'audit_accesses',
] as const;

/**
 * A deleted row stays in the table's files until the table is rewritten: VACUUM FULL writes each table anew
 * without the deleted rows (and drops the old files), so the deleted images and personal data leave the disk,
 * not only the query results. It locks each table for the time of its rewrite (all tenants; a rare admin action).
 * Not in the transaction (VACUUM cannot run in one); a failure is logged, the deletion itself has committed.
 */
async function reclaim(db: Queryable, logger: AppDeps['logger']) {
  for (const table of RECLAIMED_TABLES) {
    try {
      await db.query(`vacuum full ${table}`);
    } catch (error) {
      logger.log('warn', 'could not rewrite a table after deleting all data', {
        table,
        error: String(error),
      });
    }
  }
}

async function unenrol(
  tx: Queryable,
  tenant: string,
  rows: { account_id: string | null }[],
  personal: boolean,
) {
  const ids = rows.map((row) => row.account_id).filter((id): id is string => id !== null);
  if (ids.length === 0) return;
  await tx.query(
    `update accounts set enrolled = false, acs_id = null, onboarding_status = 'none'
       ${personal ? ', first_name = null, last_name = null' : ''}
      where tenant = $1 and id::text = any($2::text[])`,
    [tenant, ids],
  );
}
