// The visit rules the routes apply (spec §4 actions, §8 refusals): who is reception, who did it, and why a visit
// cannot move.
import type { AccessTokenClaims } from '../../contract/api/access-token';
import type { VisitStatus } from '../../contract/api/visits';
import type { StoredVisit } from './store';

export const RECEPTION = 'post_visits_all';
export const VISITOR = 'post_visits_me';

export const isReception = (claims: AccessTokenClaims) => claims.roles.includes(RECEPTION);

export const sameEmail = (a: string | null | undefined, b: string | null | undefined) =>
  Boolean(a && b && a.trim().toLowerCase() === b.trim().toLowerCase());

/** Who did it, for the history: the person's name as the token says, else their username or email. */
export const actorOf = (claims: AccessTokenClaims) =>
  claims.name?.trim() || claims.preferred_username || claims.email || claims.sub;

export type Refusal =
  | 'visit_already_started'
  | 'visit_already_has_checkins'
  | 'visit_already_cancelled'
  | 'visit_not_accepted'
  | 'visit_already_checked_in'
  | 'visit_not_checked_in'
  | 'visit_not_today'
  | 'visit_already_accepted'
  | 'visit_already_rejected';

/** The reasons of spec §8, read by the portal from the response (detail) and by code. */
export const REFUSALS: Record<Refusal, string> = {
  visit_already_started: 'The visit has already started; it can no longer be cancelled.',
  visit_already_has_checkins: 'The visit already has check-ins; it can no longer be cancelled.',
  visit_already_cancelled: 'The visit has been cancelled.',
  visit_not_accepted: 'The host has not accepted the visit yet.',
  visit_already_checked_in: 'The visitor has already checked in.',
  visit_not_checked_in: 'The visitor has not checked in.',
  visit_not_today: "Check-in is for today's visits only.",
  visit_already_accepted: 'The visit has already been accepted.',
  visit_already_rejected: 'The visit has already been rejected.',
};

export function checkInRefusal(status: VisitStatus): Refusal | null {
  switch (status) {
    case 'accepted':
      return null;
    case 'requested':
      return 'visit_not_accepted';
    case 'checked_in':
    case 'checked_out':
      return 'visit_already_checked_in';
    case 'cancelled':
      return 'visit_already_cancelled';
  }
}

/** Why the host can no longer answer a visit that is not waiting for them. */
export function answeredRefusal(visit: StoredVisit): Refusal {
  if (visit.history.some((h) => h.action === 'rejected')) return 'visit_already_rejected';
  return visit.status === 'cancelled' ? 'visit_already_cancelled' : 'visit_already_accepted';
}

/** Which of a person's visits of the day reception is shown first: one under way, then accepted, then asked. */
export const ARRIVAL_RANK: Record<VisitStatus, number> = {
  checked_in: 0,
  accepted: 1,
  requested: 2,
  checked_out: 3,
  cancelled: 9,
};
