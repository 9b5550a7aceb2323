import { type } from 'arktype';
import { EMAIL_PATTERN } from '../domain/email.ts';
import { FAILED_CHECKS as REFUSED_CHECKS } from './checks.ts';
import { MIN_API_YEAR } from './limits.ts';
import { isCleanText, jsonObject, requiredText, TEXT_LIMITS, text } from './text.ts';

// Self-enrolment calls (spec §7 Onboarding and Portrayals): the request bodies, which the reference server
// (server/onboarding) validates with these very schemas, and the responses, which src/api parses with them.
// The enrolment machines consume the inferred types.

/** Ids the server hands out (onboarding, portrayal, challenge). */
export const uuid = type(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

export { MIN_API_YEAR };

/** API dates (spec §9): YYYY-MM-DD, a day that exists (no 2023-02-30), from MIN_API_YEAR on. */
export const apiDate = type(/^\d{4}-\d{2}-\d{2}$/).narrow((value, ctx) => {
  const date = new Date(`${value}T00:00:00Z`);
  return (
    (!Number.isNaN(date.getTime()) &&
      date.toISOString().slice(0, 10) === value &&
      date.getUTCFullYear() >= MIN_API_YEAR) ||
    ctx.mustBe('a date')
  );
});

/** Spec §5 wrong email format, with the portal's own pattern. */
export const emailAddress = type(EMAIL_PATTERN)
  .and(`string <= ${TEXT_LIMITS.email}`)
  .narrow((value, ctx) => isCleanText(value) || ctx.mustBe('an email address'));

const optionalText = text(TEXT_LIMITS.text).or('null');
const optionalId = text(TEXT_LIMITS.id).or('null');

/** Document types (spec §3); 'none' is the selfie-only choice. */
export const documentChoice = type(
  "'id' | 'id_card' | 'driving_license' | 'passport' | 'others' | 'any' | 'none'",
);
export type DocumentChoice = typeof documentChoice.infer;

/** The images of a portrayal, as PUT /internal/portrayals/{id}/{kind}. */
export type ImageKind = 'obverse' | 'reverse' | 'selfie' | 'lifeproof';

/** Spec §3 verification results: passing, failing, not computed. */
export const verification = type("'passing' | 'failing' | 'not_computed'");
export type Verification = typeof verification.infer;

/** Spec §4 register mode: assisted when an assistant registers someone, otherwise auto. */
export const onboardingMode = type("'auto' | 'assisted'");
export type OnboardingMode = typeof onboardingMode.infer;

/** Spec §3 Portrayal portrayal_type. */
export const portrayalType = type("'document' | 'selfie'");
export type PortrayalType = typeof portrayalType.infer;

// POST /internal/onboardings: the mode, and for an assisted onboarding the person (user_id or userData).
export const createOnboardingBody = type({
  mode: onboardingMode,
  'location?': optionalText,
  'user_id?': optionalId,
  'userData?': jsonObject.or('null'),
  'registerMode?': optionalId,
  'visit_date?': optionalText,
  'host?': text(TEXT_LIMITS.email).or('null'),
});
export type CreateOnboardingBody = typeof createOnboardingBody.inferIn;

// POST /internal/onboardings → 201
export const createdOnboarding = type({
  onboarding_id: 'string',
  identity_proofing: 'boolean',
  life_proofing: 'boolean',
  biometric_qr: 'boolean',
  supported_docs: documentChoice.array(),
});
export type CreatedOnboarding = typeof createdOnboarding.infer;

// PUT /internal/onboardings/{id}/legal_terms → 200
export const legalTermsAccepted = type({ onboarding_id: 'string', legal_terms_accepted: 'true' });
export type LegalTermsAccepted = typeof legalTermsAccepted.infer;

// POST /internal/portrayals: an identity portrayal of an onboarding, or a stand-alone one named by process.
export const createPortrayalBody = type({
  'user_id?': optionalId,
  portrayal_type: portrayalType,
  'document_type?': documentChoice.or('null'),
  'document_country?': type(/^[A-Za-z]{2}$/).or('null'),
  'onboarding_id?': uuid.or('null'),
  'process?': optionalId,
});
export type CreatePortrayalBody = typeof createPortrayalBody.inferIn;

// POST /internal/portrayals → 201
export const createdPortrayal = type({ portrayal_id: 'string', life_proofing: 'boolean' });
export type CreatedPortrayal = typeof createdPortrayal.infer;

// PUT /internal/portrayals/{id}/obverse|reverse|selfie → 200
export const uploadedImage = type({
  portrayal_id: 'string',
  image: "'obverse' | 'reverse' | 'selfie'",
  format: "'jpeg' | 'png'",
  width: 'number',
  height: 'number',
  bytes: 'number',
});
export type UploadedImage = typeof uploadedImage.infer;

// PUT /internal/portrayals/{id}/lifeproof (multipart) → 200
export const uploadedLifeproof = type({
  portrayal_id: 'string',
  frames: 'number',
  life_proofing: verification,
});
export type UploadedLifeproof = typeof uploadedLifeproof.infer;

// POST /internal/challenges: how many actions, and for how many seconds the challenge stays valid.
export const challengeBody = type({
  'length?': '1 <= number.integer <= 10',
  'expiration?': '5 <= number.integer <= 600',
});
export type ChallengeBody = typeof challengeBody.infer;

// POST /internal/challenges → 201: the actions the person performs for the liveness proof.
export const challenge = type({
  challenge_id: 'string',
  actions: 'string[]',
  /** Seconds the challenge stays valid. */
  expiration: 'number',
  expires_at: 'string',
});
export type Challenge = typeof challenge.infer;

// Portrayal result document_info (spec §3): every field may be unread (null); document_type defaults to others.
export const documentInfo = type({
  first_name: 'string | null = null',
  last_name: 'string | null = null',
  birth_date: 'string | null = null',
  id_number: 'string | null = null',
  document_number: 'string | null = null',
  expiry_date: 'string | null = null',
  expedition_country: 'string | null = null',
  nationality: 'string | null = null',
  document_type: "string = 'others'",
});
export type DocumentInfo = typeof documentInfo.infer;

/** The document_info of a document nobody read (no OCR, or a selfie portrayal): the schema's defaults. */
export function unreadDocumentInfo(documentType: string | null = null): DocumentInfo {
  const info = documentInfo(documentType === null ? {} : { document_type: documentType });
  if (info instanceof type.errors) throw new Error(info.summary);
  return info;
}

// GET /internal/portrayals/{id} → 200 once computed (404 while not ready).
export const portrayalResult = type({
  'portrayal_id?': 'string',
  document_info: documentInfo,
  'document_validation?': verification,
  'score_document_valid?': 'number | null',
  'data_validation?': verification,
  'score_biometry?': 'number | null',
  'score_biometry_valid?': 'boolean | null',
  selfie_authenticity_valid: 'boolean = true',
  'life_proofing_result?': verification.or('null'),
});
export type PortrayalResult = typeof portrayalResult.infer;

/** Spec §8 portrayal result errors, as the `reason` of the 422 problem of GET /internal/portrayals/{id}. */
export const portrayalErrorCode = type(
  "'blurred_image_error' | 'document_classification_error' | 'spoofed_image_error' | 'validas_error' | 'no_face_error' | 'multiple_faces_error'",
);
export type PortrayalErrorCode = typeof portrayalErrorCode.infer;

/**
 * Which check refused a document (stored with the portrayal's result and shown to staff in words): the field
 * that failed and the rule it failed. check_digit: its ICAO 9303 check digit (the composite's for `composite`);
 * dni_nie: not a Spanish DNI/NIE (format or letter); found: the MRZ of a passport or ID card was not found;
 * face: a document that carries a portrait shows no face; format: the MRZ is of another document type
 * (document_type) or breaks ICAO 9303's rules beyond its check digits (mrz: an unknown country, a wrong sex).
 */
export const checkField = type(
  "'document_number' | 'birth_date' | 'expiry_date' | 'id_number' | 'composite' | 'mrz' | 'portrait' | 'document_type'",
);
export type CheckField = typeof checkField.infer;
export const checkRule = type("'check_digit' | 'dni_nie' | 'found' | 'face' | 'format'");
export type CheckRule = typeof checkRule.infer;
export const failedCheck = type({ field: checkField, rule: checkRule });
export type FailedCheck = typeof failedCheck.infer;

/** The (field, rule) pairs the reference engine can refuse a document for: each has words for staff. */
export const FAILED_CHECKS: readonly FailedCheck[] = REFUSED_CHECKS;

export const portrayalResultProblem = type({
  reason: 'string',
  'image?': 'string | null',
  'check?': failedCheck.or('null'),
});
export type PortrayalResultProblem = typeof portrayalResultProblem.infer;

/** Spec §8 registration failure reasons. */
export const registrationReason = type(
  "'underaged' | 'user_interdicted' | 'document_expired' | 'life_proofing_failed' | 'user_already_registered' | 'document_already_exists' | 'enforcement_source_unavailable'",
);
export type RegistrationReason = typeof registrationReason.infer;

// PUT /internal/onboardings/{id}/portrayals/{portrayalId} → 200 (accepted or rejected with a reason); a 409 or
// 503 problem carries the same members (result, user_id, qr_sid) beside its `reason`.
export const confirmationResult = type({
  result: { outcome: 'string', reason: 'string | null' },
  user_id: 'string | null',
  qr_sid: 'string | null',
});
export type ConfirmationResult = typeof confirmationResult.infer;

const alphanumeric = type(/^[A-Za-z0-9]{1,32}$/);
const countryCode = type(/^[A-Za-z]{2,3}$/);

// The registration payload (spec §3), the body of the confirmation. Optional text fields may come empty ('');
// extra_fields carries the phone and, for the gambling domain, the email (spec §5).
export const registrationPayload = type({
  first_name: requiredText(TEXT_LIMITS.name),
  last_name: requiredText(TEXT_LIMITS.name),
  birth_date: apiDate,
  'expiry_date?': apiDate.or('null'),
  'id_number?': alphanumeric.or("null | ''"),
  document_number: alphanumeric,
  document_type: documentChoice,
  'expedition_country?': countryCode.or("null | ''"),
  'nationality?': countryCode.or("null | ''"),
  'email?': emailAddress.or("null | ''"),
  'nie?': alphanumeric.or("null | ''"),
  'extra_fields?': jsonObject.and({ 'email?': emailAddress, 'phone?': text(TEXT_LIMITS.phone) }).or('null'),
  'skip_email_check?': 'boolean',
  'username?': text(TEXT_LIMITS.email).or('null'),
  'acs_id?': type(/^[\x21-\x7e]{1,64}$/).or("null | ''"),
  'id?': optionalId,
});
export type RegistrationPayload = typeof registrationPayload.infer;

// POST /user-code/generate: the onboarding to continue on a phone (the caller's latest open one when omitted).
export const userCodeGenerateBody = type({ 'onboarding_id?': uuid.or('null') });

// POST /user-code/redeem: the code as typed.
export const userCodeRedeemBody = type({ code: text(32) });

// GET /internal/onboardings/{id}/status: where an onboarding stands (what a device following it needs).
export const onboardingStatus = type({
  onboarding_id: 'string',
  status: "'started' | 'legal_terms_accepted' | 'in_progress' | 'completed'",
  legal_terms_accepted: 'boolean',
  portrayals: type({
    portrayal_id: 'string',
    portrayal_type: 'string',
    images: 'string[]',
    result: "'pending' | 'error' | 'ready'",
  }).array(),
  outcome: 'string | null',
  reason: 'string | null',
  user_id: 'string | null',
  qr_sid: 'string | null',
  updated_at: 'string',
});

// POST /user-code/generate's answer: the code a phone types to continue the onboarding.
export const userCode = type({
  code: 'string',
  onboarding_id: 'string',
  expires_at: 'string',
  expires_in: 'number',
  'link?': 'string',
  'qr?': 'string',
});

// POST /user-code/redeem's answer.
export const redeemedUserCode = type({ onboarding_id: 'string', expires_at: 'string' });
export type OnboardingStatus = typeof onboardingStatus.infer;
export type UserCode = typeof userCode.infer;
