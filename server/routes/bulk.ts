// Add users from photos (bulk import; spec §5 1000 elements per file, metadata not valid JSON or CSV, media not a
// valid or a corrupt zip, id already exists, email already in use; §8 user registration codes):
//   POST /public/singles/bulk         post_singles: multipart `metadata` (JSON or CSV) + `media` (zip of pictures),
//                                     read as it streams with its limits (bulk-upload.ts); 202 { job_id, total }
//   GET  /public/singles/bulk/{jobId} post_singles: { status, total, done, accepted, rejected, rows } — the job's
//                                     progress and every row's result so far; only for who started it (else 404)
// Each row is checked (contract/domain/bulk.ts checkRows, the browser's own rules), its picture like every incoming image
// (onboarding/image-checks.ts: decoded, pixel limit; the row is rejected with image_unreadable or
// image_too_many_pixels), and registered like one single
// registration in image mode (createSingle, routes/singles.ts) in its own transaction: a row that fails leaves no
// account, user, evidence or credential. Rows are registered one after another after the answer; the portal polls.

import { Hono } from 'hono';
import type { BulkJob, BulkJobAccepted } from '../../contract/api/bulk';
import {
  type BulkRow,
  type BulkRowResult,
  checkRows,
  metadataKindOf,
  parseMetadata,
  type RowProblem,
} from '../../contract/domain/bulk';
import { registrationCodeOf } from '../../contract/domain/singles';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import { HttpProblem } from '../http/problem';
import { DetailedProblem, isUuid } from '../http/validation';
import type { ImageChecks } from '../onboarding/image-checks';
import { qrPng } from '../qr';
import { BULK_LIMITS, type BulkLimits, type BulkUpload, readBulkUpload } from './bulk-upload';
import { createSingle, localImageChecks, normalAcsId, Rejection, settingsOf } from './singles';

export interface BulkOptions {
  now?: () => Date;
  /** Test seam: makes the QR fail to be produced (qr_generation_failed). */
  qr?: (payload: string) => Promise<Uint8Array>;
  limits?: BulkLimits;
  /** The image checks of the enrolment (the app shares its own); the basic engine's in this thread without. */
  images?: ImageChecks;
}

/** No row takes this long: a running job that has not moved for longer has lost the process that ran it. */
const STALE_AFTER_SECONDS = 120;

interface JobRow {
  job_id: string;
  status: 'running' | 'done' | 'failed';
  total: number;
}

const rejected = (row: BulkRow, reason: string, field: string | null): BulkRowResult => ({
  row: row.row,
  email: row.email,
  outcome: 'rejected',
  reason,
  field,
  code: registrationCodeOf(reason),
  user_id: null,
});

