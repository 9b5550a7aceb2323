// Spec §7 Onboarding: POST /internal/onboardings, GET /internal/onboardings/{id} (and its /status for the
// desktop that follows a phone), PUT …/legal_terms, DELETE.
import { Hono } from 'hono';
import { createOnboardingBody, type LegalTermsAccepted } from '../../../contract/api/onboarding';
import type { Permission } from '../../../contract/api/permissions';
import { OCR_FIELDS } from '../../../contract/domain/registration';
import type { AuthEnv } from '../../auth/verify';
import { HttpProblem } from '../../http/problem';
import { readBody, validationProblem } from '../../http/validation';
import { assertOpen, type OnboardingRuntime, ownerOf, ownOnboarding } from '../runtime';
import { identityProofing, supportedDocs } from '../settings';
import {
  acceptLegalTerms,
  deleteOnboarding,
  insertOnboarding,
  type OnboardingRow,
} from '../store/onboardings';
import { imageKindsOf, type PortrayalRow, portrayalsOf } from '../store/portrayals';
import { existingUser, markReenrolment } from '../store/reenrolment';

/** Spec §3 Onboarding, each portrayal with its ocr_adaptations: what was read beside what was confirmed. */
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

const resultState = (p: PortrayalRow) =>
  p.computed_version === null || p.computed_version !== p.images_version
    ? 'pending'
    : p.error_code
      ? 'error'
      : 'ready';

export function onboardingsRouter(rt: OnboardingRuntime): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db, requireOnboarding } = rt;

  app.post('/internal/onboardings', requireOnboarding, async (c) => {
    const body = await readBody(c, createOnboardingBody);
    const { tenant, sub } = ownerOf(c);
    const needed: Permission = body.mode === 'auto' ? 'post_onboardings_auto' : 'post_onboardings_assisted';
    if (!c.get('auth').roles.includes(needed)) {
      throw new HttpProblem(403, `A ${body.mode} onboarding needs the ${needed} permission.`, 'forbidden');
    }
    const userData = body.userData ?? null;
    if (body.mode === 'assisted' && !body.user_id && !userData) {
      throw validationProblem([{ field: 'userData', code: 'required' }]);
    }
    const settings = await rt.settingsOf(tenant);
    // Spec §3 userRegisterEnabled / assistantRegisterEnabled: Landing hides the start; the server refuses it too.
    if (body.mode === 'auto' && !settings.userRegisterEnabled) {
      throw new HttpProblem(403, 'Self-registration is closed for this tenant.', 'user_register_disabled');
    }
    if (body.mode === 'assisted' && !settings.assistantRegisterEnabled) {
      throw new HttpProblem(
        403,
        'Assisted registration is closed for this tenant.',
        'assistant_register_disabled',
      );
    }
    const flags = {
      identity_proofing: identityProofing(settings),
      life_proofing: rt.lifeProofingOf(tenant, settings),
      biometric_qr: settings.biometricQR,
      supported_docs: supportedDocs(settings, body.mode),
    };
    // AssistedExistingUsers: a user_id naming a user record of the tenant re-enrols that user (their account, if any,
    // is the person being enrolled); otherwise user_id is the person's account id.
    const replaced =
      body.mode === 'assisted' && body.user_id && settings.registerTypes.includes('AssistedExistingUsers')
        ? await existingUser(db, tenant, body.user_id)
        : null;
    const onboardingId = await insertOnboarding(db, {
      tenant,
      mode: body.mode,
      accountId: body.mode === 'auto' ? sub : replaced ? replaced.account_id : (body.user_id ?? null),
      assistedBy: body.mode === 'assisted' ? sub : null,
      createdBy: sub,
      registerMode: body.registerMode ?? body.mode,
      location: body.location ?? c.get('auth').location ?? null,
      userData,
      visitDate: body.visit_date ?? (typeof userData?.visit_date === 'string' ? userData.visit_date : null),
      host: body.host ?? (typeof userData?.host === 'string' ? userData.host : null),
      identityProofing: flags.identity_proofing,
      lifeProofing: flags.life_proofing,
      biometricQr: flags.biometric_qr,
      supportedDocs: flags.supported_docs,
      stamp: rt.now(),
    });
    if (replaced && onboardingId) await markReenrolment(db, tenant, onboardingId, replaced.user_id);
    return c.json({ onboarding_id: onboardingId, ...flags }, 201);
  });

  app.get('/internal/onboardings/:id', requireOnboarding, async (c) => {
    const row = await ownOnboarding(rt, c, c.req.param('id'));
    return c.json(onboardingView(row, await portrayalsOf(db, c.get('tenant'), row.onboarding_id)));
  });

  // Progress for the desktop while the person continues on a phone (after a user code).
  app.get('/internal/onboardings/:id/status', requireOnboarding, async (c) => {
    const row = await ownOnboarding(rt, c, c.req.param('id'));
    const tenant = c.get('tenant');
    const portrayals = await portrayalsOf(db, tenant, row.onboarding_id);
    const images = await imageKindsOf(
      db,
      tenant,
      portrayals.map((p) => p.portrayal_id),
    );
    return c.json({
      onboarding_id: row.onboarding_id,
      status: row.status,
      legal_terms_accepted: row.legal_terms_accepted_at !== null,
      portrayals: portrayals.map((p) => ({
        portrayal_id: p.portrayal_id,
        portrayal_type: p.portrayal_type,
        images: images.filter((image) => image.portrayal_id === p.portrayal_id).map((image) => image.kind),
        result: resultState(p),
      })),
      outcome: row.last_outcome,
      reason: row.last_reason,
      user_id: row.user_id,
      qr_sid: row.qr_sid,
      updated_at: row.updated_at.toISOString(),
    });
  });

  app.put('/internal/onboardings/:id/legal_terms', requireOnboarding, async (c) => {
    const row = await ownOnboarding(rt, c, c.req.param('id'));
    assertOpen(row.status);
    await acceptLegalTerms(db, c.get('tenant'), row.onboarding_id, rt.now());
    return c.json<LegalTermsAccepted>({ onboarding_id: row.onboarding_id, legal_terms_accepted: true });
  });

  app.delete('/internal/onboardings/:id', requireOnboarding, async (c) => {
    const row = await ownOnboarding(rt, c, c.req.param('id'));
    await deleteOnboarding(db, c.get('tenant'), row.onboarding_id);
    return c.body(null, 204);
  });

  return app;
}
