// Prohibited lists per tenant and legal domain (migration 013; spec §3 Watchlist upload, §7): each upload replaces
// the domain's list whole, the previous version kept with current = false. Enrolment (user_interdicted), the
// interdiction check and the doors read the current versions only, so a new version is written beside the current
// one, a few hundred rows a statement, and made current in one short transaction: a list of 10 MB neither holds the
// event loop nor the embedded database (PGlite runs one statement at a time) for the seconds its rows take.
import type { WatchlistEntry } from '../../contract/domain/watchlist';
import type { Db, Queryable } from '../db/db';

export interface StoredWatchlist {
  watchlist_id: string;
  legal_domain: string;
  row_count: number;
  created_at: string;
  file_name?: string | null;
  current?: boolean;
}

/**
 * Rows per insert statement. The embedded database runs a statement on the event loop from start to end: 500 rows
 * (with the entries' indexes) held it 40–60 ms of CPU, and more on a loaded machine; 100 rows hold it about a fifth
 * of that, for a few more statements.
 */
const ROWS_PER_STATEMENT = 100;

/**
 * Stores `entries` as the new current list of the domain: every row or none is ever current. The rows go into a
 * version that is not current yet, a turn of the event loop between statements (other requests' queries run in
 * between); then one transaction makes it the current one. A failure on the way removes the unfinished version.
 */
export async function replaceWatchlist(
  db: Db,
  tenant: string,
  legalDomain: string,
  entries: readonly WatchlistEntry[],
  meta: { uploadedBy: string | null; fileName: string | null },
): Promise<StoredWatchlist> {
  const { rows } = await db.query<{ watchlist_id: string; created_at: Date }>(
    `insert into watchlists (tenant, legal_domain, uploaded_by, file_name, row_count, current)
     values ($1, $2, $3, $4, $5, false) returning watchlist_id::text as watchlist_id, created_at`,
    [tenant, legalDomain, meta.uploadedBy, meta.fileName, entries.length],
  );
  const list = rows[0];
  if (!list) throw new Error('watchlist insert returned nothing');
  try {
    await insertEntries(db, tenant, list.watchlist_id, entries, true);
    await db.transaction(async (tx) => {
      await tx.query(
        'update watchlists set current = false where tenant = $1 and legal_domain = $2 and current',
        [tenant, legalDomain],
      );
      await tx.query('update watchlists set current = true where tenant = $1 and watchlist_id = $2', [
        tenant,
        list.watchlist_id,
      ]);
    });
  } catch (error) {
    // Its entries go with it (on delete cascade).
    await db
      .query('delete from watchlists where tenant = $1 and watchlist_id = $2 and not current', [
        tenant,
        list.watchlist_id,
      ])
      .catch(() => {});
    throw error;
  }
  return {
    watchlist_id: list.watchlist_id,
    legal_domain: legalDomain,
    row_count: entries.length,
    created_at: new Date(list.created_at).toISOString(),
    file_name: meta.fileName,
    current: true,
  };
}

/** Adds entries to the current list of the domain, creating it when there is none (seeding and tests). */
export async function addToWatchlist(
  tx: Queryable,
  tenant: string,
  legalDomain: string,
  entries: readonly WatchlistEntry[],
): Promise<void> {
  let { rows } = await tx.query<{ watchlist_id: string }>(
    'select watchlist_id::text as watchlist_id from watchlists where tenant = $1 and legal_domain = $2 and current',
    [tenant, legalDomain],
  );
  if (rows.length === 0) {
    ({ rows } = await tx.query<{ watchlist_id: string }>(
      `insert into watchlists (tenant, legal_domain, uploaded_by, file_name) values ($1, $2, 'seed', 'prohibited-' || $2 || '.csv')
       returning watchlist_id::text as watchlist_id`,
      [tenant, legalDomain],
    ));
  }
  const id = rows[0]?.watchlist_id;
  if (!id) throw new Error('no watchlist');
  await insertEntries(tx, tenant, id, entries);
  await tx.query(
    `update watchlists set row_count = (select count(*) from watchlist_entries e
       where e.tenant = $1 and e.watchlist_id = $2) where tenant = $1 and watchlist_id = $2`,
    [tenant, id],
  );
}

