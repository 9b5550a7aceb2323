// Add users from photos (bulk import; spec §5 1000 elements per file, metadata not valid JSON or CSV, media not a
// valid or a corrupt zip, id already exists, email already in use; §8 user registration codes):
//   POST /public/singles/bulk         post_singles: multipart `metadata` (JSON or CSV) + `media` (zip of pictures),
//                                     read as it streams with its limits (upload.ts); 202 { job_id, total }
//   GET  /public/singles/bulk/{jobId} post_singles: { status, total, done, accepted, rejected, rows } — the job's
//                                     progress and every row's result so far; only for who started it (else 404)
// Each row is checked (contract/domain/bulk.ts checkRows, the browser's own rules), its picture like every incoming image
// (onboarding/image-checks.ts: decoded, pixel limit; the row is rejected with image_unreadable or
// image_too_many_pixels), and registered like one single
// registration in image mode (createSingle, singles/store.ts) in its own transaction: a row that fails leaves no
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
import type { AcsIdSchema } from '../../contract/domain/singles';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import type { Db } from '../db/db';
import { HttpProblem } from '../http/problem';
import { DetailedProblem, isUuid } from '../http/validation';
import type { Logger } from '../logger';
import type { ImageChecks } from '../onboarding/image-checks';
import { qrPng } from '../qr';
import { localImageChecks } from '../singles/routes';
import { normalAcsId, Rejection } from '../singles/rules';
import { settingsOf } from '../singles/settings';
import { createSingle } from '../singles/store';
import { recordsStaffAction } from '../staff-actions/routes';
import { accepted, rejected, STALE_AFTER_SECONDS } from './rules';
import { createJob, finishJob, jobOf, recordRowResult, rowResultsOf } from './store';
import { BULK_LIMITS, type BulkLimits, type BulkUpload, readBulkUpload } from './upload';

export interface BulkOptions {
  now?: () => Date;
  /** Test seam: makes the QR fail to be produced (qr_generation_failed). */
  qr?: (payload: string) => Promise<Uint8Array>;
  limits?: BulkLimits;
  /** The image checks of the enrolment (the app shares its own); the basic engine's in this thread without. */
  images?: ImageChecks;
}

/** What one job works with: the server's parts and the tenant's settings. */
interface JobContext {
  db: Db;
  logger: Logger;
  images: ImageChecks;
  now: () => Date;
  makeQr: (payload: string) => Promise<Uint8Array>;
  tenant: string;
  staff: string;
  acsIdSchema: AcsIdSchema;
  legalDomains: readonly string[];
}

/** A row that createSingle refused, by reason: which reason and field the row is rejected with. */
function refusalOf(row: BulkRow, error: unknown): BulkRowResult | undefined {
  if (error instanceof Rejection)
    return rejected(row, error.reason, error.reason === 'acs_id_already_in_use' ? 'acs_id' : null);
  if (!(error instanceof HttpProblem)) return undefined;
  const code = error.problem.code;
  if (code === 'email_already_in_use') return rejected(row, code, 'email');
  if (code === 'username_already_in_use') return rejected(row, code, 'username');
  if (code === 'document_already_exists') return rejected(row, code, null);
  return undefined;
}

