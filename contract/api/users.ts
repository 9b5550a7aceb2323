import { type } from 'arktype';
import { failedCheck } from './onboarding.ts';
import { requiredText, text } from './text.ts';

// Enrolled users as staff see them (spec §3 User; §7 Accounts and users: GET /public/users, GET /public/users/{id},
// DELETE /public/users, PUT /public/users/deleteAllData). The reference server answers with these shapes and
// src/api parses them with the same schemas.

/** Spec §3: the verification results of an enrolment. */
export const verification = type("'passing' | 'failing' | 'not_computed'");
export type Verification = typeof verification.infer;

/** One row of the staff users list. */
export const userSummary = type({
  user_id: 'string',
  username: 'string | null',
  first_name: 'string',
  last_name: 'string',
  email: 'string | null',
  acs_id: 'string',
  id_number: 'string | null',
  active: 'boolean',
  onboarding_state: "'completed' | 'incompleted'",
  register_mode: "'auto' | 'assisted' | 'administrative'",
  created_at: 'string',
});
export type UserSummary = typeof userSummary.infer;

/** The columns the list may be ordered by (orderby) and the direction (sorted). */
export const USER_ORDER_FIELDS = [
  'created_at',
  'last_name',
  'first_name',
  'email',
  'acs_id',
  'id_number',
] as const;
export type UserOrderField = (typeof USER_ORDER_FIELDS)[number];

/** GET /public/users: one page, its total, and the bookmark of the next page (null on the last). */
export const userPage = type({
  items: userSummary.array(),
  totalItems: 'number.integer >= 0',
  pageIndex: 'number.integer >= 0',
  pageSize: 'number.integer > 0',
  bookmark: 'string | null',
});
export type UserPage = typeof userPage.infer;

/** GET /public/users/{id}: every field of spec §3 User. */
export const userDetail = userSummary.and({
  account_id: 'string | null',
  nie: 'string | null',
  nationality: 'string | null',
  birth_date: 'string | null',
  expiry_date: 'string | null',
  document_number: 'string | null',
  document_type: 'string | null',
  expedition_country: 'string | null',
  portrayal_id: 'string | null',
  onboarding_id: 'string | null',
  host: 'string | null',
  onboarding_date: 'string',
  assisted_by: 'string | null',
  /** The region (a legal domain of the tenant) the user registered in; null when unknown. */
  region: 'string | null',
  life_proofing_result: verification,
  identity_proofing_result: verification,
  ocr_integrity: verification,
  document_validity: verification,
  selfie_authenticity: verification,
  evidences: type("'selfie' | 'obverse' | 'reverse'").array(),
  /**
   * The evidence images the tenant's retention rule deleted (settings retention.evidenceDays), with the instant:
   * not in spec §3, absent from servers that keep every image. GET …/{kind} of one answers 410 evidence_deleted.
   */
  'deleted_evidences?': type({
    kind: "'selfie' | 'obverse' | 'reverse'",
    deleted_at: 'string',
    deleted_by: "'retention'",
  }).array(),
  /**
   * The refusals of the person's pictures before they were accepted, oldest first: the spec §8 code and, for a
   * document check, the field and the rule it failed.
   */
  refusals: type({ error_code: 'string', check: failedCheck.or('null'), at: 'string' }).array(),
});
export type UserDetail = typeof userDetail.infer;

export { EVIDENCE_KINDS, type EvidenceKind } from './checks.ts';

/** DELETE /public/users and PUT /public/users/deleteAllData: the tenant's name typed by the person, and the count. */
export const tenantConfirmation = type({ confirm: 'string <= 100' });
export const bulkResult = type({ users: 'number.integer >= 0', images: 'number.integer >= 0' });
export type BulkResult = typeof bulkResult.infer;

/** PUT /public/accounts/{id}/onboarding: an assistant completes a pending onboarding (spec §4). */
export const completeOnboardingBody = type({ onboarding_status: "'completed'" });

/**
 * POST /public/users/activation (ActivateUsers, spec §2 "activate users of another region", §4 "users can be activated
 * in a region"): the region (a legal domain of the tenant) the users registered in, optionally one person's DNI/NIE.
 */
export const activationBody = type({ region: requiredText(20), 'id_number?': text(20) });
export type ActivationBody = typeof activationBody.infer;

/** Its answer: how many users were activated, and the facility (the assistant's) added to their credentials. */
export const activationResult = type({
  users: 'number.integer > 0',
  region: 'string',
  facility_id: 'string',
  alias: 'string',
});
export type ActivationResult = typeof activationResult.infer;
