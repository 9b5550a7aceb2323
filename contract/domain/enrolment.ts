import type { OnboardingMode, PortrayalErrorCode, RegistrationReason } from '../api/onboarding';

// Rules of self-enrolment that are neither screens nor calls: the step after Start (spec §2), register types
// and mode (spec §4), the legal terms (spec §5) and the failure codes of spec §8.

/** Spec §4 register mode: the contract's onboarding mode. */
export type RegisterMode = OnboardingMode;

/** Spec §4: the server flag identity_proofing decides between these two register types. */
export type EnrolmentRegisterType = 'WithIdentityProofing' | 'OnlySelfieWithId';

export function registerTypeOf(identityProofing: boolean): EnrolmentRegisterType {
  return identityProofing ? 'WithIdentityProofing' : 'OnlySelfieWithId';
}

export interface StepSettings {
  showNextSteps: boolean;
  onboardingSteps: boolean;
}

export type EnrolmentStep = 'NextSteps' | 'IdentityProofingStep' | 'RegisterDocuments' | 'RegisterSelfie';

/**
 * Spec §2, the next step after starting enrolment: NextSteps if showNextSteps is on; otherwise, with identity
 * proofing, IdentityProofingStep when onboardingSteps is set, else RegisterDocuments; without, RegisterSelfie.
 */
export function nextEnrolmentStep(settings: StepSettings, identityProofing: boolean): EnrolmentStep {
  if (settings.showNextSteps) return 'NextSteps';
  if (!identityProofing) return 'RegisterSelfie';
  return settings.onboardingSteps ? 'IdentityProofingStep' : 'RegisterDocuments';
}

/** The step after NextSteps: the same rule, NextSteps having been shown. */
export function stepAfterNextSteps(settings: StepSettings, identityProofing: boolean): EnrolmentStep {
  return nextEnrolmentStep({ ...settings, showNextSteps: false }, identityProofing);
}

export interface LegalTermsAnswers {
  termsAccepted: boolean;
  legitimacyConfirmed: boolean;
}

/**
 * Spec §5: the legal terms must be accepted, and whoever supplies another person's data (an assistant, in
 * assisted mode) must also confirm the legal legitimacy to do so.
 */
export function legalTermsAccepted(mode: RegisterMode, answers: LegalTermsAnswers): boolean {
  return answers.termsAccepted && (mode === 'auto' || answers.legitimacyConfirmed);
}

/** Spec §8 codes of the finish-with-error screen (its {errorCode} path parameter). */
export type RegistrationErrorCode =
  | 'underage'
  | 'forbidden-list'
  | 'document-expired'
  | 'life-proofing-failed'
  | 'already-registered'
  | 'document-already-in-use'
  | 'enforcement-source-unavailable'
  | 'unknown';

const REGISTRATION_ERROR_CODES: Record<RegistrationReason, RegistrationErrorCode> = {
  underaged: 'underage',
  user_interdicted: 'forbidden-list',
  document_expired: 'document-expired',
  life_proofing_failed: 'life-proofing-failed',
  user_already_registered: 'already-registered',
  document_already_exists: 'document-already-in-use',
  enforcement_source_unavailable: 'enforcement-source-unavailable',
};

export const REGISTRATION_REASONS = Object.keys(REGISTRATION_ERROR_CODES) as RegistrationReason[];

/** Every code the finish-with-error screen shows, 'unknown' last. */
export const REGISTRATION_ERROR_CODE_LIST: readonly RegistrationErrorCode[] = [
  ...Object.values(REGISTRATION_ERROR_CODES),
  'unknown',
];

/** Spec §8: each registration failure reason has its code; anything else is unknown. */
export function registrationErrorCode(reason: string | null | undefined): RegistrationErrorCode {
  return Object.hasOwn(REGISTRATION_ERROR_CODES, reason ?? '')
    ? REGISTRATION_ERROR_CODES[reason as RegistrationReason]
    : 'unknown';
}

/** Spec §8: only an unavailable prohibited-list service is worth trying again (later). */
export function isRetryableReason(reason: string | null | undefined): boolean {
  return reason === 'enforcement_source_unavailable';
}

/** Why no portrayal result came: the spec §8 result errors, no result within 16 s, or an answer not understood. */
/** face_mismatch: a result whose score_biometry_valid is false (the selfie is not the document's holder). */
export type PortrayalFailure = PortrayalErrorCode | 'face_mismatch' | 'timeout' | 'unknown';

export const PORTRAYAL_ERROR_CODES: readonly PortrayalErrorCode[] = [
  'blurred_image_error',
  'document_classification_error',
  'spoofed_image_error',
  'validas_error',
  'no_face_error',
  'multiple_faces_error',
];

export function isPortrayalErrorCode(code: unknown): code is PortrayalErrorCode {
  return (PORTRAYAL_ERROR_CODES as readonly unknown[]).includes(code);
}

/** Spec §8 document scan failure screens, each with its title and retry hint. */
export type ScanFailureScreen = 'classification' | 'blurred' | 'analysis' | 'unknown' | 'undefined';

/**
 * Which failure screen tells the person about a portrayal failure: a document of another type, a blurred
 * picture, an analysis that refused the pictures (a spoof, a validation error), an answer not understood, or no
 * answer at all (the 16 s timeout: the result is undefined).
 */
export function scanFailureScreen(failure: PortrayalFailure): ScanFailureScreen {
  switch (failure) {
    case 'document_classification_error':
      return 'classification';
    case 'blurred_image_error':
      return 'blurred';
    case 'spoofed_image_error':
    case 'validas_error':
      return 'analysis';
    case 'timeout':
      return 'undefined';
    default:
      return 'unknown';
  }
}

/** Spec §3 tenant setting postEnrolmentAction: where FinishRegister's Continue takes a newly enrolled person. */
export type PostEnrolmentAction = 'home' | 'showQr' | 'accreditations' | 'landing';

/**
 * home: the person's home (spec §2 home routing); showQr: UserHome, where the new QR is ready to show;
 * accreditations: MyAccreditations; landing: Landing (the tenant's welcome, with its "know more" link).
 */
export function postEnrolmentScreen<S extends string>(
  action: PostEnrolmentAction,
  home: S,
): S | 'UserHome' | 'MyAccreditations' | 'Landing' {
  switch (action) {
    case 'showQr':
      return 'UserHome';
    case 'accreditations':
      return 'MyAccreditations';
    case 'landing':
      return 'Landing';
    default:
      return home;
  }
}
