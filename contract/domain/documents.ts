import type { DocumentChoice, ImageKind } from '../api/onboarding';

// Identity documents of self-enrolment: which country a choice is sent with (spec §5), which document code
// the scan uses (spec §9) and which pictures a portrayal of it needs (spec §4 "images sent").

/** Spec §3 document countries; passports and others always travel as XX. */
export const DOCUMENT_COUNTRIES = ['ES', 'FR', 'XX'] as const;
export const GENERIC_COUNTRY = 'XX';

/** Documents whose country is not asked: passports and others are sent as XX, 'none' has no document. */
export function asksDocumentCountry(documentType: DocumentChoice): boolean {
  return documentType !== 'passport' && documentType !== 'others' && documentType !== 'none';
}

/** Spec §5: passport and others use country code XX; other document countries are uppercased. */
export function normaliseDocumentCountry(
  documentType: DocumentChoice,
  country: string | null,
): string | null {
  if (documentType === 'none') return null;
  if (!asksDocumentCountry(documentType)) return GENERIC_COUNTRY;
  const trimmed = country?.trim();
  return trimmed ? trimmed.toUpperCase() : null;
}

/** A choice the server accepts: offered by the onboarding, and with a country when the document needs one. */
export function isCompleteDocumentChoice(
  supportedDocs: readonly string[],
  documentType: DocumentChoice,
  country: string | null,
): boolean {
  if (!supportedDocs.includes(documentType)) return false;
  if (!asksDocumentCountry(documentType)) return true;
  return /^[A-Z]{2}$/.test(normaliseDocumentCountry(documentType, country) ?? '');
}

/** Countries whose documents have a second-generation code of their own (spec §9). */
const COUNTRY_CODES: Record<string, string> = { ES: 'ES2', MX: 'MX2' };
/** Generic codes of documents read without a country model (spec §9). */
export const GENERIC_PASSPORT_CODE = 'XX_PASSPORT';
export const GENERIC_DOCUMENT_CODE = 'XX_XX';

/**
 * The document code the scan is configured with (spec §9): the country (ES → ES2, MX → MX2) plus ID for an
 * ID card or DL for a driving licence, as COUNTRY_SUFFIX; passports and any other document use generic codes.
 */
export function documentCode(documentType: DocumentChoice, country: string | null): string {
  if (documentType === 'passport') return GENERIC_PASSPORT_CODE;
  const suffix = documentType === 'id_card' ? 'ID' : documentType === 'driving_license' ? 'DL' : undefined;
  const normalised = normaliseDocumentCountry(documentType, country);
  if (!suffix || !normalised) return GENERIC_DOCUMENT_CODE;
  return `${COUNTRY_CODES[normalised] ?? normalised}_${suffix}`;
}

/** The portrayal a choice starts: a document portrayal, or a selfie-only one for 'none' (spec §3). */
export function portrayalTypeOf(documentType: DocumentChoice): 'document' | 'selfie' {
  return documentType === 'none' ? 'selfie' : 'document';
}

/** Whether the document has a back to scan: passports (one data page) and 'none' have none. */
export function hasReverse(documentType: DocumentChoice): boolean {
  return documentType !== 'passport' && documentType !== 'none';
}

/**
 * The pictures a portrayal needs, in the order they are taken: the document's sides, then the selfie, or the
 * liveness proof instead of it when the onboarding asks for life proofing (its frames hold the selfie).
 */
export function imagesFor(documentType: DocumentChoice, lifeProofing: boolean): ImageKind[] {
  const images: ImageKind[] = [];
  if (documentType !== 'none') images.push('obverse');
  if (hasReverse(documentType)) images.push('reverse');
  images.push(lifeProofing ? 'lifeproof' : 'selfie');
  return images;
}
