// The retention purge's SQL (server/retention/job.ts): one batch of each kind of due rows per statement, the
// run's record, the lock that lets one process of a cluster purge, and the evidence deletions staff screens show.
import type { EvidenceKind } from '../../contract/api/users';
import type { Db, Queryable } from '../db/db';
import type { Logger } from '../logger';
import { reclaim } from '../users/store';
import type { RetentionKind } from './rules';

/** A bigint of its own among the advisory locks (migrations hold 7_215_318_001). */
const RETENTION_LOCK = 7_215_318_022;

// PGlite is one process's database: two jobs there can only be in this process, so a set of the databases being
// purged is their lock.
const purging = new WeakSet<Db>();

/**
 * Runs fn unless another process (PostgreSQL) or job (PGlite) is purging this database; then 'busy'. On PostgreSQL
 * the lock is a transaction's (pg_try_advisory_xact_lock) held on one connection of the pool while fn's batches
 * commit one by one on others: a process that dies mid-run lets go of it with its connection.
 */
export async function withPurgeLock<T>(db: Db, fn: () => Promise<T>): Promise<T | 'busy'> {
  if (db.kind !== 'postgres') {
    if (purging.has(db)) return 'busy';
    purging.add(db);
    try {
      return await fn();
    } finally {
      purging.delete(db);
    }
  }
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ got: boolean }>('select pg_try_advisory_xact_lock($1) as got', [
      RETENTION_LOCK,
    ]);
    return rows[0]?.got ? fn() : 'busy';
  });
}

const count = async (db: Queryable, sql: string, params: readonly unknown[]) =>
  (await db.query<{ n: number }>(sql, params)).rows[0]?.n ?? 0;

// Each batch is one statement (atomic on its own) that deletes the due rows by their physical address (ctid): a
// join of the due rows back to their table let the planner pick a hash join over a scan of the whole table once a
// batch was a large share of it (160 ms for 500 of 40,000 liveness frames, against 15 ms for 200 by the index).

/** The tables the purge deletes from by age, each with the column that dates a row and what else makes it due. */
const DUE_IN = {
  user_evidences: { at: 'created_at', also: '' },
  portrayal_images: { at: 'created_at', also: '' },
  onboardings: { at: 'updated_at', also: `and status <> 'completed'` },
  audit_accesses: { at: 'created_at', also: '' },
  staff_actions: { at: 'at', also: '' },
} as const;

/**
 * One batch's delete: up to $3 of the tenant's ($1) rows of `table` dated before $2, the oldest first, by their
 * address; rows another batch holds are skipped, not waited for. `returning` is what the deleted rows hand on.
 */
function deleteDue(table: keyof typeof DUE_IN, returning: string): string {
  const { at, also } = DUE_IN[table];
  return `delete from ${table}
           where ctid = any(array(select ctid from ${table} where tenant = $1 and ${at} < $2 ${also}
                                   order by ${at} limit $3 for update skip locked))
       returning ${returning}`;
}

/** Up to `limit` of the tenant's rows of `table` due before `cutoff`, deleted in one statement; how many went. */
const purgeDue = (db: Queryable, table: keyof typeof DUE_IN, tenant: string, cutoff: Date, limit: number) =>
  count(db, `with gone as (${deleteDue(table, '1')}) select count(*)::int as n from gone`, [
    tenant,
    cutoff,
    limit,
  ]);

/**
 * Up to `limit` of the tenant's user evidence images (a user's selfie, obverse and reverse) taken before `cutoff`,
 * each noted in evidence_deletions with `at` for the staff screens. The user's outcome and scores and the face
 * credential's descriptor are other rows: they stay.
 */
export async function purgeUserEvidence(
  db: Queryable,
  tenant: string,
  cutoff: Date,
  at: Date,
  limit: number,
) {
  return count(
    db,
    `with gone as (${deleteDue('user_evidences', 'user_id, kind')}),
          noted as (insert into evidence_deletions (tenant, user_id, kind, deleted_at, deleted_by)
                    select $1, user_id, kind, $4, 'retention' from gone
                    on conflict (tenant, user_id, kind) do update set deleted_at = excluded.deleted_at,
                       deleted_by = excluded.deleted_by
                    returning 1)
     select count(*)::int as n from noted`,
    [tenant, cutoff, limit, at],
  );
}

/**
 * Up to `limit` of the tenant's portrayal images (liveness frames too) taken before `cutoff`. The portrayal's
 * result and scores are its own row: it stays.
 */
