// Spec §7 Portrayals: POST /internal/portrayals, GET /internal/portrayals/{id} (the result, 404 until it is
// computed), DELETE, and POST /internal/challenges for the liveness proof. The image uploads are in
// ./portrayal-images.ts.
import { randomInt } from 'node:crypto';
import { Hono } from 'hono';
import { challengeBody, createPortrayalBody } from '../../../contract/api/onboarding';
import { normaliseDocumentCountry } from '../../../contract/domain/documents';
import type { AuthEnv } from '../../auth/verify';
import { HttpProblem } from '../../http/problem';
import { readBody, validationProblem } from '../../http/validation';
import { FRONTAL_ACTIONS } from '../engine';
import { computeResultOnce, requiredImagesIn, resultProblem } from '../portrayal-result';
import {
  assertOpen,
  legalTermsNotAccepted,
  type OnboardingRuntime,
  ownerOf,
  ownOnboarding,
  ownPortrayal,
} from '../runtime';
import { markInProgress, type OnboardingRow } from '../store/onboardings';
import { deletePortrayal, imagesOf, insertChallenge, insertPortrayal } from '../store/portrayals';

export function portrayalsRouter(rt: OnboardingRuntime): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db, requireOnboarding } = rt;

  app.post('/internal/portrayals', requireOnboarding, async (c) => {
    const body = await readBody(c, createPortrayalBody);
    const { tenant, sub } = ownerOf(c);
    let onboarding: OnboardingRow | undefined;
    if (body.onboarding_id) {
      onboarding = await ownOnboarding(rt, c, body.onboarding_id);
      assertOpen(onboarding.status);
      if (!onboarding.legal_terms_accepted_at) throw legalTermsNotAccepted();
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
    const stamp = rt.now();
    const portrayalId = await insertPortrayal(db, {
      tenant,
      onboardingId: onboarding?.onboarding_id ?? null,
      ownerId: sub,
      assistedBy: onboarding?.assisted_by ?? null,
      userId: body.user_id ?? onboarding?.account_id ?? sub,
      portrayalType: body.portrayal_type,
      documentType,
      // Spec §5 (passport and others travel as XX); a selfie portrayal names no document.
      documentCountry: documentType
        ? normaliseDocumentCountry(documentType, body.document_country ?? null)
        : (body.document_country?.toUpperCase() ?? null),
      process: body.process ?? null,
      lifeProofing,
      stamp,
    });
    if (onboarding) await markInProgress(db, tenant, onboarding.onboarding_id, stamp);
    return c.json({ portrayal_id: portrayalId, life_proofing: lifeProofing }, 201);
  });

  app.get('/internal/portrayals/:id', requireOnboarding, async (c) => {
    const portrayal = await ownPortrayal(rt, c, c.req.param('id'));
    const tenant = c.get('tenant');
    const notReady = () =>
      new HttpProblem(404, 'The result of this portrayal is not computed yet.', 'portrayal_result_not_ready');
    // The engine may have finished before the configured delay (it starts right after the upload): the
    // result is shown only once the delay after the last upload has passed.
    const updatedAt = portrayal.images_updated_at;
    if (updatedAt && rt.now().getTime() < updatedAt.getTime() + rt.resultDelayMs) throw notReady();
    if (portrayal.computed_version !== null && portrayal.computed_version === portrayal.images_version) {
      if (portrayal.error_code) {
        throw resultProblem({
          code: portrayal.error_code,
          image: portrayal.error_image,
          check: portrayal.error_check,
        });
      }
      return c.json(portrayal.result);
    }
    const images = await imagesOf(db, tenant, portrayal.portrayal_id);
    if (!requiredImagesIn(portrayal, images) || !updatedAt) throw notReady();
    const { result, error } = await computeResultOnce(rt, tenant, portrayal, images);
    if (error) throw resultProblem(error);
    return c.json(result);
  });

  app.delete('/internal/portrayals/:id', requireOnboarding, async (c) => {
    const portrayal = await ownPortrayal(rt, c, c.req.param('id'));
    await deletePortrayal(db, c.get('tenant'), portrayal.portrayal_id);
    return c.body(null, 204);
  });

  app.post('/internal/challenges', requireOnboarding, async (c) => {
    const body = await readBody(c, challengeBody);
    const length = body.length ?? 3;
    const expiration = body.expiration ?? 60;
    const actions: string[] = [];
    // Drawn from LIVENESS_ACTIONS (server/config.ts: at least two, so the loop below ends).
    const drawable = rt.livenessActions;
    // A frontal action first when there is one (FRONTAL_ACTIONS): the proof's first frame faces the camera.
    const frontal = drawable.filter((action) => FRONTAL_ACTIONS.includes(action));
    if (frontal.length > 0) actions.push(frontal[randomInt(frontal.length)] ?? 'blink');
    while (actions.length < length) {
      const action = drawable[randomInt(drawable.length)] ?? 'blink';
      // The same action twice in a row would read as one.
      if (action !== actions[actions.length - 1]) actions.push(action);
    }
    const stamp = rt.now();
    const expiresAt = new Date(stamp.getTime() + expiration * 1000);
    const challengeId = await insertChallenge(db, ownerOf(c), actions, expiresAt, stamp);
    return c.json(
      { challenge_id: challengeId, actions, expiration, expires_at: expiresAt.toISOString() },
      201,
    );
  });

  return app;
}
