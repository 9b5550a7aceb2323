// Single registration by staff (spec §4 register type Single; §5; §7 POST /public/singles; §8 singles reasons and
// user registration codes). Permission: post_singles. Two modes: the person's fields plus email, or username,
// acs_id, email and an image (a jpg or png, 5 kB–5 MB, sent as base64), checked like every incoming image
// (onboarding/image-checks.ts: decoded, pixel limit; 422 image_unreadable / image_too_many_pixels on the field,
// as the enrolment's selfie). The email must be free (409
// email_already_in_use on the field); the acs_id must suit the tenant's acsIdSchema (422 wiegand_range /
// wrong_format) and, when taken, the registration is rejected with acs_id_already_in_use (code 2). Everything —
// account, user, evidence, QR credential and mail — is written in one transaction: a rejection leaves nothing.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  type SingleRegistrationBody,
  type SingleRegistrationResult,
  singleRegistrationBody,
} from '../../contract/api/singles';
import {
  type AcsIdSchema,
  acsIdProblem,
  acsIdSchemaOf,
  DELEGATED_IMAGE_MAX_BYTES,
  qrEmailAllowed,
  registrationCodeOf,
} from '../../contract/domain/singles';
import { isLoginTaken, loginsTaken, loginsTakenProblem } from '../auth/logins';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import { credentialPayload, QR_VALID_MS } from '../credentials/rules';
import type { Queryable } from '../db/db';
import { HttpProblem } from '../http/problem';
import { DetailedProblem, readBody, validationProblem } from '../http/validation';
import { basicEngine } from '../onboarding/engine';
import { busyResponse, createHeavyWork, personOf } from '../onboarding/heavy-work';
import { type ImageChecks, imageChecks, imageRefusal } from '../onboarding/image-checks';
import { checkBytes } from '../onboarding/images';
import { parseOnboardingSettings } from '../onboarding/settings';
import { regionOf } from '../onboarding/store/region';
import { acsIdInUse } from '../onboarding/store/registration';
import { portalOriginOf } from '../origins';
import { qrPng } from '../qr';

/** The largest body: the largest (delegated) image in base64 plus the fields. */
export const SINGLES_MAX_BODY_BYTES = Math.ceil((DELEGATED_IMAGE_MAX_BYTES * 4) / 3) + 16 * 1024;

interface SinglesSettings {
  acsIdSchema: AcsIdSchema;
  biometricQR: boolean;
  /** The tenant's legal domains: the regions a person registers in (onboarding/store/region.ts). */
  legalDomains: string[];
}

export function settingsOf(publicDir: string) {
  const cache = new Map<string, Promise<SinglesSettings>>();
  return (tenant: string) => {
    let entry = cache.get(tenant);
    if (!entry) {
      entry = readFile(join(publicDir, 'tenants', tenant, 'settings.json'), 'utf8')
        .then((raw) => {
          const s = JSON.parse(raw) as { acsIdSchema?: unknown; biometricQR?: unknown };
          return {
            acsIdSchema: acsIdSchemaOf(typeof s.acsIdSchema === 'string' ? s.acsIdSchema : null),
            biometricQR: s.biometricQR === true,
            legalDomains: parseOnboardingSettings(tenant, s).legalDomains,
          };
        })
        .catch(() => ({
          acsIdSchema: 'string64' as const,
          biometricQR: false,
          legalDomains: parseOnboardingSettings(tenant, {}).legalDomains,
        }));
      cache.set(tenant, entry);
    }
    return entry;
  };
}

const emailTaken = () =>
  new DetailedProblem(409, 'That email is already in use.', 'email_already_in_use', {
    errors: [{ field: 'email', code: 'email_already_in_use' }],
  });

export async function emailInUse(q: Queryable, tenant: string, email: string) {
  const accounts = await q.query('select 1 from accounts where tenant = $1 and lower(email) = lower($2)', [
    tenant,
    email,
  ]);
  if (accounts.rows.length > 0) return true;
  const users = await q.query('select 1 from users where tenant = $1 and lower(email) = lower($2)', [
    tenant,
    email,
  ]);
  return users.rows.length > 0;
}

