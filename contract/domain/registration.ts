import type { DocumentChoice, RegistrationPayload } from '../api/onboarding';
import { fromDisplayDate, toApiDate } from './dates';
import type { RegisterMode } from './enrolment';

// From the portrayal result to the registration payload (spec §3): what the review starts from, which fields
// the person corrected (ocr_adaptations), and the payload with the email, phone and assisted rules of spec §5.

/** Spec §3: the fields of a portrayal that carry an OCR adaptation. */
export const OCR_FIELDS = [
  'birth_date',
  'expiry_date',
  'document_number',
  'id_number',
  'first_name',
  'last_name',
  'nationality',
  'expedition_country',
] as const;
export type OcrField = (typeof OCR_FIELDS)[number];

/** The data the person checks on ReviewRegister: one value (or nothing) per OCR field. */
export type ReviewFields = Record<OcrField, string | null>;

/** One field the person changed from what the document reading gave. */
export interface OcrAdaptation {
  field: OcrField;
  value: string | null;
}

/** What RegisterForm asks (all optional). */
export interface RegisterFormData {
  email: string;
  phone: string;
  nie: string;
}

export const EMPTY_FORM: RegisterFormData = { email: '', phone: '', nie: '' };

/** The domain whose auto-mode registrations keep the email in extra_fields (spec §5). */
export const GAMBLING_DOMAIN = 'gambling';

const clean = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
};

/** Token claim names that carry each field (spec §6: claims are copied into enrolment data). */
const CLAIM_NAMES: Record<OcrField, readonly string[]> = {
  birth_date: ['birth_date', 'birthdate'],
  expiry_date: ['expiry_date'],
  document_number: ['document_number'],
  id_number: ['id_number'],
  first_name: ['first_name', 'given_name'],
  last_name: ['last_name', 'family_name'],
  nationality: ['nationality'],
  expedition_country: ['expedition_country'],
};

/** What the review starts from: the document reading, with the token claims filling what it did not read. */
export function reviewDraft(
  info: Partial<Record<OcrField, string | null>>,
  claims: Record<string, unknown> | null,
): ReviewFields {
  const draft = {} as ReviewFields;
  for (const field of OCR_FIELDS) {
    const claimed = CLAIM_NAMES[field].map((name) => clean(claims?.[name])).find((value) => value !== null);
    draft[field] = clean(info[field]) ?? claimed ?? null;
  }
  return draft;
}

/** A field's value as compared and sent: trimmed, dates as YYYY-MM-DD; nothing when empty. */
function fieldValue(field: OcrField, value: string | null | undefined): string | null {
  return field === 'birth_date' || field === 'expiry_date' ? toApiDateString(value ?? null) : clean(value);
}

/** Every field whose reviewed value differs from the document reading, with the value the person kept. */
export function ocrAdaptations(
  ocr: Partial<Record<OcrField, string | null>>,
  reviewed: ReviewFields,
): OcrAdaptation[] {
  return OCR_FIELDS.filter(
    (field) => fieldValue(field, reviewed[field]) !== fieldValue(field, ocr[field]),
  ).map((field) => ({ field, value: fieldValue(field, reviewed[field]) }));
}

/** A date as the API wants it (YYYY-MM-DD), from either that form or the displayed DD/MM/YYYY. */
export function toApiDateString(value: string | null): string | null {
  const text = clean(value);
  if (text === null) return null;
  const displayed = fromDisplayDate(text);
  return displayed ? toApiDate(displayed) : text;
}

export interface RegistrationInput {
  reviewed: ReviewFields;
  documentType: DocumentChoice;
  form: RegisterFormData;
  registerMode: RegisterMode;
  /** Tenant settings domain. */
  domain: string;
  /** The signed-in person's email (auto mode), used when the form leaves it empty. */
  sessionEmail: string | null;
  /** The email of the person an assistant registers (assisted mode). */
  assistedEmail: string | null;
}

/** Spec §5: for the gambling domain in auto mode, or with document type others, the email goes in extra_fields. */
export function emailGoesInExtraFields(domain: string, mode: RegisterMode, documentType: DocumentChoice) {
  return (domain === GAMBLING_DOMAIN && mode === 'auto') || documentType === 'others';
}

/**
 * The registration payload (spec §3) from the reviewed data and the optional form. Spec §5: the assisted flow
 * skips the email check and uses the assisted email; the phone goes in extra_fields, and so does the email
 * for the gambling domain in auto mode or with document type others. Fields without a value are left out.
 */
export function buildRegistrationPayload(input: RegistrationInput): RegistrationPayload {
  const { reviewed, form } = input;
  const upper = (value: string | null) => clean(value)?.replace(/\s+/g, '').toUpperCase() ?? null;
  const email =
    input.registerMode === 'assisted'
      ? clean(input.assistedEmail)
      : (clean(form.email) ?? clean(input.sessionEmail));
  const phone = clean(form.phone);
  const inExtra = emailGoesInExtraFields(input.domain, input.registerMode, input.documentType);
  const extra: Record<string, string> = {};
  if (phone) extra.phone = phone;
  if (email && inExtra) extra.email = email;

  const payload: RegistrationPayload = {
    first_name: clean(reviewed.first_name) ?? '',
    last_name: clean(reviewed.last_name) ?? '',
    birth_date: toApiDateString(reviewed.birth_date) ?? '',
    document_number: upper(reviewed.document_number) ?? '',
    document_type: input.documentType,
  };
  // Spec §5: only the assisted flow skips the email check; the server refuses it (and username, acs_id, id,
  // which the portal never sends here) in auto mode.
  if (input.registerMode === 'assisted') payload.skip_email_check = true;
  const optional: Partial<RegistrationPayload> = {
    expiry_date: toApiDateString(reviewed.expiry_date),
    id_number: upper(reviewed.id_number),
    expedition_country: upper(reviewed.expedition_country),
    nationality: upper(reviewed.nationality),
    email: inExtra ? null : email,
    nie: upper(form.nie),
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== null && value !== undefined) Object.assign(payload, { [key]: value });
  }
  if (Object.keys(extra).length > 0) payload.extra_fields = extra;
  return payload;
}
