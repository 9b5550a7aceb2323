// Onboarding and portrayal API of the reference backend (spec §7 Onboarding, Portrayals, challenges,
// POST /user-code/generate), mounted under /api after the tenant middleware. Every query names the tenant;
// a person only reaches the onboardings and portrayals they own or assist, anything else is a 404.
import { randomInt, randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Permission } from '../../src/api/contract/permissions';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import type { Queryable } from '../db/db';
import { HttpProblem } from '../problem';
import { qrDataUrl } from '../qr';
import {
  type BiometricEngine,
  type EngineImage,
  type ImageKind,
  loadEngine,
  type Verification,
} from './engine';
import { IMAGE_MAX_BYTES, type ImageRefusalCode } from './images';
import {
  ADULT_AGE,
  ageOn,
  type EnforcementSource,
  EnforcementUnavailableError,
  type Faults,
  isExpired,
  isoDay,
  type RegistrationReason,
  referenceEnforcement,
} from './outcome';
import {
  identityProofing,
  normaliseDocumentCountry,
  type OnboardingSettings,
  settingsLoader,
  supportedDocs,
} from './settings';
import { generateUserCode, normaliseUserCode, USER_CODE_TTL_MS } from './user-codes';
import {
  challengeBody,
  createOnboardingBody,
  createPortrayalBody,
  DetailedProblem,
  faultBody,
  isUuid,
  type RegistrationPayload,
  readBody,
  registrationPayload,
  userCodeGenerateBody,
  userCodeRedeemBody,
  validationProblem,
} from './validation';

/** The auth the onboarding routes need (server/auth/verify.ts in the server, a fake in tests). */
export type OnboardingAuth = ApiAuth;

export interface OnboardingOptions {
  engine?: BiometricEngine | Promise<BiometricEngine>;
  /** Milliseconds between the last upload and the result being available (env PORTRAYAL_RESULT_DELAY_MS). */
  resultDelayMs?: number;
  now?: () => Date;
  faults?: Faults;
  enforcement?: EnforcementSource;
  /** Whether onboardings of a tenant require a liveness proof (default: settings.json lifeProofing, else false). */
  lifeProofing?: (tenant: string, settings: OnboardingSettings) => boolean;
  settings?: (tenant: string) => Promise<OnboardingSettings>;
  /** Dev endpoints (fault switches) are not mounted in production. */
  production?: boolean;
  userCodeTtlMs?: number;
  /** QR credential lifetime (spec §9: 15 days). */
  qrValidityMs?: number;
}

export const QR_VALIDITY_MS = 15 * 24 * 60 * 60 * 1000;
const DEFAULT_RESULT_DELAY_MS = 1500;
const LIFEPROOF_MAX_BYTES = 25 * 1024 * 1024;
const ONBOARDING_PERMISSIONS: Permission[] = ['post_onboardings_auto', 'post_onboardings_assisted'];
const CHALLENGE_ACTIONS = ['turn_left', 'turn_right', 'blink', 'smile', 'look_up', 'look_down'] as const;

/**
 * Options from the environment: BIOMETRIC_ENGINE, PORTRAYAL_RESULT_DELAY_MS, ENFORCEMENT_FAULT,
 * LIFE_PROOFING_TENANTS (comma-separated tenants that require liveness), NODE_ENV.
 */
export function onboardingOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): OnboardingOptions {
  const delay = Number(env.PORTRAYAL_RESULT_DELAY_MS);
  const lifeTenants = new Set(
    (env.LIFE_PROOFING_TENANTS ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  );
  return {
    engine: loadEngine(env),
    resultDelayMs:
      Number.isFinite(delay) && delay >= 0 && env.PORTRAYAL_RESULT_DELAY_MS !== '' ? delay : undefined,
    faults: { enforcement: /^(1|true|on|yes)$/i.test(env.ENFORCEMENT_FAULT ?? '') },
    lifeProofing: (tenant, settings) => lifeTenants.has(tenant) || settings.lifeProofing === true,
    production: env.NODE_ENV === 'production',
  };
}

interface OnboardingRow {
  onboarding_id: string;
  mode: 'auto' | 'assisted';
  account_id: string | null;
  assisted_by: string | null;
  created_by: string;
  register_mode: string;
  location: string | null;
  user_data: Record<string, unknown> | null;
  visit_date: string | null;
  host: string | null;
  identity_proofing: boolean;
  life_proofing: boolean;
  biometric_qr: boolean;
  supported_docs: string[];
  status: string;
  legal_terms_accepted_at: Date | null;
  last_outcome: string | null;
  last_reason: string | null;
  user_id: string | null;
  qr_sid: string | null;
  updated_at: Date;
}

interface PortrayalRow {
  portrayal_id: string;
  onboarding_id: string | null;
  owner_id: string;
  assisted_by: string | null;
  user_id: string | null;
  portrayal_type: 'document' | 'selfie';
  document_type: string | null;
  document_country: string | null;
  life_proofing: boolean;
  liveness_result: Verification | null;
  registration: Record<string, unknown> | null;
  images_version: number;
  images_updated_at: Date | null;
  computed_version: number | null;
  result: Record<string, unknown> | null;
  error_code: string | null;
  error_image: string | null;
  onboarding_status: string | null;
}

interface ImageRow {
  kind: ImageKind;
  seq: number;
  content_type: string;
  bytes: Uint8Array;
  sharpness: number | null;
  blurred: boolean | null;
}

const OCR_FIELDS = [
  'birth_date',
  'expiry_date',
  'document_number',
  'id_number',
  'first_name',
  'last_name',
  'nationality',
  'expedition_country',
] as const;

const notFound = (what: string) => new HttpProblem(404, `No ${what} with that id.`, 'not_found');

const REFUSAL_STATUS: Record<ImageRefusalCode, number> = {
  image_wrong_type: 415,
  image_too_small: 422,
  image_too_large: 413,
  image_too_many_pixels: 422,
  image_unreadable: 422,
};

function imageRefusal(code: ImageRefusalCode, detail: string, field = 'image'): DetailedProblem {
  return new DetailedProblem(REFUSAL_STATUS[code], detail, code, { errors: [{ field, code }] });
}

function tooLarge(maxBytes: number) {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw imageRefusal('image_too_large', `The body is larger than ${maxBytes} bytes.`);
    },
  });
}

