// Single registration (spec §4 register type Single; §5 single registration, Wiegand; §8 singles rejection
// reasons and user registration codes). Shared by the portal (machine, screen) and the reference server.

/** Spec §3 acsIdSchema: 'string64' (default; 1–64 printable characters) or 'wiegand' (a number 1–65535). */
export type AcsIdSchema = 'string64' | 'wiegand';

export const WIEGAND_MIN = 1;
export const WIEGAND_MAX = 65_535;

export function acsIdSchemaOf(value: string | undefined | null): AcsIdSchema {
  return value?.toLowerCase() === 'wiegand' ? 'wiegand' : 'string64';
}

/** Why an acs_id is not valid for the schema, or null when it is (message key common.errors.{code}). */
export function acsIdProblem(
  schema: AcsIdSchema,
  value: string,
): 'required' | 'wiegand_range' | 'wrong_format' | null {
  const trimmed = value.trim();
  if (trimmed === '') return 'required';
  if (schema === 'wiegand') {
    if (!/^\d{1,5}$/.test(trimmed)) return 'wiegand_range';
    const n = Number(trimmed);
    return n >= WIEGAND_MIN && n <= WIEGAND_MAX ? null : 'wiegand_range';
  }
  return /^[\x21-\x7e]{1,64}$/.test(trimmed) ? null : 'wrong_format';
}

/** Spec §8 singles rejection reasons, as the server sends them. */
export const SINGLE_REASONS = [
  'selfie_not_provided',
  'embedding_generation_failed',
  'acs_id_already_in_use',
  'qr_generation_failed',
] as const;

/** Spec §8: the delegated/singles error each reason maps to; anything else is unknown. */
export type SingleError =
  | 'unknown'
  | 'document-expired'
  | 'embedding-failed'
  | 'id-already-used'
  | 'qr-generation-failed';

export function singleErrorOf(reason: string | null | undefined): SingleError {
  switch (reason) {
    case 'selfie_not_provided':
      return 'document-expired';
    case 'embedding_generation_failed':
      return 'embedding-failed';
    case 'acs_id_already_in_use':
      return 'id-already-used';
    case 'qr_generation_failed':
      return 'qr-generation-failed';
    default:
      return 'unknown';
  }
}

/**
 * Spec §8 user registration codes: 0 unknown, 1 face or image processing failure, 2 id already in use,
 * 3 credential or QR generation failure.
 */
export type RegistrationCode = 0 | 1 | 2 | 3;

export function registrationCodeOf(reason: string | null | undefined): RegistrationCode {
  // A picture the server could not decode, or one of too many pixels: an image processing failure.
  if (reason === 'image_unreadable' || reason === 'image_too_many_pixels') return 1;
  switch (singleErrorOf(reason)) {
    case 'document-expired':
    case 'embedding-failed':
      return 1;
    case 'id-already-used':
      return 2;
    case 'qr-generation-failed':
      return 3;
    default:
      return 0;
  }
}

/**
 * Email delivery of the QR (spec §5 "email delivery of the QR not allowed"): refused where the tenant's QR is
 * biometric (it carries the person's face template, which is not sent by mail).
 */
export function qrEmailAllowed(settings: { biometricQR: boolean }): boolean {
  return !settings.biometricQR;
}

/** Registration image bytes (spec §5): 5 kB to 5 MB, jpg or png. */
export const SINGLE_IMAGE_MIN_BYTES = 5 * 1024;
export const SINGLE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Delegated onboarding image bytes (spec §5, §9): at least 6,828, ideally about 6,500,000, at most 6,990,508. */
export const DELEGATED_IMAGE_MIN_BYTES = 6_828;
export const DELEGATED_IMAGE_DESIRED_BYTES = 6_500_000;
export const DELEGATED_IMAGE_MAX_BYTES = 6_990_508;

/** The byte bounds of a registration image: the delegated onboarding's, or the single registration's. */
export function imageBounds(delegated: boolean): { min: number; max: number } {
  return delegated
    ? { min: DELEGATED_IMAGE_MIN_BYTES, max: DELEGATED_IMAGE_MAX_BYTES }
    : { min: SINGLE_IMAGE_MIN_BYTES, max: SINGLE_IMAGE_MAX_BYTES };
}
