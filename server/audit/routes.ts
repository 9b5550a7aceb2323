// Doors, the access audit, interdiction checks and watchlists (CheckInterdictions among them). Routes and the
// permission strings each names (spec §6) are in docs/audit.md's audit table. Every query names the tenant; a
// facility of another tenant or outside the caller's scope is a 404.
import { type } from 'arktype';
import { type Context, Hono } from 'hono';
import {
  type AccessDecision,
  AUDIT_PAGE_SIZES,
  type AuditPage,
  accessAttempt,
  auditFilter,
  type InterdictionResponse,
  interdictionRequest,
  type WatchlistStored,
  type WatchlistUploadOutcome,
} from '../../contract/api/audit';
import { WATCHLIST_MAX_BYTES, WATCHLIST_MAX_LINE_CHARS } from '../../contract/domain/watchlist';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import type { Db } from '../db/db';
import { referenceEnforcement } from '../enforcement/source';
import { HttpProblem } from '../http/problem';
import { DetailedProblem, isUuid, readBody, validationProblem } from '../http/validation';
import type { OnboardingOptions } from '../onboarding/options';
import { recordsStaffAction } from '../staff-actions/routes';
import { accessesCsv, decideAccess, facilityInScope, listAccesses } from './accesses';
import { checkInterdiction } from './interdictions';
import { auditSettingsLoader } from './settings';
import { readWatchlistUpload } from './watchlist-upload';
import { currentWatchlists, recordRefusal, replaceWatchlist, uploadOutcome } from './watchlists';

export interface AuditOptions {
  now?: () => Date;
}

/** Multipart overhead allowed on top of the 10 MB file (the domain, the part headers). */
const MULTIPART_SLACK = 64 * 1024;

/** The audit's filter from the query string; 422 naming each parameter that is wrong. */
function readFilter(raw: Record<string, string | undefined>) {
  const filter = auditFilter({
    ...(raw.from ? { from: raw.from } : {}),
    ...(raw.to ? { to: raw.to } : {}),
    ...(raw.facility_id ? { facility_id: raw.facility_id } : {}),
    ...(raw.result ? { result: raw.result } : {}),
  });
  if (filter instanceof type.errors) {
    throw validationProblem(
      filter.map((error) => ({ field: String(error.path[0] ?? 'query'), code: 'wrong_format' })),
    );
  }
  return filter;
}

/** The page asked for: one of AUDIT_PAGE_SIZES, an index from 0; 422 when either is not. */
function pageOf(query: (name: string) => string | undefined) {
  const pageSize = Number(query('pageSize') ?? 25);
  const pageIndex = Number(query('pageIndex') ?? 0);
  if (!(AUDIT_PAGE_SIZES as readonly number[]).includes(pageSize)) {
    throw validationProblem([{ field: 'pageSize', code: 'wrong_format' }]);
  }
  if (!Number.isInteger(pageIndex) || pageIndex < 0 || pageIndex > 100_000) {
    throw validationProblem([{ field: 'pageIndex', code: 'wrong_format' }]);
  }
  return { pageSize, pageIndex };
}

/** What the watchlist upload works with. */
interface UploadContext {
  db: Db;
  now: () => Date;
  settingsOf: ReturnType<typeof auditSettingsLoader>;
}