export function bulkRoutes(deps: AppDeps, auth: ApiAuth, options: BulkOptions = {}): Hono<AuthEnv> {
  const { db, logger } = deps;
  const now = options.now ?? (() => new Date());
  const makeQr = options.qr ?? ((payload: string) => qrPng(payload));
  const limits = options.limits ?? BULK_LIMITS;
  const settings = settingsOf(deps.config.publicDir);
  const images = options.images ?? localImageChecks;
  const app = new Hono<AuthEnv>();

  async function registerRow(
    tenant: string,
    staff: string,
    row: BulkRow,
    problem: RowProblem | undefined,
    upload: BulkUpload,
    acsIdSchema: 'string64' | 'wiegand',
    legalDomains: readonly string[],
  ): Promise<BulkRowResult> {
    if (problem) return rejected(row, problem.code, problem.field);
    // A picture whose bytes are not what the zip says (CRC-32, size): the row is refused before anything is written.
    if (upload.damaged.has(row.image)) return rejected(row, 'image_corrupt', 'image');
    const bytes = upload.pictures.get(row.image);
    if (!bytes) return rejected(row, 'image_not_found', 'image');
    const check = await images.check(bytes, 'delegated');
    if (!check.ok) {
      // Spec §8: a picture that cannot be processed (not a jpg or png) is embedding_generation_failed, code 1.
      if (check.code === 'image_wrong_type') return rejected(row, 'embedding_generation_failed', 'image');
      return rejected(row, check.code, 'image');
    }
    const type = `image/${check.header.format}` as const;
    try {
      const created = await db.transaction((tx) =>
        createSingle(tx, {
          tenant,
          staff,
          stamp: now(),
          body: {
            mode: 'image',
            username: row.username || null,
            first_name: row.first_name,
            last_name: row.last_name,
          },
          email: row.email,
          acsId: normalAcsId(acsIdSchema, row.acs_id),
          acsIdSchema,
          legalDomains,
          image: { bytes, type },
          origin: undefined,
          makeQr,
        }),
      );
      return {
        row: row.row,
        email: row.email,
        outcome: 'accepted',
        reason: null,
        field: null,
        code: 0,
        user_id: created.userId,
      };
    } catch (error) {
      if (error instanceof Rejection)
        return rejected(row, error.reason, error.reason === 'acs_id_already_in_use' ? 'acs_id' : null);
      if (error instanceof HttpProblem && error.problem.code === 'email_already_in_use')
        return rejected(row, 'email_already_in_use', 'email');
      if (error instanceof HttpProblem && error.problem.code === 'username_already_in_use')
        return rejected(row, 'username_already_in_use', 'username');
      if (error instanceof HttpProblem && error.problem.code === 'document_already_exists')
        return rejected(row, 'document_already_exists', null);
      logger.log('error', 'bulk import row failed', {
        tenant,
        row: row.row,
        err: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      return rejected(row, 'unknown', null);
    }
  }

  async function run(
    tenant: string,
    staff: string,
    jobId: string,
    rows: BulkRow[],
    upload: BulkUpload,
    acsIdSchema: 'string64' | 'wiegand',
    legalDomains: readonly string[],
  ) {
    const listing = new Map<string, number>();
    for (const [name, bytes] of upload.pictures) listing.set(name, bytes.length);
    for (const [name, size] of upload.oversized) listing.set(name, size);
    for (const [name, size] of upload.damaged) listing.set(name, size);
    const problems = checkRows(rows, { acsIdSchema, pictures: listing });
    for (const row of rows) {
      const result = await registerRow(
        tenant,
        staff,
        row,
        problems.find((p) => p.row === row.row),
        upload,
        acsIdSchema,
        legalDomains,
      );
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
    await db.query(
      `update bulk_imports set status = 'done', finished_at = now() where tenant = $1 and job_id = $2`,
      [tenant, jobId],
    );
  }

  app.post('/public/singles/bulk', auth.requireAuth('post_singles'), async (c) => {
    const tenant = c.get('tenant');
    const claims = c.get('auth');
    const upload = await readBulkUpload(c.req.raw, limits);
    if (!upload.metadata)
      throw new DetailedProblem(422, 'The metadata file is missing.', 'metadata_invalid', {
        errors: [{ field: 'metadata', code: 'required' }],
      });
    if (!upload.media || upload.corrupt)
      throw new DetailedProblem(422, 'The media is not a valid zip, or it is damaged.', 'media_corrupt', {
        errors: [{ field: 'media', code: 'media_corrupt' }],
      });
    const { name, text } = upload.metadata;
    const parsed = parseMetadata(text, metadataKindOf(name, text));
    if (!parsed.ok) {
      const { code, ...details } = parsed.problem;
      throw new DetailedProblem(
        422,
        code === 'too_many_elements'
          ? 'The metadata lists more than 1000 elements.'
          : 'The metadata is not valid JSON or CSV.',
        code === 'too_many_elements' ? code : 'metadata_invalid',
        { reason: code, ...details },
      );
    }
    const { acsIdSchema, legalDomains } = await settings(tenant);
    const { rows } = await db.query<{ job_id: string }>(
      `insert into bulk_imports (tenant, created_by, total) values ($1, $2, $3) returning job_id::text as job_id`,
      [tenant, claims.sub, parsed.rows.length],
    );
    const jobId = rows[0]?.job_id as string;
    // After the answer: the portal follows the job with GET /public/singles/bulk/{jobId}. Stopping the server
    // waits for it (deps.background).
    const imported = run(tenant, claims.sub, jobId, parsed.rows, upload, acsIdSchema, legalDomains).catch(
      async (error) => {
        logger.log('error', 'bulk import failed', {
          tenant,
          jobId,
          err: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
        await db
          .query(
            `update bulk_imports set status = 'failed', finished_at = now() where tenant = $1 and job_id = $2`,
            [tenant, jobId],
          )
          .catch(() => {});
      },
    );
    deps.background?.track(imported);
    return c.json<BulkJobAccepted>({ job_id: jobId, total: parsed.rows.length }, 202);
  });

  app.get('/public/singles/bulk/:jobId', auth.requireAuth('post_singles'), async (c) => {
    const tenant = c.get('tenant');
    const claims = c.get('auth');
    const jobId = c.req.param('jobId');
    const notFound = new HttpProblem(404, 'No such import.', 'not_found');
    if (!isUuid(jobId)) throw notFound;
    const job = await db.query<JobRow>(
      // A running job that has not moved for STALE_AFTER_SECONDS lost its process (a restart, a crash): failed.
      `select job_id::text as job_id, total,
              case when status = 'running' and updated_at < now() - make_interval(secs => $4) then 'failed'
                   else status end as status
         from bulk_imports where tenant = $1 and job_id = $2 and created_by = $3`,
      [tenant, jobId, claims.sub, STALE_AFTER_SECONDS],
    );
    const head = job.rows[0];
    if (!head) throw notFound;
    const results = await db.query<{
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
    const list = results.rows.map((r) => ({
      row: r.row_number,
      email: r.email,
      outcome: r.outcome,
      reason: r.reason,
      field: r.field,
      code: r.code as 0 | 1 | 2 | 3,
      user_id: r.user_id,
    }));
    return c.json<BulkJob>({
      job_id: head.job_id,
      status: head.status,
      total: head.total,
      done: list.length,
      accepted: list.filter((r) => r.outcome === 'accepted').length,
      rejected: list.filter((r) => r.outcome === 'rejected').length,
      rows: list,
    });
  });

  return app;
}