/** Wiegand numbers are stored without leading zeros, so 00042 and 42 are the same card. */
export const normalAcsId = (schema: AcsIdSchema, value: string) =>
  schema === 'wiegand' ? String(Number(value.trim())) : value.trim();

export interface SinglesOptions {
  now?: () => Date;
  /** Test seam: makes the QR fail to be produced (qr_generation_failed). */
  qr?: (payload: string) => Promise<Uint8Array>;
  /** The image checks of the enrolment (the app shares its own); the basic engine's in this thread without. */
  images?: ImageChecks;
}

/** The checks of images for routes mounted without the app's: the basic engine's, in this thread. */
export const localImageChecks = imageChecks(async () => basicEngine, createHeavyWork());

export function singlesRoutes(deps: AppDeps, auth: ApiAuth, options: SinglesOptions = {}): Hono<AuthEnv> {
  const { db } = deps;
  const now = options.now ?? (() => new Date());
  const makeQr = options.qr ?? ((payload: string) => qrPng(payload));
  const settings = settingsOf(deps.config.publicDir);
  const images = options.images ?? localImageChecks;
  const app = new Hono<AuthEnv>();

  app.post(
    '/public/singles',
    bodyLimit({
      maxSize: SINGLES_MAX_BODY_BYTES,
      onError: () => {
        throw new HttpProblem(413, 'The image is too large.', 'image_too_large');
      },
    }),
    auth.requireAuth('post_singles'),
    async (c) => {
      const tenant = c.get('tenant');
      const claims = c.get('auth');
      const body = await readBody(c, singleRegistrationBody);
      const tenantSettings = await settings(tenant);
      const email = body.email.trim();

      // Per-field checks of the mode (spec §5): 422 with { field, code } each.
      const errors: { field: string; code: string }[] = [];
      const acsRaw = body.acs_id?.trim() ?? '';
      if (body.mode === 'fields') {
        for (const field of [
          'first_name',
          'last_name',
          'birth_date',
          'document_type',
          'document_number',
        ] as const) {
          if (!body[field]) errors.push({ field, code: 'required' });
        }
        if (acsRaw !== '') {
          const problem = acsIdProblem(tenantSettings.acsIdSchema, acsRaw);
          if (problem) errors.push({ field: 'acs_id', code: problem });
        }
      } else {
        if (!body.username?.trim()) errors.push({ field: 'username', code: 'required' });
        const problem = acsIdProblem(tenantSettings.acsIdSchema, acsRaw);
        if (problem) errors.push({ field: 'acs_id', code: problem });
      }
      if (body.send_qr_by_email && !qrEmailAllowed(tenantSettings)) {
        errors.push({ field: 'send_qr_by_email', code: 'email_delivery_not_allowed' });
      }
      let image: Buffer | null = null;
      const bounds = body.delegated === true ? 'delegated' : 'registration';
      let wrongType = false;
      if (body.mode === 'image' && body.image) {
        image = Buffer.from(body.image, 'base64');
        // The byte bounds are field errors beside the others; the type is a rejection by reason (below).
        const refused = checkBytes(image, bounds);
        if (refused?.code === 'image_wrong_type') wrongType = true;
        else if (refused) errors.push({ field: 'image', code: refused.code });
      }
      if (errors.length > 0) throw validationProblem(errors);

      const rejected = (reason: string) =>
        c.json<SingleRegistrationResult>({
          result: { outcome: 'rejected' as const, reason, code: registrationCodeOf(reason) },
        });
      // Spec §8: an image-mode registration without a usable face image is refused by reason.
      if (body.mode === 'image' && !image) return rejected('selfie_not_provided');
      if (wrongType) return rejected('embedding_generation_failed');
      // An image is decoded in the heavy-work queue: a place for the staff member first (429 busy past two).
      const place = image ? images.work.admit(personOf(tenant, claims.sub)) : undefined;
      if (place && !place.ok) return busyResponse(place.retryAfter);
      try {
        let imageType: 'image/jpeg' | 'image/png' | null = null;
        if (image) {
          const check = await images.check(image, bounds);
          if (!check.ok) {
            if (check.code === 'image_wrong_type') return rejected('embedding_generation_failed');
            throw imageRefusal(check.code, check.detail);
          }
          imageType = `image/${check.header.format}`;
        }

        const acsId = acsRaw === '' ? null : normalAcsId(tenantSettings.acsIdSchema, acsRaw);
        const stamp = now();
        const origin = body.send_qr_by_email
          ? portalOriginOf(c, tenant, { origins: deps.origins })
          : undefined;

        let outcome: SingleCreated;
        try {
          outcome = await db.transaction((tx) =>
            createSingle(tx, {
              tenant,
              staff: claims.sub,
              stamp,
              body,
              email,
              acsId,
              acsIdSchema: tenantSettings.acsIdSchema,
              legalDomains: tenantSettings.legalDomains,
              image: image && imageType ? { bytes: image, type: imageType } : null,
              origin,
              makeQr,
            }),
          );
        } catch (error) {
          // Thrown inside the transaction, so nothing of this registration is kept.
          if (error instanceof Rejection) return rejected(error.reason);
          throw error;
        }
        return c.json<SingleRegistrationResult>(
          {
            result: {
              outcome: 'accepted' as const,
              reason: null,
              code: 0 as const,
              user_id: outcome.userId,
              qr_sid: outcome.sid,
              qr_emailed: outcome.emailed,
            },
          },
          201,
        );
      } finally {
        if (place?.ok) place.release();
      }
    },
  );

  return app;
}