async function insertEntries(
  q: Queryable,
  tenant: string,
  id: string,
  entries: readonly WatchlistEntry[],
  yieldBetween = false,
) {
  // One statement per ROWS_PER_STATEMENT rows (unnest of arrays): a 10 MB file is a few hundred thousand rows. The
  // embedded database answers with promises only: without a turn given back, the statements would follow one another
  // in one task and hold the event loop for all of them.
  for (let start = 0; start < entries.length; start += ROWS_PER_STATEMENT) {
    if (yieldBetween && start > 0) await new Promise((resolve) => setImmediate(resolve));
    const chunk = entries.slice(start, start + ROWS_PER_STATEMENT);
    await q.query(
      `insert into watchlist_entries (tenant, watchlist_id, id_number, birth_date, document_number, first_name, last_name)
       select $1, $2::uuid, * from unnest($3::text[], $4::date[], $5::text[], $6::text[], $7::text[])`,
      [
        tenant,
        id,
        chunk.map((entry) => entry.id_number),
        chunk.map((entry) => entry.birth_date),
        chunk.map((entry) => entry.document_number),
        chunk.map((entry) => entry.first_name),
        chunk.map((entry) => entry.last_name),
      ],
    );
  }
}

/** The current lists of the tenant's legal domains (the upload screen shows them). */
export async function currentWatchlists(q: Queryable, tenant: string): Promise<StoredWatchlist[]> {
  const { rows } = await q.query<{
    watchlist_id: string;
    legal_domain: string;
    row_count: number;
    created_at: Date;
  }>(
    `select watchlist_id::text as watchlist_id, legal_domain, row_count, created_at from watchlists
      where tenant = $1 and current order by legal_domain`,
    [tenant],
  );
  return rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() }));
}

export interface UploadRefusal {
  legal_domain: string | null;
  file_name: string | null;
  uploaded_by: string | null;
  code: string;
  detail: string;
  invalid?: number;
  valid?: number;
}

/** Keeps a refused upload so that its result route says why after a reload; returns its id. */
export async function recordRefusal(q: Queryable, tenant: string, refusal: UploadRefusal): Promise<string> {
  const { rows } = await q.query<{ upload_id: string }>(
    `insert into watchlist_upload_refusals (tenant, legal_domain, file_name, uploaded_by, code, detail, invalid_count,
        valid_count) values ($1, $2, $3, $4, $5, $6, $7, $8) returning upload_id::text as upload_id`,
    [
      tenant,
      refusal.legal_domain,
      refusal.file_name?.slice(0, 255) ?? null,
      refusal.uploaded_by,
      refusal.code,
      refusal.detail.slice(0, 1000),
      refusal.invalid ?? null,
      refusal.valid ?? null,
    ],
  );
  const id = rows[0]?.upload_id;
  if (!id) throw new Error('refusal insert returned nothing');
  return id;
}

export type UploadOutcome =
  | { success: true; stored: StoredWatchlist & { file_name: string | null; current: boolean } }
  | {
      success: false;
      upload_id: string;
      legal_domain: string | null;
      file_name: string | null;
      code: string;
      detail: string | null;
      invalid: number | null;
      created_at: string;
    };

/** One upload of the tenant by id: a stored watchlist version, or a refusal; undefined when neither (or not a uuid). */
export async function uploadOutcome(
  q: Queryable,
  tenant: string,
  id: string,
): Promise<UploadOutcome | undefined> {
  const stored = await q.query<{
    watchlist_id: string;
    legal_domain: string;
    row_count: number;
    created_at: Date;
    file_name: string | null;
    current: boolean;
  }>(
    `select watchlist_id::text as watchlist_id, legal_domain, row_count, created_at, file_name, current
       from watchlists where tenant = $1 and watchlist_id = $2::uuid`,
    [tenant, id],
  );
  const list = stored.rows[0];
  if (list)
    return { success: true, stored: { ...list, created_at: new Date(list.created_at).toISOString() } };
  const refused = await q.query<{
    upload_id: string;
    legal_domain: string | null;
    file_name: string | null;
    code: string;
    detail: string | null;
    invalid_count: number | null;
    created_at: Date;
  }>(
    `select upload_id::text as upload_id, legal_domain, file_name, code, detail, invalid_count, created_at
       from watchlist_upload_refusals where tenant = $1 and upload_id = $2::uuid`,
    [tenant, id],
  );
  const refusal = refused.rows[0];
  if (!refusal) return undefined;
  return {
    success: false,
    upload_id: refusal.upload_id,
    legal_domain: refusal.legal_domain,
    file_name: refusal.file_name,
    code: refusal.code,
    detail: refusal.detail,
    invalid: refusal.invalid_count,
    created_at: new Date(refusal.created_at).toISOString(),
  };
}
