import { type } from 'arktype';
import { STAFF_ACTIONS } from './checks';

// The record of staff actions on personal data (GET /public/staff_actions, its csv export POST
// /public/staff_actions, and the staff_actions part of a person's data export). The reference server validates the
// filter with these schemas and src/api parses the answers with them.

export {
  isStaffActionName,
  MANY_PEOPLE_ACTIONS,
  STAFF_ACTIONS,
  type StaffActionName,
} from './checks';

/** How the record is filtered (query string of GET, JSON body of the csv export). Dates are ISO instants. */
export const staffActionsFilter = type({
  /** The staff member: their username or account id, as a part of it. */
  'staff?': '0 < string <= 100',
  /** The person: their name, document number or id, as a part of it. */
  'person?': '0 < string <= 100',
  'action?': type.enumerated(...STAFF_ACTIONS),
  'from?': 'string.date.iso',
  'to?': 'string.date.iso',
});
export type StaffActionsFilter = typeof staffActionsFilter.infer;

export const staffAction = type({
  id: 'string',
  at: 'string',
  staff_id: 'string',
  staff_name: 'string | null',
  staff_roles: 'string[]',
  action: type.enumerated(...STAFF_ACTIONS),
  /** Whose data: a user record's or an account's id; null for an action on every person at once. */
  subject_id: 'string | null',
  /** The person's name while their record exists; null once it is gone (the record keeps only the id). */
  subject_name: 'string | null',
  request_id: 'string | null',
});
export type StaffAction = typeof staffAction.infer;

/** total is exact up to 10,000 matches; beyond, it is 10,000 and totalIsLowerBound is true (as the audit). */
export const staffActionsPage = type({
  items: staffAction.array(),
  total: 'number',
  totalIsLowerBound: 'boolean',
  pageIndex: 'number',
  pageSize: 'number',
});
export type StaffActionsPage = typeof staffActionsPage.infer;

/** The csv export's columns, in order (first line of the file). */
export const STAFF_ACTIONS_CSV_COLUMNS = [
  'at',
  'staff_id',
  'staff_name',
  'staff_roles',
  'action',
  'subject_id',
  'subject_name',
  'request_id',
] as const;

/**
 * What a person's data export says of a staff action on their data: when, what, and the role of who did it. The
 * staff member's name is not given: they act for the tenant, and the auditor, who sees it, answers a complaint.
 */
export const ownStaffAction = type({
  at: 'string',
  action: type.enumerated(...STAFF_ACTIONS),
  staff_roles: 'string[]',
});
export type OwnStaffAction = typeof ownStaffAction.infer;