export interface SingleCreated {
  userId: string;
  sid: string;
  emailed: boolean;
}

/** What one registration writes, checked already (the mode's fields, the acs_id's schema, the image's bounds). */
export interface NewSingle {
  tenant: string;
  /** The staff member's account id (assisted_by). */
  staff: string;
  stamp: Date;
  body: Pick<
    SingleRegistrationBody,
    | 'mode'
    | 'username'
    | 'first_name'
    | 'last_name'
    | 'birth_date'
    | 'document_type'
    | 'document_number'
    | 'id_number'
    | 'send_qr_by_email'
  >;
  email: string;
  /** Normalised; null makes one (a free Wiegand number, or S-xxxxxxxx). */
  acsId: string | null;
  acsIdSchema: AcsIdSchema;
  /** The tenant's legal domains: the person registers in the staff member's region (onboarding/store/region.ts). */
  legalDomains: readonly string[];
  image: { bytes: Buffer; type: 'image/jpeg' | 'image/png' } | null;
  origin: string | undefined;
  makeQr: (payload: string) => Promise<Uint8Array>;
}

/**
 * Writes one registration inside the caller's transaction: account, user, evidence, QR credential and mail. Throws
 * 409 email_already_in_use / username_already_in_use / document_already_exists (DetailedProblem, the first two
 * when the email or username is another account's login: server/auth/logins.ts) or a Rejection (acs_id_already_in_use,
 * qr_generation_failed), so that the caller's transaction keeps nothing of it. The bulk import (routes/bulk.ts)
 * calls it once per row.
 */