export const purgePortrayalImages = (db: Queryable, tenant: string, cutoff: Date, limit: number) =>
  purgeDue(db, 'portrayal_images', tenant, cutoff, limit);

/** Up to `limit` of the tenant's onboardings never completed and untouched since `cutoff`, with their portrayals. */
export const purgeUnfinishedOnboardings = (db: Queryable, tenant: string, cutoff: Date, limit: number) =>
  purgeDue(db, 'onboardings', tenant, cutoff, limit);

/** Up to `limit` of the tenant's access audit rows older than `cutoff`. */
export const purgeAudit = (db: Queryable, tenant: string, cutoff: Date, limit: number) =>
  purgeDue(db, 'audit_accesses', tenant, cutoff, limit);

/** Up to `limit` of the tenant's records of staff actions older than `cutoff` (retention.auditDays). */
export const purgeStaffActions = (db: Queryable, tenant: string, cutoff: Date, limit: number) =>
  purgeDue(db, 'staff_actions', tenant, cutoff, limit);

export interface RunRecord {
  runId: string;
  tenant: string;
  kind: RetentionKind;
  deleted: number;
  startedAt: Date;
  endedAt: Date;
}

export async function recordRun(db: Queryable, run: RunRecord) {
  await db.query(
    `insert into retention_runs (run_id, tenant, kind, deleted, started_at, ended_at)
     values ($1::uuid, $2, $3, $4, $5, $6)`,
    [run.runId, run.tenant, run.kind, run.deleted, run.startedAt, run.endedAt],
  );
}

/** The tables each kind deletes from (onboardings cascade to portrayals, their images and codes). */
const TABLES_OF: Record<RetentionKind, readonly string[]> = {
  evidence: ['user_evidences', 'portrayal_images'],
  unfinished_onboarding: ['onboardings', 'portrayals', 'portrayal_images', 'user_codes'],
  audit: ['audit_accesses'],
  staff_actions: ['staff_actions'],
};

/**
 * The kinds whose deleted rows may still be in the database files (a run deleted some and its tables were not
 * rewritten since), each with the end of its oldest such run. Across tenants on purpose: the tables are shared, so
 * one rewrite serves every tenant's runs.
 */
export async function pendingRewrites(db: Queryable): Promise<{ kind: RetentionKind; since: Date }[]> {
  const { rows } = await db.query<{ kind: RetentionKind; since: Date }>(
    `select kind, min(ended_at) as since from retention_runs
      where deleted > 0 and rewritten_at is null group by kind order by kind`,
  );
  return rows.filter((row) => row.kind && row.since);
}

/**
 * The images must leave the database files, not only the query results: the tables of the given kinds are
 * rewritten (reclaim, VACUUM FULL, as deleteAllData does), and the runs that waited for it say when. Returns the
 * kinds whose tables were all rewritten; a table that could not be (logged) leaves its kinds waiting for the next try.
 */
export async function rewriteTables(
  db: Queryable,
  kinds: readonly RetentionKind[],
  { at, logger }: { at: Date; logger: Logger },
): Promise<RetentionKind[]> {
  const failed = await reclaim(db, logger, [...new Set(kinds.flatMap((kind) => TABLES_OF[kind]))]);
  const done = kinds.filter((kind) => !TABLES_OF[kind].some((table) => failed.includes(table)));
  if (done.length > 0)
    await db.query(
      `update retention_runs set rewritten_at = $2
        where deleted > 0 and rewritten_at is null and kind = any($1::text[])`,
      [done, at],
    );
  return done;
}

export interface EvidenceDeletion {
  kind: EvidenceKind;
  deleted_at: string;
  deleted_by: 'retention';
}

/** The user's evidence images the retention rule deleted and that no newer image of the same kind replaced. */
export async function evidenceDeletionsOf(db: Queryable, tenant: string, userId: string) {
  const { rows } = await db.query<{ kind: EvidenceKind; deleted_at: Date; deleted_by: 'retention' }>(
    `select d.kind, d.deleted_at, d.deleted_by from evidence_deletions d
      where d.tenant = $1 and d.user_id = $2::uuid
        and not exists (select 1 from user_evidences e
                         where e.tenant = d.tenant and e.user_id = d.user_id and e.kind = d.kind)
      order by d.kind`,
    [tenant, userId],
  );
  return rows.map((row): EvidenceDeletion => ({ ...row, deleted_at: row.deleted_at.toISOString() }));
}
