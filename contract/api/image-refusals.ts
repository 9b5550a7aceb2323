// Plain data, without the schema library (like limits.ts): the image upload machine and the enrolment's actors read
// it without loading arktype.

/**
 * Why the server refuses a picture for what it is, the same on every way in (server/onboarding/image-checks.ts):
 * its type, its bytes (the delegated bounds for a delegated registration), its pixels, or it cannot be decoded.
 * Sending the same picture again gets the same refusal; the portal shows common.errors.{code} and asks for another.
 */
export const IMAGE_REFUSAL_CODES = [
  'image_wrong_type',
  'image_too_small',
  'image_too_large',
  'delegated_image_too_small',
  'delegated_image_too_large',
  'image_too_many_pixels',
  'image_unreadable',
] as const;
export type ImageRefusalCode = (typeof IMAGE_REFUSAL_CODES)[number];