export function onboardingRoutes(
  deps: AppDeps,
  auth: OnboardingAuth,
  options: OnboardingOptions = onboardingOptionsFromEnv(),
): Hono<AuthEnv> {
  const db = deps.db;
  const now = options.now ?? (() => new Date());
  const enginePromise = Promise.resolve(options.engine ?? loadEngine());
  enginePromise.catch(() => undefined); // reported by the first call that needs it
  const faults: Faults = options.faults ?? { enforcement: false };
  const enforcement = options.enforcement ?? referenceEnforcement(faults);
  const loadSettings = options.settings ?? settingsLoader(deps.config.publicDir);
  const lifeProofingOf = options.lifeProofing ?? ((_tenant, settings) => settings.lifeProofing === true);
  const resultDelayMs = options.resultDelayMs ?? DEFAULT_RESULT_DELAY_MS;
  const userCodeTtlMs = options.userCodeTtlMs ?? USER_CODE_TTL_MS;
  const qrValidityMs = options.qrValidityMs ?? QR_VALIDITY_MS;
  const onboardingAuth = auth.requireAuth(...ONBOARDING_PERMISSIONS);

  const app = new Hono<AuthEnv>();
  type Ctx = Context<AuthEnv>;
  const who = (c: Ctx) => ({ tenant: c.get('tenant'), sub: c.get('auth').sub });

  // ── loading with ownership ─────────────────────────────────────────────────────────────────────────

  async function loadOnboarding(c: Ctx, id: string, q: Queryable = db): Promise<OnboardingRow> {
    if (!isUuid(id)) throw notFound('onboarding');
    const { tenant, sub } = who(c);
    const { rows } = await q.query<OnboardingRow>(
      `select * from onboardings where tenant = $1 and onboarding_id = $2
          and (created_by = $3 or account_id = $3 or assisted_by = $3)`,
      [tenant, id, sub],
    );
    const row = rows[0];
    if (!row) throw notFound('onboarding');
    return row;
  }

  async function loadPortrayal(c: Ctx, id: string): Promise<PortrayalRow> {
    if (!isUuid(id)) throw notFound('portrayal');
    const { tenant, sub } = who(c);
    const { rows } = await db.query<PortrayalRow>(
      `select p.*, o.status as onboarding_status
         from portrayals p
         left join onboardings o on o.tenant = p.tenant and o.onboarding_id = p.onboarding_id
        where p.tenant = $1 and p.portrayal_id = $2
          and (p.owner_id = $3 or p.assisted_by = $3 or o.created_by = $3 or o.account_id = $3 or o.assisted_by = $3)`,
      [tenant, id, sub],
    );
    const row = rows[0];
    if (!row) throw notFound('portrayal');
    return row;
  }

  async function loadImages(tenant: string, portrayalId: string): Promise<ImageRow[]> {
    const { rows } = await db.query<ImageRow>(
      `select kind, seq, content_type, bytes, sharpness, blurred from portrayal_images
        where tenant = $1 and portrayal_id = $2 order by kind, seq`,
      [tenant, portrayalId],
    );
    return rows;
  }

  const toEngineImage = (row: ImageRow): EngineImage => ({
    kind: row.kind,
    bytes: row.bytes,
    sharpness: { score: row.sharpness, blurred: row.blurred },
  });

  const isImageRow = (row: ImageRow) => row.content_type === 'image/jpeg' || row.content_type === 'image/png';

  /** The selfie, or failing that the first still frame of the liveness proof. */
  function selfieOf(images: ImageRow[]): ImageRow | undefined {
    return (
      images.find((image) => image.kind === 'selfie') ??
      images.find((image) => image.kind === 'lifeproof' && isImageRow(image))
    );
  }

  function requiredImagesIn(portrayal: PortrayalRow, images: ImageRow[]): boolean {
    if (!selfieOf(images)) return false;
    if (portrayal.portrayal_type === 'document' && !images.some((image) => image.kind === 'obverse'))
      return false;
    if (portrayal.life_proofing && portrayal.liveness_result === null) return false;
    return true;
  }

  function assertOpen(status: string | null) {
    if (status === 'completed') {
      throw new HttpProblem(409, 'This onboarding is already completed.', 'onboarding_completed');
    }
  }

  // ── onboardings ────────────────────────────────────────────────────────────────────────────────────

  function onboardingView(row: OnboardingRow, portrayals: PortrayalRow[]) {
    return {
      onboarding_id: row.onboarding_id,
      mode: row.mode,
      life_proofing: row.life_proofing,
      identity_proofing: row.identity_proofing,
      biometric_qr: row.biometric_qr,
      supported_docs: row.supported_docs,
      portrayals: portrayals.map((p) => ({
        portrayal_id: p.portrayal_id,
        portrayal_type: p.portrayal_type,
        document_type: p.document_type,
        document_country: p.document_country,
        onboarding_id: p.onboarding_id,
        user_id: p.user_id,
        ocr_adaptations: Object.fromEntries(
          OCR_FIELDS.map((field) => {
            const ocr = (p.result?.document_info as Record<string, unknown> | undefined)?.[field] ?? null;
            const adapted = p.registration?.[field] ?? null;
            return [
              field,
              { ocr_value: ocr, adapted_value: adapted, adapted: adapted !== null && adapted !== ocr },
            ];
          }),
        ),
      })),
      assisted_by: row.assisted_by,
      visit_date: row.visit_date,
      host: row.host,
    };
  }

  app.post('/internal/onboardings', onboardingAuth, async (c) => {
    const body = await readBody(c, createOnboardingBody);
    const { tenant, sub } = who(c);
    const roles = c.get('auth').roles;
    const needed: Permission = body.mode === 'auto' ? 'post_onboardings_auto' : 'post_onboardings_assisted';
    if (!roles.includes(needed)) {
      throw new HttpProblem(403, `A ${body.mode} onboarding needs the ${needed} permission.`, 'forbidden');
    }
    const userData = body.userData ?? null;
    if (body.mode === 'assisted' && !body.user_id && !userData) {
      throw validationProblem([{ field: 'userData', code: 'required' }]);
    }
    const settings = await loadSettings(tenant);
    const row = {
      identity_proofing: identityProofing(settings),
      life_proofing: lifeProofingOf(tenant, settings),
      biometric_qr: settings.biometricQR,
      supported_docs: supportedDocs(settings, body.mode),
    };
    const stamp = now();
    const { rows } = await db.query<{ onboarding_id: string }>(
      `insert into onboardings (tenant, mode, account_id, assisted_by, created_by, register_mode, location, user_data,
         visit_date, host, identity_proofing, life_proofing, biometric_qr, supported_docs, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)
       returning onboarding_id`,
      [
        tenant,
        body.mode,
        body.mode === 'auto' ? sub : (body.user_id ?? null),
        body.mode === 'assisted' ? sub : null,
        sub,
        body.registerMode ?? body.mode,
        body.location ?? c.get('auth').location ?? null,
        userData === null ? null : JSON.stringify(userData),
        body.visit_date ?? (typeof userData?.visit_date === 'string' ? userData.visit_date : null),
        body.host ?? (typeof userData?.host === 'string' ? userData.host : null),
        row.identity_proofing,
        row.life_proofing,
        row.biometric_qr,
        JSON.stringify(row.supported_docs),
        stamp,
      ],
    );
    return c.json({ onboarding_id: rows[0]?.onboarding_id, ...row }, 201);
  });

  async function portrayalsOf(tenant: string, onboardingId: string): Promise<PortrayalRow[]> {
    const { rows } = await db.query<PortrayalRow>(
      'select * from portrayals where tenant = $1 and onboarding_id = $2 order by created_at, portrayal_id',
      [tenant, onboardingId],
    );
    return rows;
  }

  app.get('/internal/onboardings/:id', onboardingAuth, async (c) => {
    const row = await loadOnboarding(c, c.req.param('id'));
    return c.json(onboardingView(row, await portrayalsOf(c.get('tenant'), row.onboarding_id)));
  });

  // Progress for the desktop while the person continues on a phone (after a user code).
  app.get('/internal/onboardings/:id/status', onboardingAuth, async (c) => {
    const row = await loadOnboarding(c, c.req.param('id'));
    const tenant = c.get('tenant');
    const portrayals = await portrayalsOf(tenant, row.onboarding_id);
    const { rows: images } = await db.query<{ portrayal_id: string; kind: string }>(
      `select distinct portrayal_id, kind from portrayal_images
        where tenant = $1 and portrayal_id = any($2::uuid[]) order by kind`,
      [tenant, portrayals.map((p) => p.portrayal_id)],
    );
    return c.json({
      onboarding_id: row.onboarding_id,
      status: row.status,
      legal_terms_accepted: row.legal_terms_accepted_at !== null,
      portrayals: portrayals.map((p) => ({
        portrayal_id: p.portrayal_id,
        portrayal_type: p.portrayal_type,
        images: images.filter((image) => image.portrayal_id === p.portrayal_id).map((image) => image.kind),
        result:
          p.computed_version === null || p.computed_version !== p.images_version
            ? 'pending'
            : p.error_code
              ? 'error'
              : 'ready',
      })),
      outcome: row.last_outcome,
      reason: row.last_reason,
      user_id: row.user_id,
      qr_sid: row.qr_sid,
      updated_at: row.updated_at.toISOString(),
    });
  });

  app.put('/internal/onboardings/:id/legal_terms', onboardingAuth, async (c) => {
    const row = await loadOnboarding(c, c.req.param('id'));
    assertOpen(row.status);
    const stamp = now();
    await db.query(
      `update onboardings set legal_terms_accepted_at = coalesce(legal_terms_accepted_at, $3),
              status = case when status = 'started' then 'legal_terms_accepted' else status end, updated_at = $3
        where tenant = $1 and onboarding_id = $2`,
      [c.get('tenant'), row.onboarding_id, stamp],
    );
    return c.json({ onboarding_id: row.onboarding_id, legal_terms_accepted: true });
  });

  app.delete('/internal/onboardings/:id', onboardingAuth, async (c) => {
    const row = await loadOnboarding(c, c.req.param('id'));
    await db.query('delete from onboardings where tenant = $1 and onboarding_id = $2', [
      c.get('tenant'),
      row.onboarding_id,
    ]);
    return c.body(null, 204);
  });

  // ── portrayals ─────────────────────────────────────────────────────────────────────────────────────

  app.post('/internal/portrayals', onboardingAuth, async (c) => {
    const body = await readBody(c, createPortrayalBody);
    const { tenant, sub } = who(c);
    let onboarding: OnboardingRow | undefined;
    if (body.onboarding_id) {
      onboarding = await loadOnboarding(c, body.onboarding_id);
      assertOpen(onboarding.status);
      if (!onboarding.legal_terms_accepted_at) {
        throw new HttpProblem(
          409,
          'The legal terms of this onboarding are not accepted yet.',
          'legal_terms_not_accepted',
        );
      }
    } else if (!body.process) {
      throw validationProblem([{ field: 'onboarding_id', code: 'required' }]);
    }
    const documentType = body.document_type ?? null;
    if (body.portrayal_type === 'document') {
      if (!documentType || documentType === 'none') {
        throw validationProblem([{ field: 'document_type', code: 'required' }]);
      }
      if (onboarding && !onboarding.supported_docs.includes(documentType)) {
        throw validationProblem([{ field: 'document_type', code: 'unsupported_document' }]);
      }
      if (!body.document_country && documentType !== 'passport' && documentType !== 'others') {
        throw validationProblem([{ field: 'document_country', code: 'required' }]);
      }
    }
    const lifeProofing = onboarding?.life_proofing ?? false;
    const stamp = now();
    const { rows } = await db.query<{ portrayal_id: string }>(
      `insert into portrayals (tenant, onboarding_id, owner_id, assisted_by, user_id, portrayal_type, document_type,
         document_country, process, life_proofing, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning portrayal_id`,
      [
        tenant,
        onboarding?.onboarding_id ?? null,
        sub,
        onboarding?.assisted_by ?? null,
        body.user_id ?? onboarding?.account_id ?? sub,
        body.portrayal_type,
        documentType,
        normaliseDocumentCountry(documentType, body.document_country ?? null),
        body.process ?? null,
        lifeProofing,
        stamp,
      ],
    );
    if (onboarding) {
      await db.query(
        `update onboardings set status = 'in_progress', updated_at = $3 where tenant = $1 and onboarding_id = $2`,
        [tenant, onboarding.onboarding_id, stamp],
      );
    }
    return c.json({ portrayal_id: rows[0]?.portrayal_id, life_proofing: lifeProofing }, 201);
  });

  async function storeImage(
    tenant: string,
    portrayal: PortrayalRow,
    kind: ImageKind,
    images: {
      seq: number;
      contentType: string;
      bytes: Uint8Array;
      width: number | null;
      height: number | null;
      sharpness: number | null;
      blurred: boolean | null;
    }[],
    extra?: {
      livenessResult: Verification;
      livenessDetail: string;
      livenessData: unknown;
      challengeId: string | null;
    },
  ) {
    const stamp = now();
    await db.transaction(async (tx) => {
      await tx.query('delete from portrayal_images where tenant = $1 and portrayal_id = $2 and kind = $3', [
        tenant,
        portrayal.portrayal_id,
        kind,
      ]);
      for (const image of images) {
        await tx.query(
          `insert into portrayal_images (tenant, portrayal_id, kind, seq, content_type, format, bytes, width, height,
             sharpness, blurred, created_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
          [
            tenant,
            portrayal.portrayal_id,
            kind,
            image.seq,
            image.contentType,
            image.contentType.split('/')[1] ?? null,
            image.bytes,
            image.width,
            image.height,
            image.sharpness,
            image.blurred,
            stamp,
          ],
        );
      }
      await tx.query(
        `update portrayals set images_version = images_version + 1, images_updated_at = $3,
                liveness_result = coalesce($4, liveness_result), liveness_detail = coalesce($5, liveness_detail),
                liveness_data = coalesce($6::jsonb, liveness_data), challenge_id = coalesce($7, challenge_id)
          where tenant = $1 and portrayal_id = $2`,
        [
          tenant,
          portrayal.portrayal_id,
          stamp,
          extra?.livenessResult ?? null,
          extra?.livenessDetail ?? null,
          extra?.livenessData === undefined ? null : JSON.stringify(extra.livenessData),
          extra?.challengeId ?? null,
        ],
      );
    });
  }

  app.put(
    '/internal/portrayals/:id/:kind{obverse|reverse|selfie}',
    onboardingAuth,
    tooLarge(IMAGE_MAX_BYTES),
    async (c) => {
      const portrayal = await loadPortrayal(c, c.req.param('id'));
      const kind = c.req.param('kind') as ImageKind;
      assertOpen(portrayal.onboarding_status);
      if (kind !== 'selfie' && portrayal.portrayal_type !== 'document') {
        throw new HttpProblem(
          409,
          `A ${portrayal.portrayal_type} portrayal has no ${kind} image.`,
          'image_not_expected',
        );
      }
      const declared = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      if (declared !== 'image/jpeg' && declared !== 'image/png' && declared !== 'image/jpg') {
        throw new DetailedProblem(
          415,
          'Send the image as image/jpeg or image/png.',
          'unsupported_media_type',
          {
            errors: [{ field: 'image', code: 'image_wrong_type' }],
          },
        );
      }
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const engine = await enginePromise;
      const check = await engine.checkImage(bytes);
      if (!check.ok) throw imageRefusal(check.code, check.detail);
      await storeImage(c.get('tenant'), portrayal, kind, [
        {
          seq: 0,
          contentType: `image/${check.header.format}`,
          bytes,
          width: check.header.width,
          height: check.header.height,
          sharpness: check.sharpness.score,
          blurred: check.sharpness.blurred,
        },
      ]);
      return c.json({
        portrayal_id: portrayal.portrayal_id,
        image: kind,
        format: check.header.format,
        width: check.header.width,
        height: check.header.height,
        bytes: bytes.length,
      });
    },
  );

  app.put('/internal/portrayals/:id/lifeproof', onboardingAuth, tooLarge(LIFEPROOF_MAX_BYTES), async (c) => {
    const portrayal = await loadPortrayal(c, c.req.param('id'));
    assertOpen(portrayal.onboarding_status);
    const { tenant, sub } = who(c);
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
      throw new HttpProblem(415, 'Send the liveness proof as multipart/form-data.', 'unsupported_media_type');
    }
    const form = await c.req.parseBody({ all: true });
    const engine = await enginePromise;
    const frames: Parameters<typeof storeImage>[3] = [];
    let videos = 0;
    let livenessData: unknown;
    let challengeId: string | null = null;
    for (const [name, value] of Object.entries(form)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (typeof item === 'string') {
          if (name === 'life_proofing') {
            try {
              livenessData = JSON.parse(item);
            } catch {
              livenessData = item;
            }
          } else if (name === 'challenge' || name === 'challenge_id') {
            challengeId = item;
          }
          continue;
        }
        const bytes = new Uint8Array(await item.arrayBuffer());
        if (isVideo(bytes)) {
          videos++;
          frames.push({
            seq: frames.length,
            contentType: item.type.startsWith('video/') ? item.type : 'video/webm',
            bytes,
            width: null,
            height: null,
            sharpness: null,
            blurred: null,
          });
          continue;
        }
        const check = await engine.checkImage(bytes);
        if (!check.ok) throw imageRefusal(check.code, check.detail, name);
        frames.push({
          seq: frames.length,
          contentType: `image/${check.header.format}`,
          bytes,
          width: check.header.width,
          height: check.header.height,
          sharpness: check.sharpness.score,
          blurred: check.sharpness.blurred,
        });
      }
    }
    if (frames.length === 0) throw validationProblem([{ field: 'frames', code: 'required' }]);
    let challenge: { actions: string[]; expiresAt: Date } | null = null;
    if (challengeId !== null) {
      const { rows } = isUuid(challengeId)
        ? await db.query<{ actions: string[]; expires_at: Date }>(
            'select actions, expires_at from challenges where tenant = $1 and challenge_id = $2 and account_id = $3',
            [tenant, challengeId, sub],
          )
        : { rows: [] };
      const row = rows[0];
      if (!row) throw validationProblem([{ field: 'challenge', code: 'unknown_challenge' }]);
      challenge = { actions: row.actions, expiresAt: row.expires_at };
    }
    const liveness = await engine.checkLiveness({
      frames: frames
        .filter((frame) => frame.contentType.startsWith('image/'))
        .map((frame) => ({
          kind: 'lifeproof',
          bytes: frame.bytes,
          sharpness: { score: frame.sharpness, blurred: frame.blurred },
        })),
      videos,
      challenge,
      submittedAt: now(),
    });
    await storeImage(tenant, portrayal, 'lifeproof', frames, {
      livenessResult: liveness.result,
      livenessDetail: liveness.detail,
      livenessData,
      challengeId: challengeId && isUuid(challengeId) ? challengeId : null,
    });
    return c.json({
      portrayal_id: portrayal.portrayal_id,
      frames: frames.length,
      life_proofing: liveness.result,
    });
  });

  async function computeResult(tenant: string, portrayal: PortrayalRow, images: ImageRow[]) {
    const engine = await enginePromise;
    const byKind = (kind: ImageKind) => {
      const row = images.find((image) => image.kind === kind);
      return row ? toEngineImage(row) : undefined;
    };
    const selfieRow = selfieOf(images);
    let result: Record<string, unknown> | null = null;
    let error: { code: string; image: string | null } | null = null;
    try {
      const obverse = byKind('obverse');
      const reverse = byKind('reverse');
      const analysis =
        portrayal.portrayal_type === 'document'
          ? await engine.analyseDocument({
              documentType: portrayal.document_type,
              documentCountry: portrayal.document_country,
              obverse,
              reverse,
            })
          : null;
      if (analysis && !analysis.ok) {
        error = { code: analysis.error, image: analysis.image ?? null };
      } else if (selfieRow) {
        const faces = await engine.compareFaces({
          selfie: toEngineImage(selfieRow),
          document: [obverse, reverse].filter((image): image is EngineImage => image !== undefined),
        });
        if (!faces.ok) {
          error = { code: faces.error, image: faces.image ?? null };
        } else {
          result = {
            portrayal_id: portrayal.portrayal_id,
            document_info: analysis?.document_info ?? {
              first_name: null,
              last_name: null,
              birth_date: null,
              id_number: null,
              document_number: null,
              expiry_date: null,
              expedition_country: null,
              nationality: null,
              document_type: portrayal.document_type ?? 'others',
            },
            document_validation: analysis?.document_validation ?? 'not_computed',
            score_document_valid: analysis?.score_document_valid ?? null,
            data_validation: analysis?.data_validation ?? 'not_computed',
            score_biometry: faces.score_biometry,
            score_biometry_valid: faces.score_biometry_valid,
            selfie_authenticity_valid: faces.selfie_authenticity_valid,
            life_proofing_result: portrayal.life_proofing ? portrayal.liveness_result : null,
          };
        }
      }
    } catch (failure) {
      deps.logger.log('warn', 'biometric engine failed', {
        portrayal: portrayal.portrayal_id,
        err: failure instanceof Error ? failure.message : String(failure),
      });
      error = { code: 'validas_error', image: null };
      result = null;
    }
    await db.query(
      `update portrayals set result = $3, error_code = $4, error_image = $5, computed_version = $6, computed_at = $7
        where tenant = $1 and portrayal_id = $2 and images_version = $6`,
      [
        tenant,
        portrayal.portrayal_id,
        result === null ? null : JSON.stringify(result),
        error?.code ?? null,
        error?.image ?? null,
        portrayal.images_version,
        now(),
      ],
    );
    return { result, error };
  }

  function resultResponse(
    c: Ctx,
    result: Record<string, unknown> | null,
    error: { code: string; image: string | null } | null,
  ) {
    if (error) {
      throw new DetailedProblem(422, errorDetail(error.code, error.image), error.code, {
        reason: error.code,
        image: error.image,
      });
    }
    return c.json(result);
  }

  app.get('/internal/portrayals/:id', onboardingAuth, async (c) => {
    const portrayal = await loadPortrayal(c, c.req.param('id'));
    const tenant = c.get('tenant');
    if (portrayal.computed_version !== null && portrayal.computed_version === portrayal.images_version) {
      return resultResponse(
        c,
        portrayal.result,
        portrayal.error_code ? { code: portrayal.error_code, image: portrayal.error_image } : null,
      );
    }
    const notReady = () =>
      new HttpProblem(404, 'The result of this portrayal is not computed yet.', 'portrayal_result_not_ready');
    const images = await loadImages(tenant, portrayal.portrayal_id);
    if (!requiredImagesIn(portrayal, images) || !portrayal.images_updated_at) throw notReady();
    if (now().getTime() < portrayal.images_updated_at.getTime() + resultDelayMs) throw notReady();
    const { result, error } = await computeResult(tenant, portrayal, images);
    return resultResponse(c, result, error);
  });

  app.delete('/internal/portrayals/:id', onboardingAuth, async (c) => {
    const portrayal = await loadPortrayal(c, c.req.param('id'));
    await db.query('delete from portrayals where tenant = $1 and portrayal_id = $2', [
      c.get('tenant'),
      portrayal.portrayal_id,
    ]);
    return c.body(null, 204);
  });

  // ── challenges ─────────────────────────────────────────────────────────────────────────────────────

  app.post('/internal/challenges', onboardingAuth, async (c) => {
    const body = await readBody(c, challengeBody);
    const { tenant, sub } = who(c);
    const length = body.length ?? 3;
    const expiration = body.expiration ?? 60;
    const actions: string[] = [];
    while (actions.length < length) {
      const action = CHALLENGE_ACTIONS[randomInt(CHALLENGE_ACTIONS.length)] ?? 'blink';
      if (action !== actions[actions.length - 1]) actions.push(action);
    }
    const expiresAt = new Date(now().getTime() + expiration * 1000);
    const { rows } = await db.query<{ challenge_id: string }>(
      `insert into challenges (tenant, account_id, actions, expires_at, created_at) values ($1, $2, $3, $4, $5)
       returning challenge_id`,
      [tenant, sub, JSON.stringify(actions), expiresAt, now()],
    );
    return c.json(
      { challenge_id: rows[0]?.challenge_id, actions, expiration, expires_at: expiresAt.toISOString() },
      201,
    );
  });

  // ── registration (confirmation) ────────────────────────────────────────────────────────────────────

  const rejected = (reason: RegistrationReason) => ({
    result: { outcome: 'rejected' as const, reason },
    user_id: null,
    qr_sid: null,
  });

  const CONFLICT_DETAIL: Partial<Record<RegistrationReason, string>> = {
    user_already_registered: 'This person is already registered.',
    document_already_exists: 'This document is already in use by another user.',
    enforcement_source_unavailable: 'The prohibited-list service is unavailable; try again later.',
  };

  function conflict(reason: RegistrationReason): DetailedProblem {
    const status = reason === 'enforcement_source_unavailable' ? 503 : 409;
    return new DetailedProblem(status, CONFLICT_DETAIL[reason] ?? reason, reason, {
      reason,
      ...rejected(reason),
    });
  }

  async function recordOutcome(tenant: string, onboardingId: string, outcome: string, reason: string | null) {
    await db.query(
      'update onboardings set last_outcome = $3, last_reason = $4, updated_at = $5 where tenant = $1 and onboarding_id = $2',
      [tenant, onboardingId, outcome, reason, now()],
    );
  }

  app.put('/internal/onboardings/:id/portrayals/:portrayalId', onboardingAuth, async (c) => {
    const onboarding = await loadOnboarding(c, c.req.param('id'));
    const portrayalId = c.req.param('portrayalId');
    const tenant = c.get('tenant');
    const claims = c.get('auth');
    if (!isUuid(portrayalId)) throw notFound('portrayal');
    const { rows: portrayalRows } = await db.query<PortrayalRow>(
      'select *, null as onboarding_status from portrayals where tenant = $1 and portrayal_id = $2 and onboarding_id = $3',
      [tenant, portrayalId, onboarding.onboarding_id],
    );
    const portrayal = portrayalRows[0];
    if (!portrayal) throw notFound('portrayal');
    if (onboarding.status === 'completed') {
      await recordOutcome(tenant, onboarding.onboarding_id, 'rejected', 'user_already_registered');
      throw conflict('user_already_registered');
    }
    if (!onboarding.legal_terms_accepted_at) {
      throw new HttpProblem(
        409,
        'The legal terms of this onboarding are not accepted yet.',
        'legal_terms_not_accepted',
      );
    }
    const payload = await readBody(c, registrationPayload);
    if (portrayal.computed_version === null || portrayal.computed_version !== portrayal.images_version) {
      throw new HttpProblem(409, 'The portrayal result is not computed yet.', 'portrayal_not_ready');
    }
    if (portrayal.error_code) {
      throw new DetailedProblem(
        409,
        'The portrayal was refused; take the pictures again.',
        'portrayal_failed',
        {
          reason: portrayal.error_code,
        },
      );
    }
    const today = isoDay(now());
    if (payload.birth_date > today)
      throw validationProblem([{ field: 'birth_date', code: 'date_in_future' }]);

    const reject = async (reason: RegistrationReason) => {
      await recordOutcome(tenant, onboarding.onboarding_id, 'rejected', reason);
      return c.json(rejected(reason));
    };
    if (ageOn(payload.birth_date, today) < ADULT_AGE) return reject('underaged');
    if (isExpired(payload.expiry_date, today)) return reject('document_expired');
    if (
      onboarding.life_proofing &&
      portrayal.liveness_result !== 'passing' &&
      portrayal.liveness_result !== 'not_computed'
    ) {
      return reject('life_proofing_failed');
    }
    const accountId = onboarding.account_id;
    if (accountId) {
      const { rows } = await db.query('select 1 from users where tenant = $1 and account_id = $2', [
        tenant,
        accountId,
      ]);
      if (rows.length > 0) {
        await recordOutcome(tenant, onboarding.onboarding_id, 'rejected', 'user_already_registered');
        throw conflict('user_already_registered');
      }
    }
    const documentNumber = payload.document_number.toUpperCase();
    const inUse = await db.query('select 1 from users where tenant = $1 and upper(document_number) = $2', [
      tenant,
      documentNumber,
    ]);
    if (inUse.rows.length > 0) {
      await recordOutcome(tenant, onboarding.onboarding_id, 'rejected', 'document_already_exists');
      throw conflict('document_already_exists');
    }
    const userData = onboarding.user_data ?? {};
    const extra = payload.extra_fields ?? {};
    const email =
      nonEmpty(payload.email) ??
      (typeof extra.email === 'string' ? nonEmpty(extra.email) : null) ??
      (onboarding.mode === 'assisted'
        ? typeof userData.email === 'string'
          ? nonEmpty(userData.email)
          : null
        : (claims.email ?? null));
    if (email && !payload.skip_email_check) {
      const { rows } = await db.query(
        'select 1 from users where tenant = $1 and lower(email) = lower($2) and account_id is distinct from $3',
        [tenant, email, accountId],
      );
      if (rows.length > 0) {
        throw new DetailedProblem(409, 'This email is already in use.', 'email_already_in_use', {
          errors: [{ field: 'email', code: 'email_already_in_use' }],
        });
      }
    }
    const acsId = nonEmpty(payload.acs_id) ?? randomUUID().replaceAll('-', '');
    if (nonEmpty(payload.acs_id)) {
      const { rows } = await db.query('select 1 from users where tenant = $1 and acs_id = $2', [
        tenant,
        acsId,
      ]);
      if (rows.length > 0) {
        throw new DetailedProblem(409, 'This access-control id is already in use.', 'acs_id_already_in_use', {
          errors: [{ field: 'acs_id', code: 'acs_id_already_in_use' }],
        });
      }
    }
    const settings = await loadSettings(tenant);
    try {
      const match = await enforcement.check(db, tenant, settings.legalDomains, {
        first_name: payload.first_name,
        last_name: payload.last_name,
        birth_date: payload.birth_date,
        document_number: documentNumber,
        id_number: nonEmpty(payload.id_number),
      });
      if (match) return reject('user_interdicted');
    } catch (failure) {
      if (!(failure instanceof EnforcementUnavailableError)) throw failure;
      await recordOutcome(tenant, onboarding.onboarding_id, 'rejected', 'enforcement_source_unavailable');
      const problem = conflict('enforcement_source_unavailable');
      throw problem;
    }

    const stamp = now();
    let created: { user_id: string; qr_sid: string };
    try {
      created = await db.transaction((tx) =>
        createUser(tx, {
          tenant,
          onboarding,
          portrayal,
          payload,
          documentNumber,
          email,
          acsId,
          accountId,
          username:
            nonEmpty(payload.username) ??
            (onboarding.mode === 'auto' ? claims.preferred_username : undefined) ??
            email,
          today,
          stamp,
        }),
      );
    } catch (failure) {
      const text = failure instanceof Error ? failure.message : String(failure);
      if (text.includes('users_account')) throw conflict('user_already_registered');
      if (text.includes('users_document_number')) throw conflict('document_already_exists');
      throw failure;
    }
    return c.json({
      result: { outcome: 'accepted', reason: null },
      user_id: created.user_id,
      qr_sid: created.qr_sid,
    });
  });

  interface NewUser {
    tenant: string;
    onboarding: OnboardingRow;
    portrayal: PortrayalRow;
    payload: RegistrationPayload;
    documentNumber: string;
    email: string | null;
    acsId: string;
    accountId: string | null;
    username: string | null;
    today: string;
    stamp: Date;
  }

  async function createUser(tx: Queryable, n: NewUser): Promise<{ user_id: string; qr_sid: string }> {
    const { tenant, onboarding, portrayal, payload } = n;
    const liveness: Verification = onboarding.life_proofing
      ? (portrayal.liveness_result ?? 'failing')
      : 'not_computed';
    const documentValidity: Verification = payload.expiry_date ? 'passing' : 'not_computed';
    const { rows } = await tx.query<{ user_id: string }>(
      `insert into users (tenant, account_id, username, first_name, last_name, email, acs_id, id_number, nie, nationality,
         birth_date, expiry_date, document_number, document_type, expedition_country, extra_fields, portrayal_id,
         onboarding_id, host, onboarding_date, active, onboarding_state, register_mode, assisted_by,
         life_proofing_result, identity_proofing_result, ocr_integrity, document_validity, selfie_authenticity, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, true,
         'completed', $21, $22, $23, 'not_computed', 'not_computed', $24, 'not_computed', $20)
       returning user_id`,
      [
        tenant,
        n.accountId,
        n.username,
        payload.first_name.trim(),
        payload.last_name.trim(),
        n.email,
        n.acsId,
        nonEmpty(payload.id_number)?.toUpperCase() ?? null,
        nonEmpty(payload.nie)?.toUpperCase() ?? null,
        nonEmpty(payload.nationality)?.toUpperCase() ?? null,
        payload.birth_date,
        payload.expiry_date ?? null,
        n.documentNumber,
        payload.document_type,
        nonEmpty(payload.expedition_country)?.toUpperCase() ?? null,
        JSON.stringify(payload.extra_fields ?? {}),
        portrayal.portrayal_id,
        onboarding.onboarding_id,
        onboarding.host,
        n.stamp,
        onboarding.mode,
        onboarding.assisted_by,
        liveness,
        documentValidity,
      ],
    );
    const userId = rows[0]?.user_id;
    if (!userId) throw new Error('user insert returned no id');
    // Evidences: the obverse, the reverse and the selfie (or the first still frame of the liveness proof).
    await tx.query(
      `insert into user_evidences (tenant, user_id, kind, content_type, bytes, created_at)
       select tenant, $3, kind, content_type, bytes, $4 from portrayal_images
        where tenant = $1 and portrayal_id = $2 and kind in ('obverse', 'reverse', 'selfie') and seq = 0`,
      [tenant, portrayal.portrayal_id, userId, n.stamp],
    );
    await tx.query(
      `insert into user_evidences (tenant, user_id, kind, content_type, bytes, created_at)
       select tenant, $3, 'selfie', content_type, bytes, $4 from portrayal_images
        where tenant = $1 and portrayal_id = $2 and kind = 'lifeproof' and content_type like 'image/%'
          and not exists (select 1 from user_evidences where tenant = $1 and user_id = $3 and kind = 'selfie')
        order by seq limit 1`,
      [tenant, portrayal.portrayal_id, userId, n.stamp],
    );
    const { rows: credential } = await tx.query<{ sid: string }>(
      `insert into credentials (tenant, user_id, credential_type, state, starts_at, ends_at, created_at)
       values ($1, $2, 'qr', 'active', $3, $4, $3) returning sid`,
      [tenant, userId, n.stamp, new Date(n.stamp.getTime() + qrValidityMs)],
    );
    const sid = credential[0]?.sid;
    if (!sid) throw new Error('credential insert returned no sid');
    const registration = Object.fromEntries(
      OCR_FIELDS.map((field) => [field, (payload as Record<string, unknown>)[field] ?? null]),
    );
    await tx.query('update portrayals set registration = $3 where tenant = $1 and portrayal_id = $2', [
      tenant,
      portrayal.portrayal_id,
      JSON.stringify(registration),
    ]);
    await tx.query(
      `update onboardings set status = 'completed', user_id = $3, qr_sid = $4, last_outcome = 'accepted',
              last_reason = null, updated_at = $5
        where tenant = $1 and onboarding_id = $2`,
      [tenant, onboarding.onboarding_id, userId, sid, n.stamp],
    );
    if (n.accountId) await linkAccount(tx, tenant, n.accountId, n.acsId);
    return { user_id: userId, qr_sid: sid };
  }

  // ── user codes ─────────────────────────────────────────────────────────────────────────────────────

  app.post('/user-code/generate', onboardingAuth, async (c) => {
    const body = await readBody(c, userCodeGenerateBody);
    const { tenant, sub } = who(c);
    let onboardingId = body.onboarding_id ?? null;
    if (!onboardingId) {
      const { rows } = await db.query<{ onboarding_id: string }>(
        `select onboarding_id from onboardings
          where tenant = $1 and (created_by = $2 or account_id = $2 or assisted_by = $2) and status <> 'completed'
          order by created_at desc limit 1`,
        [tenant, sub],
      );
      onboardingId = rows[0]?.onboarding_id ?? null;
      if (!onboardingId)
        throw new HttpProblem(404, 'There is no onboarding in progress to continue.', 'not_found');
    }
    const onboarding = await loadOnboarding(c, onboardingId);
    assertOpen(onboarding.status);
    const stamp = now();
    const expiresAt = new Date(stamp.getTime() + userCodeTtlMs);
    for (let attempt = 0; ; attempt++) {
      const code = generateUserCode();
      const { rows } = await db.query<{ code: string }>(
        `insert into user_codes (tenant, code, account_id, onboarding_id, expires_at, created_at)
         values ($1, $2, $3, $4, $5, $6) on conflict do nothing returning code`,
        [tenant, code, sub, onboarding.onboarding_id, expiresAt, stamp],
      );
      if (rows[0]) {
        // The link that continues this onboarding on a phone, and its QR code for the desktop to show.
        const host = c.req.header('host') ?? '';
        const scheme = new URL(c.req.url).protocol === 'https:' ? 'https' : 'http';
        const path = `/device-detect?code=${encodeURIComponent(code)}`;
        const link = /^[a-z0-9.-]+(:\d{1,5})?$/i.test(host) ? `${scheme}://${host}${path}` : path;
        return c.json(
          {
            code,
            onboarding_id: onboarding.onboarding_id,
            expires_at: expiresAt.toISOString(),
            expires_in: Math.round(userCodeTtlMs / 1000),
            link,
            qr: await qrDataUrl(link),
          },
          201,
        );
      }
      if (attempt > 5) throw new Error('could not draw a free user code');
    }
  });

  app.post('/user-code/redeem', onboardingAuth, async (c) => {
    const body = await readBody(c, userCodeRedeemBody);
    const { tenant, sub } = who(c);
    const code = normaliseUserCode(body.code);
    if (!code) throw validationProblem([{ field: 'code', code: 'wrong_format' }]);
    const unknown = () => new HttpProblem(404, 'This code is not valid.', 'user_code_not_found');
    const { rows } = await db.query<{ onboarding_id: string; expires_at: Date; redeemed_at: Date | null }>(
      `select u.onboarding_id, u.expires_at, u.redeemed_at from user_codes u
         join onboardings o on o.tenant = u.tenant and o.onboarding_id = u.onboarding_id
        where u.tenant = $1 and u.code = $2 and (o.created_by = $3 or o.account_id = $3 or o.assisted_by = $3)`,
      [tenant, code, sub],
    );
    const row = rows[0];
    if (!row) throw unknown();
    const stamp = now();
    if (row.expires_at.getTime() <= stamp.getTime()) {
      throw new HttpProblem(410, 'This code has expired; generate a new one.', 'user_code_expired');
    }
    if (row.redeemed_at) throw new HttpProblem(409, 'This code was already used.', 'user_code_used');
    const updated = await db.query(
      'update user_codes set redeemed_at = $3 where tenant = $1 and code = $2 and redeemed_at is null returning code',
      [tenant, code, stamp],
    );
    if (updated.rows.length === 0)
      throw new HttpProblem(409, 'This code was already used.', 'user_code_used');
    return c.json({ onboarding_id: row.onboarding_id, expires_at: row.expires_at.toISOString() });
  });

  // ── dev fault switches ─────────────────────────────────────────────────────────────────────────────

  if (!options.production) {
    app.get('/dev/faults/enforcement', (c) => c.json({ on: faults.enforcement }));
    app.post('/dev/faults/enforcement', async (c) => {
      const body = await readBody(c, faultBody);
      faults.enforcement = body.on;
      return c.json({ on: faults.enforcement });
    });
  }

  return app;
}

function nonEmpty(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function isVideo(bytes: Uint8Array): boolean {
  const webm = bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3;
  const mp4 = String.fromCharCode(...bytes.subarray(4, 8)) === 'ftyp';
  return webm || mp4;
}

function errorDetail(code: string, image: string | null): string {
  const where = image ? ` (${image})` : '';
  switch (code) {
    case 'blurred_image_error':
      return `The picture is blurred${where}; take it again.`;
    case 'document_classification_error':
      return `The document does not match the selected type${where}.`;
    case 'spoofed_image_error':
      return `The picture does not look genuine${where}.`;
    default:
      return 'The document or selfie could not be analysed.';
  }
}

/** Marks the IAM account enrolled, with its acs_id: its next access token says so (server/auth/accounts.ts). */
export async function linkAccount(
  tx: Queryable,
  tenant: string,
  accountId: string,
  acsId: string,
): Promise<void> {
  await tx.query(
    `update accounts set enrolled = true, acs_id = $3, onboarding_status = 'completed'
      where tenant = $1 and id::text = $2`,
    [tenant, accountId, acsId],
  );
}
