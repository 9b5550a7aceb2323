// Plain values the screens draw from (no arktype here): a screen that imports them does not load the validators
// before its first paint. The schemas that use them stay in onboarding.ts and users.ts, which re-export them
// (onboarding.ts as its FailedCheck type, so a pair its schema does not know does not compile).

/** The (field, rule) pairs the reference engine can refuse a document for: each has words for staff. */
export const FAILED_CHECKS = [
  { field: 'document_number', rule: 'check_digit' },
  { field: 'birth_date', rule: 'check_digit' },
  { field: 'expiry_date', rule: 'check_digit' },
  { field: 'id_number', rule: 'check_digit' },
  { field: 'id_number', rule: 'dni_nie' },
  { field: 'composite', rule: 'check_digit' },
  { field: 'mrz', rule: 'found' },
  { field: 'mrz', rule: 'format' },
  { field: 'portrait', rule: 'face' },
  { field: 'document_type', rule: 'format' },
] as const;

/** The kinds of picture a person's record holds. */
export const EVIDENCE_KINDS = ['selfie', 'obverse', 'reverse'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** What a staff member did, one fixed name per kind of action (the server's routes name them). */
export const STAFF_ACTIONS = [
  'evidence.read',
  'user.register',
  'users.register_bulk',
  'user.reenrol',
  'account.create',
  'user.activate',
  'user.deactivate',
  'user.cancel',
  'users.activate_all',
  'users.deactivate_all',
  'users.delete_all',
  'data.delete_all',
  'onboarding.complete',
  'credential.state',
  'credential.location',
  'credential.issue',
  'users.activate_region',
  'watchlist.upload',
  'visit.check_in',
  'visit.check_out',
] as const;
export type StaffActionName = (typeof STAFF_ACTIONS)[number];

/** The actions on many people at once: their rows name no one. */
export const MANY_PEOPLE_ACTIONS: readonly StaffActionName[] = [
  'users.register_bulk',
  'users.activate_all',
  'users.deactivate_all',
  'users.delete_all',
  'data.delete_all',
  'users.activate_region',
  'watchlist.upload',
];

export function isStaffActionName(value: string): value is StaffActionName {
  return (STAFF_ACTIONS as readonly string[]).includes(value);
}
