// Spec §7 PUT /internal/onboardings/{id}/portrayals/{portrayalId}: the person confirms the registration payload;
// the registration rules (../outcome.ts) accept it, creating the user and a 15-day QR credential, or refuse it
// with a spec §8 reason.
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import type { AccessTokenClaims } from '../../../contract/api/access-token';
import {
  type ConfirmationResult,
  type RegistrationPayload,
  type RegistrationReason,
  registrationPayload,
  type Verification,
} from '../../../contract/api/onboarding';
import type { AuthEnv } from '../../auth/verify';
import { EnforcementUnavailableError } from '../../enforcement/source';
import { HttpProblem } from '../../http/problem';
import { DetailedProblem, isUuid, nonEmpty, readBody, validationProblem } from '../../http/validation';
import { noteStaffAction, recordsStaffAction, recordsWithin } from '../../staff-actions/routes';
import { type EnforcementAnswer, isoDay, registrationOutcome } from '../outcome';
import { legalTermsNotAccepted, notFound, type OnboardingRuntime, ownOnboarding } from '../runtime';
import { type OnboardingRow, recordOutcome } from '../store/onboardings';
import { findPortrayalOf, type PortrayalRow } from '../store/portrayals';
import { documentInUseByOther, existingUser, reenrolUser } from '../store/reenrolment';
import { regionOf } from '../store/region';
import {
  accountHasUser,
  acsIdInUse,
  createUser,
  documentInUse,
  emailInUse,
  engineChecks,
  type NewUser,
} from '../store/registration';

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

/** A refusal that is an HTTP error: 409, or 503 for the one retryable reason; the body carries the result too. */
function conflict(reason: RegistrationReason): DetailedProblem {
  const status = reason === 'enforcement_source_unavailable' ? 503 : 409;
  return new DetailedProblem(status, CONFLICT_DETAIL[reason] ?? reason, reason, {
    reason,
    ...rejected(reason),
  });
}

const fieldConflict = (field: string, code: string, detail: string) =>
  new DetailedProblem(409, detail, code, { errors: [{ field, code }] });

/**
 * Spec §5: only the assisted flow skips the email check, and only staff choose a person's username, acs_id or
 * id. A person registering themselves (auto mode) who sends any of them gets one not_allowed per field.
 */
export function staffOnlyFieldErrors(
  payload: RegistrationPayload,
  mode: OnboardingRow['mode'],
): { field: string; code: 'not_allowed' }[] {
  if (mode === 'assisted') return [];
  const given = {
    skip_email_check: payload.skip_email_check === true,
    username: nonEmpty(payload.username) !== null,
    acs_id: nonEmpty(payload.acs_id) !== null,
    id: nonEmpty(payload.id) !== null,
  };
  return Object.entries(given)
    .filter(([, sent]) => sent)
    .map(([field]) => ({ field, code: 'not_allowed' as const }));
}

/** A portrayal whose result was computed from its latest images and did not fail. */
function assertJudged(portrayal: PortrayalRow): void {
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
}

/**
 * The user's email (spec §5): the payload's, else the one in extra_fields (gambling domain), else the assisted
 * person's (assisted mode) or the signed-in person's (auto mode).
 */
function contactEmail(
  payload: RegistrationPayload,
  onboarding: OnboardingRow,
  claims: AccessTokenClaims,
): string | null {
  const extra = payload.extra_fields ?? {};
  const assisted = onboarding.user_data?.email;
  return (
    nonEmpty(payload.email) ??
    (typeof extra.email === 'string' ? nonEmpty(extra.email) : null) ??
    (onboarding.mode === 'assisted'
      ? typeof assisted === 'string'
        ? nonEmpty(assisted)
        : null
      : (claims.email ?? null))
  );
}

async function askEnforcement(
  rt: OnboardingRuntime,
  tenant: string,
  payload: RegistrationPayload,
  documentNumber: string,
): Promise<EnforcementAnswer> {
  const settings = await rt.settingsOf(tenant);
  try {
    const match = await rt.enforcement.check(rt.db, tenant, settings.legalDomains, {
      first_name: payload.first_name,
      last_name: payload.last_name,
      birth_date: payload.birth_date,
      document_number: documentNumber,
      id_number: nonEmpty(payload.id_number),
    });
    return match ? 'match' : 'clear';
  } catch (failure) {
    if (!(failure instanceof EnforcementUnavailableError)) throw failure;
    return 'unavailable';
  }
}

