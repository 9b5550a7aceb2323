// Registration rules (spec §8 registration failure reasons): whether a confirmed registration is accepted, from
// the data the person confirmed and the facts the confirmation looked up. Pure: no database, no clock.
import type { RegistrationPayload, RegistrationReason, Verification } from '../../contract/api/onboarding';

export const ADULT_AGE = 18;

/** Whole years from birth (YYYY-MM-DD) to today (YYYY-MM-DD); a 29 February birthday comes on 1 March. */
export function ageOn(birthDate: string, today: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  let age = ty - by;
  if (tm < bm || (tm === bm && td < bd)) age--;
  return age;
}

/** A document is expired the day after its expiry date. */
export function isExpired(expiryDate: string | null | undefined, today: string): boolean {
  return !!expiryDate && expiryDate < today;
}

export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** What the prohibited-list service answered: no match, a match, or no answer at all. */
export type EnforcementAnswer = 'clear' | 'match' | 'unavailable';

/** What the confirmation looked up before deciding. */
export interface RegistrationFacts {
  /** The onboarding requires a liveness proof, and what that proof gave (null: none was judged). */
  lifeProofing: boolean;
  liveness: Verification | null;
  /** The account being enrolled already has a user record. */
  alreadyRegistered: boolean;
  /** Another user holds the same document number. */
  documentInUse: boolean;
  enforcement: EnforcementAnswer;
}

export type RegistrationDecision = 'accepted' | RegistrationReason;

/**
 * The first reason that refuses the registration, in this order: underaged, document_expired,
 * life_proofing_failed, user_already_registered, document_already_exists, user_interdicted,
 * enforcement_source_unavailable (the prohibited list is asked last; its outage only matters when nothing
 * else refuses the person). 'accepted' when none applies.
 */
export function registrationOutcome(
  data: Pick<RegistrationPayload, 'birth_date' | 'expiry_date'>,
  facts: RegistrationFacts,
  now: Date,
): RegistrationDecision {
  const today = isoDay(now);
  if (ageOn(data.birth_date, today) < ADULT_AGE) return 'underaged';
  if (isExpired(data.expiry_date, today)) return 'document_expired';
  // The reference engine cannot judge head movements ('not_computed'); only a failed or missing proof refuses.
  if (facts.lifeProofing && facts.liveness !== 'passing' && facts.liveness !== 'not_computed') {
    return 'life_proofing_failed';
  }
  if (facts.alreadyRegistered) return 'user_already_registered';
  if (facts.documentInUse) return 'document_already_exists';
  if (facts.enforcement === 'match') return 'user_interdicted';
  if (facts.enforcement === 'unavailable') return 'enforcement_source_unavailable';
  return 'accepted';
}