async function registerRow(
  job: JobContext,
  row: BulkRow,
  problem: RowProblem | undefined,
  upload: BulkUpload,
): Promise<BulkRowResult> {
  if (problem) return rejected(row, problem.code, problem.field);
  // A picture whose bytes are not what the zip says (CRC-32, size): the row is refused before anything is written.
  if (upload.damaged.has(row.image)) return rejected(row, 'image_corrupt', 'image');
  const bytes = upload.pictures.get(row.image);
  if (!bytes) return rejected(row, 'image_not_found', 'image');
  const check = await job.images.check(bytes, 'delegated');
  if (!check.ok) {
    // Spec §8: a picture that cannot be processed (not a jpg or png) is embedding_generation_failed, code 1.
    if (check.code === 'image_wrong_type') return rejected(row, 'embedding_generation_failed', 'image');
    return rejected(row, check.code, 'image');
  }
  const type = `image/${check.header.format}` as const;
  try {
    const created = await job.db.transaction((tx) =>
      createSingle(tx, {
        tenant: job.tenant,
        staff: job.staff,
        stamp: job.now(),
        body: {
          mode: 'image',
          username: row.username || null,
          first_name: row.first_name,
          last_name: row.last_name,
        },
        email: row.email,
        acsId: normalAcsId(job.acsIdSchema, row.acs_id),
        acsIdSchema: job.acsIdSchema,
        legalDomains: job.legalDomains,
        image: { bytes, type },
        origin: undefined,
        makeQr: job.makeQr,
      }),
    );
    return accepted(row, created.userId);
  } catch (error) {
    const refused = refusalOf(row, error);
    if (refused) return refused;
    job.logger.log('error', 'bulk import row failed', {
      tenant: job.tenant,
      row: row.row,
      err: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return rejected(row, 'unknown', null);
  }
}

/** Registers the rows one after another, recording each result as it comes, then marks the job done. */
async function run(job: JobContext, jobId: string, rows: BulkRow[], upload: BulkUpload) {
  const listing = new Map<string, number>();
  for (const [name, bytes] of upload.pictures) listing.set(name, bytes.length);
  for (const [name, size] of upload.oversized) listing.set(name, size);
  for (const [name, size] of upload.damaged) listing.set(name, size);
  const problems = checkRows(rows, { acsIdSchema: job.acsIdSchema, pictures: listing });
  for (const row of rows) {
    const problem = problems.find((p) => p.row === row.row);
    await recordRowResult(job.db, job.tenant, jobId, await registerRow(job, row, problem, upload));
  }
  await finishJob(job.db, job.tenant, jobId, 'done');
}

/** The upload's metadata rows; 422 when the metadata or the zip is missing, damaged or not valid. */
function rowsOfUpload(upload: BulkUpload): BulkRow[] {
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
  return parsed.rows;
}

export function bulkRoutes(deps: AppDeps, auth: ApiAuth, options: BulkOptions = {}): Hono<AuthEnv> {
  const { db, logger } = deps;
  const now = options.now ?? (() => new Date());
  const makeQr = options.qr ?? ((payload: string) => qrPng(payload));
  const limits = options.limits ?? BULK_LIMITS;
  const settings = settingsOf(deps.config.publicDir);
  const images = options.images ?? localImageChecks;
  const app = new Hono<AuthEnv>();

  const imports = recordsStaffAction(db, { action: 'users.register_bulk' });
  app.post('/public/singles/bulk', auth.requireAuth('post_singles'), imports, async (c) => {
    const tenant = c.get('tenant');
    const claims = c.get('auth');
    const upload = await readBulkUpload(c.req.raw, limits);
    const rows = rowsOfUpload(upload);
    const { acsIdSchema, legalDomains } = await settings(tenant);
    const jobId = await createJob(db, tenant, claims.sub, rows.length);
    const job: JobContext = {
      db,
      logger,
      images,
      now,
      makeQr,
      tenant,
      staff: claims.sub,
      acsIdSchema,
      legalDomains,
    };
    // After the answer: the portal follows the job with GET /public/singles/bulk/{jobId}. Stopping the server
    // waits for it (deps.background).
    const imported = run(job, jobId, rows, upload).catch(async (error) => {
      logger.log('error', 'bulk import failed', {
        tenant,
        jobId,
        err: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      await finishJob(db, tenant, jobId, 'failed').catch(() => {});
    });
    deps.background?.track(imported);
    return c.json<BulkJobAccepted>({ job_id: jobId, total: rows.length }, 202);
  });

  app.get('/public/singles/bulk/:jobId', auth.requireAuth('post_singles'), async (c) => {
    const tenant = c.get('tenant');
    const jobId = c.req.param('jobId');
    const notFound = new HttpProblem(404, 'No such import.', 'not_found');
    if (!isUuid(jobId)) throw notFound;
    const head = await jobOf(db, tenant, jobId, c.get('auth').sub, STALE_AFTER_SECONDS);
    if (!head) throw notFound;
    const list = await rowResultsOf(db, tenant, jobId);
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