/** One watchlist upload (multipart domain, watch_type, upload), read and parsed as it streams in. */
async function uploadWatchlist(c: Context<AuthEnv>, { db, now, settingsOf }: UploadContext) {
  const tenant = c.get('tenant');
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw new HttpProblem(415, 'Send the watchlist as multipart/form-data.', 'unsupported_media_type');
  }
  const read = await readWatchlistUpload(
    c.req.raw,
    { fileBytes: WATCHLIST_MAX_BYTES, bodyBytes: WATCHLIST_MAX_BYTES + MULTIPART_SLACK },
    { today: now() },
  );
  const settings = await settingsOf(tenant);
  const domain = read.fields.get('domain');
  const upload = read.file;
  // A refusal is kept (watchlist_upload_refusals) and its id sent, so the result route still says why later.
  const refuse = async (
    status: number,
    detail: string,
    code: string,
    extra: Record<string, unknown> & { invalid?: number; valid?: number },
  ): Promise<never> => {
    const uploadId = await recordRefusal(db, tenant, {
      // What was sent, kept to say why: without a NUL, which PostgreSQL cannot store in text.
      legal_domain: typeof domain === 'string' ? domain.replaceAll('\u0000', '').slice(0, 64) : null,
      file_name: upload ? upload.name : null,
      uploaded_by: c.get('auth').sub,
      code,
      detail,
      ...(extra.invalid !== undefined ? { invalid: extra.invalid } : {}),
      ...(extra.valid !== undefined ? { valid: extra.valid } : {}),
    });
    throw new DetailedProblem(status, detail, code, { ...extra, upload_id: uploadId });
  };
  if (typeof domain !== 'string' || !settings.legalDomains.includes(domain)) {
    return refuse(422, "The legal domain is not one of the tenant's.", 'unknown_domain', {
      errors: [{ field: 'domain', code: 'unknown_domain' }],
    });
  }
  const watchType = read.fields.get('watch_type');
  if (watchType !== undefined && watchType !== 'interdicted') {
    throw validationProblem([{ field: 'watch_type', code: 'wrong_format' }]);
  }
  if (!upload) throw validationProblem([{ field: 'upload', code: 'required' }]);
  if (read.fileTooLarge) {
    return refuse(413, `The file is larger than ${WATCHLIST_MAX_BYTES} bytes.`, 'file_too_large', {});
  }
  const parsed = read.parsed;
  if (read.notUtf8 || !parsed) {
    return refuse(422, 'The file is not UTF-8 text.', 'not_csv', { errors: [] });
  }
  if (!parsed.ok) {
    const detail =
      parsed.problem === 'line_too_long'
        ? `Line ${parsed.line} is longer than ${WATCHLIST_MAX_LINE_CHARS} characters: the file is not a valid watchlist csv.`
        : `The file is not a valid watchlist csv (${parsed.problem}${parsed.line ? ` at line ${parsed.line}` : ''}).`;
    return refuse(422, detail, 'not_csv', {
      errors: [
        {
          field: 'upload',
          code: parsed.problem,
          ...(parsed.line ? { line: parsed.line } : {}),
          ...(parsed.problem === 'line_too_long' ? { max: WATCHLIST_MAX_LINE_CHARS } : {}),
        },
      ],
    });
  }
  if (parsed.invalid > 0) {
    return refuse(422, `${parsed.invalid} rows are not valid; nothing was stored.`, 'invalid_rows', {
      errors: parsed.errors.slice(0, 100).map((error) => ({
        field: `row ${error.row}`,
        code: error.problems.join(' '),
        row: error.row,
      })),
      invalid: parsed.invalid,
      valid: parsed.entries.length,
    });
  }
  const stored = await replaceWatchlist(db, tenant, domain, parsed.entries, {
    uploadedBy: c.get('auth').sub,
    fileName: upload.name,
  });
  return c.json<WatchlistStored>(stored, 201);
}

