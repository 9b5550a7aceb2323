// The SQL of the bulk import's jobs: the job, each row's result as it is registered, and the job's end. Every
// statement names the tenant.
import type { BulkRowResult } from '../../contract/domain/bulk';
import type { Queryable } from '../db/db';

export interface JobRow {
  job_id: string;
  status: 'running' | 'done' | 'failed';
  total: number;
}

/** A new running job of `total` rows; its id. */
export async function createJob(db: Queryable, tenant: string, createdBy: string, total: number) {
  const { rows } = await db.query<{ job_id: string }>(
    `insert into bulk_imports (tenant, created_by, total) values ($1, $2, $3) returning job_id::text as job_id`,
    [tenant, createdBy, total],
  );
  return rows[0]?.job_id as string;
}

/** One row's result, and the job marked as moving (updated_at). */
export async function recordRowResult(db: Queryable, tenant: string, jobId: string, result: BulkRowResult) {
  await db.query(
    `insert into bulk_import_rows (tenant, job_id, row_number, email, outcome, reason, field, code, user_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      tenant,
      jobId,
      result.row,
      result.email.slice(0, 320),
      result.outcome,
      result.reason,
      result.field ?? null,
      result.code,
      result.user_id ?? null,
    ],
  );
  await db.query('update bulk_imports set updated_at = now() where tenant = $1 and job_id = $2', [
    tenant,
    jobId,
  ]);
}

export async function finishJob(db: Queryable, tenant: string, jobId: string, status: 'done' | 'failed') {
  await db.query(
    `update bulk_imports set status = $3, finished_at = now() where tenant = $1 and job_id = $2`,
    [tenant, jobId, status],
  );
}

/**
 * The job, when `createdBy` started it. A running job that has not moved for `staleAfterSeconds` lost its process
 * (a restart, a crash): failed.
 */
export async function jobOf(
  db: Queryable,
  tenant: string,
  jobId: string,
  createdBy: string,
  staleAfterSeconds: number,
) {
  const { rows } = await db.query<JobRow>(
    `select job_id::text as job_id, total,
            case when status = 'running' and updated_at < now() - make_interval(secs => $4) then 'failed'
                 else status end as status
       from bulk_imports where tenant = $1 and job_id = $2 and created_by = $3`,
    [tenant, jobId, createdBy, staleAfterSeconds],
  );
  return rows[0];
}

/** Every row's result so far, in row order. */
export async function rowResultsOf(db: Queryable, tenant: string, jobId: string): Promise<BulkRowResult[]> {
  const { rows } = await db.query<{
    row_number: number;
    email: string;
    outcome: 'accepted' | 'rejected';
    reason: string | null;
    field: string | null;
    code: number;
    user_id: string | null;
  }>(
    `select row_number, email, outcome, reason, field, code, user_id from bulk_import_rows
      where tenant = $1 and job_id = $2 order by row_number`,
    [tenant, jobId],
  );
  return rows.map((r) => ({
    row: r.row_number,
    email: r.email,
    outcome: r.outcome,
    reason: r.reason,
    field: r.field,
    code: r.code as 0 | 1 | 2 | 3,
    user_id: r.user_id,
  }));
}
