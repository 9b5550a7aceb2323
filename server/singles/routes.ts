// Single registration by staff (spec §4 register type Single; §5; §7 POST /public/singles; §8 singles reasons and
// user registration codes). Permission: post_singles. Two modes: the person's fields plus email, or username,
// acs_id, email and an image (a jpg or png, 5 kB–5 MB, sent as base64), checked like every incoming image
// (onboarding/image-checks.ts: decoded, pixel limit; 422 image_unreadable / image_too_many_pixels on the field,
// as the enrolment's selfie). The email must be free (409
// email_already_in_use on the field); the acs_id must suit the tenant's acsIdSchema (422 wiegand_range /
// wrong_format) and, when taken, the registration is rejected with acs_id_already_in_use (code 2). Everything —
// account, user, evidence, QR credential and mail — is written in one transaction: a rejection leaves nothing.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { type SingleRegistrationResult, singleRegistrationBody } from '../../contract/api/singles';
import { registrationCodeOf } from '../../contract/domain/singles';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import { HttpProblem } from '../http/problem';
import { readBody, validationProblem } from '../http/validation';
import { basicEngine } from '../onboarding/engine';
import { busyResponse, createHeavyWork, personOf } from '../onboarding/heavy-work';
import { type ImageChecks, imageChecks, imageRefusal } from '../onboarding/image-checks';
import { checkBytes } from '../onboarding/images';
import { portalOriginOf } from '../origins';
import { qrPng } from '../qr';
import { noteStaffAction, recordsStaffAction, recordsWithin } from '../staff-actions/routes';
import { qrMailLanguage } from './mail';
import { fieldErrors, normalAcsId, Rejection, SINGLES_MAX_BODY_BYTES } from './rules';
import { settingsOf } from './settings';
import { createSingle, type SingleCreated } from './store';

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
    recordsStaffAction(db, { action: 'user.register' }),
    async (c) => {
      const tenant = c.get('tenant');
      const claims = c.get('auth');
      const body = await readBody(c, singleRegistrationBody);
      const tenantSettings = await settings(tenant);
      const email = body.email.trim();

      // Per-field checks of the mode (spec §5): 422 with { field, code } each.
      const acsRaw = body.acs_id?.trim() ?? '';
      const errors = fieldErrors(body, acsRaw, tenantSettings);
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

      const rejected = (reason: string) => {
        noteStaffAction(c, null);
        return c.json<SingleRegistrationResult>({
          result: { outcome: 'rejected' as const, reason, code: registrationCodeOf(reason) },
        });
      };
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
          outcome = await recordsWithin(c, db, async (tx) => {
            const created = await createSingle(tx, {
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
              mailLanguage: qrMailLanguage(c.req.header('accept-language'), tenantSettings.locales),
              makeQr,
            });
            noteStaffAction(c, { subject: created.userId });
            return created;
          });
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