export function auditRoutes(
  deps: AppDeps,
  auth: ApiAuth,
  onboarding: OnboardingOptions | undefined,
  options: AuditOptions = {},
): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db } = deps;
  const now = options.now ?? onboarding?.now ?? (() => new Date());
  const enforcement =
    onboarding?.enforcement ?? referenceEnforcement(onboarding?.faults ?? { enforcement: false });
  const settingsOf = auditSettingsLoader(deps.config.publicDir);
  const uploads = { db, now, settingsOf, records: recordsStaffAction(db, { action: 'watchlist.upload' }) };

  /** null when the caller sees every facility (post_audit_accesses_all), else their own account id. */
  const scopeOf = (c: Context<AuthEnv>): string | null =>
    c.get('auth').roles.includes('post_audit_accesses_all') ? null : c.get('auth').sub;

  app.post(
    '/internal/accesses',
    auth.requireAuth('post_audit_accesses_all', 'post_accesses_myscope'),
    async (c) => {
      const tenant = c.get('tenant');
      const body = await readBody(c, accessAttempt);
      const facility = await facilityInScope(db, tenant, body.facility_id, scopeOf(c));
      if (!facility) throw new HttpProblem(404, 'No facility with that id.', 'not_found');
      const settings = await settingsOf(tenant);
      const decision = await decideAccess(db, tenant, facility, body.credential, {
        now: now(),
        legalDomains: settings.legalDomains,
        enforcement,
      });
      return c.json<AccessDecision>(decision, 201);
    },
  );

  const AUDITOR = ['post_audit_accesses_all', 'post_accesses_myscope'] as const;

  app.get('/public/audit_accesses', auth.requireAuth(...AUDITOR), async (c) => {
    const tenant = c.get('tenant');
    const filter = readFilter(c.req.query());
    const { pageSize, pageIndex } = pageOf((name) => c.req.query(name));
    const settings = await settingsOf(tenant);
    const page = await listAccesses(
      db,
      tenant,
      { ...filter, scope: scopeOf(c) },
      { pageIndex, pageSize, caller: c.get('auth').sub, level: settings.auditAccessesLevel },
    );
    return c.json<AuditPage>({ ...page, pageIndex, pageSize });
  });

  app.post('/public/audit_accesses', auth.requireAuth(...AUDITOR), async (c) => {
    const tenant = c.get('tenant');
    const filter = await readBody(c, auditFilter);
    const settings = await settingsOf(tenant);
    const stream = accessesCsv(
      db,
      tenant,
      { ...filter, scope: scopeOf(c) },
      c.get('auth').sub,
      settings.auditAccessesLevel,
    );
    return new Response(stream, {
      status: 200,
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="audit-accesses.csv"',
        'cache-control': 'no-store',
      },
    });
  });

  // The interdiction check; POST /enforcements is the same check where the tenant's useWatch sends it.
  for (const path of ['/internal/enforcements', '/enforcements']) {
    app.post(path, auth.requireAuth('post_external_enforcements'), async (c) => {
      const tenant = c.get('tenant');
      const body = await readBody(c, interdictionRequest);
      const settings = await settingsOf(tenant);
      return c.json<InterdictionResponse>(
        await checkInterdiction(db, tenant, body, {
          now: now(),
          legalDomains: settings.legalDomains,
          enforcement,
        }),
      );
    });
  }

  app.get('/public/watchlists', auth.requireAuth('post_watchlists'), async (c) => {
    const tenant = c.get('tenant');
    const settings = await settingsOf(tenant);
    return c.json({ domains: settings.legalDomains, current: await currentWatchlists(db, tenant) });
  });

  // One upload's outcome by id (UploadWatchlistResult after a reload; the enforcement source link of the audit): a
  // stored version (success) or a kept refusal. Auditors read it to see which list refused someone.
  app.get('/public/watchlists/uploads/:id', auth.requireAuth('post_watchlists', ...AUDITOR), async (c) => {
    const id = c.req.param('id');
    const outcome = isUuid(id) ? await uploadOutcome(db, c.get('tenant'), id) : undefined;
    if (!outcome) throw new HttpProblem(404, 'No watchlist upload with that id.', 'upload_not_found');
    return c.json<WatchlistUploadOutcome>(outcome);
  });

  // Upload: multipart domain (one of the tenant's legal domains), watch_type=interdicted (optional), upload (a
  // csv of at most 10 MB), read and parsed as it streams in (audit/watchlist-upload.ts): a larger body is refused
  // while it is read, a row longer than WATCHLIST_MAX_LINE_CHARS at that row. Every row valid or nothing stored.
  for (const path of ['/public/watchlists', '/watchlists']) {
    app.post(path, auth.requireAuth('post_watchlists'), uploads.records, (c) => uploadWatchlist(c, uploads));
  }

  return app;
}