export function confirmationRouter(rt: OnboardingRuntime): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db } = rt;

  // An assisted registration or re-enrolment is a staff action on the person's data; a person enrolling alone is not.
  const registers = recordsStaffAction(db, { action: 'named by the handler' });
  app.put('/internal/onboardings/:id/portrayals/:portrayalId', rt.requireOnboarding, registers, async (c) => {
    noteStaffAction(c, null);
    const onboarding = await ownOnboarding(rt, c, c.req.param('id'));
    const portrayalId = c.req.param('portrayalId');
    const tenant = c.get('tenant');
    const claims = c.get('auth');
    const portrayal = isUuid(portrayalId)
      ? await findPortrayalOf(db, tenant, onboarding.onboarding_id, portrayalId)
      : undefined;
    if (!portrayal) throw notFound('portrayal');
    const refuse = async (reason: RegistrationReason) => {
      await recordOutcome(db, tenant, onboarding.onboarding_id, 'rejected', reason, rt.now());
      if (reason in CONFLICT_DETAIL) throw conflict(reason);
      return c.json<ConfirmationResult>(rejected(reason));
    };
    if (onboarding.status === 'completed') return refuse('user_already_registered');
    if (!onboarding.legal_terms_accepted_at) throw legalTermsNotAccepted();
    const payload = await readBody(c, registrationPayload);
    const notAllowed = staffOnlyFieldErrors(payload, onboarding.mode);
    if (notAllowed.length > 0) throw validationProblem(notAllowed);
    assertJudged(portrayal);
    const now = rt.now();
    if (payload.birth_date > isoDay(now)) {
      throw validationProblem([{ field: 'birth_date', code: 'date_in_future' }]);
    }

    const accountId = onboarding.account_id;
    const documentNumber = payload.document_number.toUpperCase();
    // AssistedExistingUsers: the user being re-enrolled is not "already registered" nor holding "another's" document.
    const replaces = onboarding.replaces_user_id ?? null;
    const facts = {
      lifeProofing: onboarding.life_proofing,
      liveness: portrayal.liveness_result,
      alreadyRegistered: replaces ? false : accountId ? await accountHasUser(db, tenant, accountId) : false,
      documentInUse: replaces
        ? await documentInUseByOther(db, tenant, documentNumber, replaces)
        : await documentInUse(db, tenant, documentNumber),
    };
    // The prohibited list comes last in the rules: it is asked only when nothing else refuses the person, and
    // after the contact data are known to be free.
    const before = registrationOutcome(payload, { ...facts, enforcement: 'clear' }, now);
    if (before !== 'accepted') return refuse(before);

    const email = contactEmail(payload, onboarding, claims);
    if (email && !payload.skip_email_check && !replaces && (await emailInUse(db, tenant, email, accountId))) {
      throw fieldConflict('email', 'email_already_in_use', 'This email is already in use.');
    }
    const givenAcsId = nonEmpty(payload.acs_id);
    if (givenAcsId && (await acsIdInUse(db, tenant, givenAcsId))) {
      throw fieldConflict('acs_id', 'acs_id_already_in_use', 'This access-control id is already in use.');
    }

    const enforcement = await askEnforcement(rt, tenant, payload, documentNumber);
    const decision = registrationOutcome(payload, { ...facts, enforcement }, now);
    if (decision !== 'accepted') return refuse(decision);

    const liveness: Verification = onboarding.life_proofing
      ? (portrayal.liveness_result ?? 'failing')
      : 'not_computed';
    const stamp = rt.now();
    try {
      const replaced = replaces ? await existingUser(db, tenant, replaces) : null;
      // Where this registration takes place (the re-enrolled user registers again, there).
      const region = await regionOf(
        db,
        tenant,
        { location: onboarding.location, registeredBy: onboarding.assisted_by ?? accountId },
        (await rt.settingsOf(tenant)).legalDomains,
      );
      const newUser: NewUser = {
        tenant,
        onboarding,
        portrayalId: portrayal.portrayal_id,
        region,
        payload,
        documentNumber,
        email,
        acsId: givenAcsId ?? replaced?.acs_id ?? randomUUID().replaceAll('-', ''),
        accountId,
        username:
          nonEmpty(payload.username) ??
          (onboarding.mode === 'auto' ? claims.preferred_username : undefined) ??
          email,
        liveness,
        checks: engineChecks(portrayal.result),
        stamp,
        qrEndsAt: new Date(stamp.getTime() + rt.qrValidityMs),
      };
      // AssistedExistingUsers: the re-enrolled user record takes the new data instead of a new one being made.
      const created = await recordsWithin(c, db, async (tx) => {
        const made = await (replaced ? reenrolUser(tx, newUser, replaced.user_id) : createUser(tx, newUser));
        if (onboarding.mode === 'assisted') {
          noteStaffAction(c, { action: replaced ? 'user.reenrol' : 'user.register', subject: made.user_id });
        }
        return made;
      });
      return c.json<ConfirmationResult>({ result: { outcome: 'accepted', reason: null }, ...created });
    } catch (failure) {
      // Two confirmations at once: the unique indexes decide, with the same reasons as the rules.
      const text = failure instanceof Error ? failure.message : String(failure);
      if (text.includes('users_account')) throw conflict('user_already_registered');
      if (text.includes('users_document_number')) throw conflict('document_already_exists');
      throw failure;
    }
  });

  return app;
}
