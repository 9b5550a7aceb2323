import { type } from 'arktype';
import { emailAddress } from './onboarding.ts';
import { requiredText, TEXT_LIMITS, text } from './text.ts';

// Visits (spec §3 Visit, New visit request, Facility; §4 statuses and history; §7 Visits): the request bodies,
// which the reference server (server/visits/routes.ts) validates with these very schemas, and the answers,
// which src/api/visits.ts parses with them.

export const VISIT_STATUSES = ['requested', 'accepted', 'checked_in', 'checked_out', 'cancelled'] as const;
export const visitStatus = type("'requested' | 'accepted' | 'checked_in' | 'checked_out' | 'cancelled'");
export type VisitStatus = typeof visitStatus.infer;

/** Spec §4 history events: requested by, approved by, checked in (by kiosk), arrived, checked out (by terminal), left, rejected, cancelled. */
export const HISTORY_ACTIONS = [
  'requested',
  'approved',
  'checked_in',
  'arrived',
  'checked_out',
  'left',
  'rejected',
  'cancelled',
] as const;
export const historyAction = type(
  "'requested' | 'approved' | 'checked_in' | 'arrived' | 'checked_out' | 'left' | 'rejected' | 'cancelled'",
);
export type HistoryAction = typeof historyAction.infer;

/** One history event: when, what, and who (a person's name, or 'automatic', 'kiosk', 'terminal'). */
export const visitHistoryEvent = type({
  datetime: 'string',
  action: historyAction,
  'actor?': 'string | null',
  'message?': 'string | null',
  'result?': 'string | null',
});
export type VisitHistoryEvent = typeof visitHistoryEvent.infer;

export const visitLocation = type({ facility_id: 'string', alias: 'string', timezone: 'string' });
export type VisitLocation = typeof visitLocation.infer;

export const visit = type({
  id: 'string',
  title: 'string',
  expected_at: 'string',
  leaving_at: 'string',
  host: { email: 'string', 'name?': 'string | null' },
  location: visitLocation,
  history: visitHistoryEvent.array(),
  status: visitStatus,
  /** The visitor's account id when the visitor has one. */
  visitor: 'string | null',
  visitorData: { name: 'string | null', email: 'string | null' },
  visitorProfile: { 'acs_id?': 'string | null', 'enrolled?': 'boolean' },
  guests: 'number',
  'extra_fields?': { '[string]': 'unknown' },
});
export type Visit = typeof visit.infer;

export const visitPage = type({ items: visit.array(), totalItems: 'number', 'bookmark?': 'string | null' });
export type VisitPage = typeof visitPage.infer;

/** Spec §3 New visit request: title, start_at, end_at, host, visitor, location, extra_fields.emergency_instructions. */
export const newVisitRequest = type({
  'title?': text(TEXT_LIMITS.text),
  start_at: requiredText(40),
  end_at: requiredText(40),
  host: emailAddress,
  visitor: { name: requiredText(TEXT_LIMITS.name), email: emailAddress },
  location: requiredText(TEXT_LIMITS.id),
  // As many as NewVisit allows (two digits); the column is an integer, so a huge number is refused here.
  'guests?': '0 <= number.integer <= 99',
  'extra_fields?': { 'emergency_instructions?': { accepted: 'boolean' } },
});
export type NewVisitRequest = typeof newVisitRequest.infer;

/** PUT /public/visits/{id}/checkin and /checkout: through reception's kiosk (ProcessVisit) or from the list. */
export const visitCheckBody = type({ 'via?': "'kiosk' | 'reception'" });
export type VisitCheckBody = typeof visitCheckBody.infer;

/** POST /public/visits/{id}/confirmation with the mailed token as bearer: the host's answer. */
export const visitConfirmationBody = type({ outcome: "'accept' | 'reject'" });
export type VisitConfirmationBody = typeof visitConfirmationBody.infer;

export const visitConfirmationResult = type({ id: 'string', status: visitStatus });
export type VisitConfirmationResult = typeof visitConfirmationResult.infer;

/** GET /public/visits/arrival?code=: today's visit of the person whose QR (or typed code) reception read. */
export const visitArrival = type({ visit: visit, person: { name: 'string', acs_id: 'string' } });
export type VisitArrival = typeof visitArrival.infer;

/** GET /public/visits/visitors/{userId} (reception): who NewVisit's visitor is, to fill the form (new-visit/{userId}). */
export const visitVisitor = type({ id: 'string', name: 'string', email: 'string' });
export type VisitVisitor = typeof visitVisitor.infer;

/** Spec §8 visit cancellation and confirmation refusals, and reception's (spec §2 ProcessVisit). */
export const VISIT_ERROR_CODES = [
  'visit_already_started',
  'visit_already_has_checkins',
  'visit_already_cancelled',
  'token_expired',
  'visit_already_accepted',
  'visit_already_rejected',
  'visit_not_accepted',
  'visit_already_checked_in',
  'visit_not_checked_in',
  'visit_not_today',
  'no_visit_today',
  'credential_not_valid',
] as const;
export type VisitErrorCode = (typeof VISIT_ERROR_CODES)[number];