export async function createSingle(tx: Queryable, s: NewSingle): Promise<SingleCreated> {
  const { tenant, stamp, body, email, acsId, image } = s;
  if (await emailInUse(tx, tenant, email)) throw emailTaken();
  const username = body.username?.trim() || email;
  const taken = await loginsTaken(tx, tenant, { username, email });
  if (taken.length > 0) throw loginsTakenProblem(taken);
  if (acsId !== null && (await acsIdInUse(tx, tenant, acsId))) throw new Rejection('acs_id_already_in_use');
  const finalAcsId =
    acsId ?? (s.acsIdSchema === 'wiegand' ? await freeWiegand(tx, tenant) : `S-${randomUUID().slice(0, 8)}`);
  let accountId: string | undefined;
  try {
    const account = await tx.query<{ id: string }>(
      `insert into accounts (tenant, username, first_name, last_name, email, roles, enrolled, acs_id, onboarding_status)
       values ($1, $2, $3, $4, $5, array['user'], true, $6, 'completed')
       on conflict do nothing returning id::text as id`,
      [tenant, username, body.first_name?.trim() || null, body.last_name?.trim() || null, email, finalAcsId],
    );
    accountId = account.rows[0]?.id;
  } catch (error) {
    // Another registration took the login since the question; the failed transaction cannot ask which one.
    if (!isLoginTaken(error)) throw error;
    const field = username.toLowerCase() === email.toLowerCase() ? 'email' : 'username';
    throw loginsTakenProblem([{ field, code: `${field}_already_in_use` }]);
  }
  if (!accountId) throw emailTaken();
  const documentNumber =
    body.mode === 'fields' ? (body.document_number as string).toUpperCase() : `SINGLE-${finalAcsId}`;
  const { rows } = await tx.query<{ user_id: string }>(
    `insert into users (tenant, account_id, username, first_name, last_name, email, acs_id, id_number,
       birth_date, document_number, document_type, onboarding_date, active, onboarding_state, register_mode,
       assisted_by, life_proofing_result, identity_proofing_result, ocr_integrity, document_validity,
       selfie_authenticity, created_at, region)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, true, 'completed', 'administrative', $13,
       'not_computed', 'not_computed', 'not_computed', 'not_computed', 'not_computed', $12, $14)
     on conflict do nothing returning user_id::text as user_id`,
    [
      tenant,
      accountId,
      username,
      body.first_name?.trim() || username,
      body.last_name?.trim() || '',
      email,
      finalAcsId,
      body.id_number ? body.id_number.toUpperCase() : null,
      body.birth_date ?? '1900-01-01',
      documentNumber,
      body.mode === 'fields' ? body.document_type : 'others',
      stamp,
      s.staff,
      await regionOf(tx, tenant, { location: null, registeredBy: s.staff }, s.legalDomains),
    ],
  );
  const userId = rows[0]?.user_id;
  // The only unique key left is the document number: another user holds it.
  if (!userId)
    throw new DetailedProblem(409, 'That document number is already registered.', 'document_already_exists', {
      errors: [{ field: 'document_number', code: 'id_already_registered' }],
    });
  if (image) {
    await tx.query(
      `insert into user_evidences (tenant, user_id, kind, content_type, bytes, created_at)
       values ($1, $2, 'selfie', $3, $4, $5)`,
      [tenant, userId, image.type, image.bytes, stamp],
    );
  }
  const sid = randomUUID();
  try {
    await s.makeQr(credentialPayload(tenant, finalAcsId, sid));
  } catch {
    throw new Rejection('qr_generation_failed');
  }
  await tx.query(
    `insert into credentials (tenant, sid, user_id, credential_type, state, starts_at, ends_at, created_at)
     values ($1, $2, $3, 'qr', 'active', $4, $5, $4)`,
    [tenant, sid, userId, stamp, new Date(stamp.getTime() + QR_VALID_MS)],
  );
  let emailed = false;
  if (body.send_qr_by_email) {
    const link = `${s.origin ?? ''}/accreditations`;
    await tx.query(
      'insert into outbox (tenant, recipient, subject, body, link) values ($1, $2, $3, $4, $5)',
      [
        tenant,
        email,
        'Your access QR / Tu QR de acceso',
        `Your access credential is ready. Sign in to see your QR: ${link}`,
        link,
      ],
    );
    emailed = true;
  }
  return { userId, sid, emailed };
}

/** A rejection by reason (spec §8), thrown to undo the transaction. */
export class Rejection extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The lowest Wiegand number 1–65535 no user of the tenant holds. */
async function freeWiegand(q: Queryable, tenant: string): Promise<string> {
  const { rows } = await q.query<{ n: number }>(
    `select n from generate_series(1, 65535) n
      where not exists (select 1 from users where tenant = $1 and acs_id = n::text) order by n limit 1`,
    [tenant],
  );
  const n = rows[0]?.n;
  if (n === undefined) throw new HttpProblem(409, 'No Wiegand number is free.', 'acs_id_already_in_use');
  return String(n);
}
