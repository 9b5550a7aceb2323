// The enrolled users' SQL: the staff's list and detail, the evidence images, the tenant-wide deletions and the
// completion of a pending onboarding. Every statement names the tenant.
import type { BulkResult, EvidenceKind, UserOrderField } from '../../contract/api/users';
import type { Queryable } from '../db/db';
import type { Logger } from '../logger';

const SUMMARY_COLUMNS = `user_id::text as user_id, username, first_name, last_name, email, acs_id, id_number, active,
  onboarding_state, register_mode, created_at`;
const DETAIL_COLUMNS = `${SUMMARY_COLUMNS}, account_id, nie, nationality, to_char(birth_date, 'YYYY-MM-DD') as birth_date,
  to_char(expiry_date, 'YYYY-MM-DD') as expiry_date, document_number, document_type, expedition_country,
  portrayal_id::text as portrayal_id, onboarding_id::text as onboarding_id, host, onboarding_date, region,
  coalesce((select a.username from accounts a where a.tenant = users.tenant and a.id::text = users.assisted_by),
    assisted_by) as assisted_by,
  life_proofing_result, identity_proofing_result, ocr_integrity, document_validity, selfie_authenticity`;

export interface SummaryRow {
  user_id: string;
  created_at: Date;
  [key: string]: unknown;
}

export interface UserListQuery {
  filter: string;
  /** Normalised (normalIdNumber). */
  idNumber?: string | undefined;
  /** YYYY-MM-DD. */
  birthDate?: string | undefined;
  orderby: UserOrderField;
  sorted: 'asc' | 'desc';
  pageSize: number;
  pageIndex: number;
}

export async function listUsers(
  db: Queryable,
  tenant: string,
  query: UserListQuery,
): Promise<{ rows: SummaryRow[]; totalItems: number }> {
  const params: unknown[] = [tenant];
  const where = ['tenant = $1'];
  if (query.filter !== '') {
    params.push(`%${query.filter.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
    const p = `$${params.length}`;
    where.push(`(lower(first_name || ' ' || last_name) like ${p} or lower(coalesce(email, '')) like ${p}
        or lower(acs_id) like ${p} or lower(coalesce(id_number, '')) like ${p}
        or lower(coalesce(username, '')) like ${p})`);
  }
  if (query.idNumber) {
    params.push(query.idNumber);
    where.push(`upper(coalesce(id_number, nie, '')) = $${params.length}`);
  }
  if (query.birthDate) {
    params.push(query.birthDate);
    where.push(`birth_date = $${params.length}::date`);
  }
  const clause = where.join(' and ');
  const total = await db.query<{ count: number }>(
    `select count(*)::int as count from users where ${clause}`,
    params,
  );
  const { orderby, sorted, pageSize, pageIndex } = query;
  const { rows } = await db.query<SummaryRow>(
    `select ${SUMMARY_COLUMNS} from users where ${clause}
        order by ${orderby} ${sorted} nulls last, user_id limit ${pageSize} offset ${pageSize * pageIndex}`,
    params,
  );
  return { rows, totalItems: total.rows[0]?.count ?? 0 };
}

/** A user's every field and the kinds of evidence kept; undefined when the tenant has no such user. */
export async function findUser(db: Queryable, tenant: string, id: string) {
  const { rows } = await db.query<SummaryRow & { onboarding_date: Date }>(
    `select ${DETAIL_COLUMNS} from users where tenant = $1 and user_id = $2::uuid`,
    [tenant, id],
  );
  const row = rows[0];
  if (!row) return undefined;
  const evidences = await db.query<{ kind: EvidenceKind }>(
    'select kind from user_evidences where tenant = $1 and user_id = $2::uuid order by kind',
    [tenant, id],
  );
  return { row, evidences: evidences.rows.map((e) => e.kind) };
}

export async function evidenceImage(db: Queryable, tenant: string, id: string, kind: EvidenceKind) {
  const { rows } = await db.query<{ content_type: string; bytes: Uint8Array }>(
    'select content_type, bytes from user_evidences where tenant = $1 and user_id = $2::uuid and kind = $3',
    [tenant, id, kind],
  );
  return rows[0];
}

async function record(tx: Queryable, tenant: string, action: string, actor: string, result: BulkResult) {
  await tx.query(
    'insert into tenant_admin_actions (tenant, action, actor, users, images) values ($1, $2, $3, $4, $5)',
    [tenant, action, actor, result.users, result.images],
  );
}

async function evidenceCount(db: Queryable, tenant: string) {
  const { rows } = await db.query<{ count: number }>(
    `select (select count(*) from user_evidences where tenant = $1)
          + (select count(*) from portrayal_images where tenant = $1) as count`,
    [tenant],
  );
  return Number(rows[0]?.count ?? 0);
}

/**
 * Every user record of the tenant (with credentials and evidences); recorded as the actor's. In the caller's
 * transaction, as deleteAllData and completeOnboarding (the action and its record of staff actions commit together).
 */
export async function deleteUsers(tx: Queryable, tenant: string, actor: string): Promise<BulkResult> {
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
  await record(tx, tenant, 'delete_users', actor, result);
  return result;
}

/** deleteUsers, and every onboarding, portrayal and image, and the personal fields kept elsewhere. */
export async function deleteAllData(tx: Queryable, tenant: string, actor: string): Promise<BulkResult> {
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
  await record(tx, tenant, 'delete_all_data', actor, result);
  return result;
}

/** An assistant completes a pending onboarding (incompleted → completed, spec §4). */
export async function completeOnboarding(
  tx: Queryable,
  tenant: string,
  id: string,
): Promise<'completed' | 'not_found' | 'not_pending'> {
  const { rows } = await tx.query<{ onboarding_status: string }>(
    'select onboarding_status from accounts where tenant = $1 and id = $2::uuid for update',
    [tenant, id],
  );
  const account = rows[0];
  if (!account) return 'not_found';
  if (account.onboarding_status !== 'incompleted') return 'not_pending';
  await tx.query("update accounts set onboarding_status = 'completed' where tenant = $1 and id = $2::uuid", [
    tenant,
    id,
  ]);
  await tx.query("update users set onboarding_state = 'completed' where tenant = $1 and account_id = $2", [
    tenant,
    id,
  ]);
  return 'completed';
}

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
 * not only the query results. It locks each table for the time of its rewrite (all tenants): deleteAllData, a rare
 * admin action, rewrites every table it deleted from; the retention purge, those its runs deleted from, at a quiet
 * moment (server/retention/job.ts). Not in a transaction (VACUUM cannot run in one); a failure is logged, the
 * deletion itself has committed. Returns the tables that could not be rewritten.
 */
export async function reclaim(
  db: Queryable,
  logger: Logger,
  tables: readonly string[] = RECLAIMED_TABLES,
): Promise<string[]> {
  const failed: string[] = [];
  for (const table of tables) {
    try {
      await db.query(`vacuum full ${table}`);
    } catch (error) {
      failed.push(table);
      logger.log('warn', 'could not rewrite a table after deleting from it', {
        table,
        error: String(error),
      });
    }
  }
  return failed;
}

/** The accounts whose user records went are no longer enrolled; with all data, their personal fields go too. */
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
