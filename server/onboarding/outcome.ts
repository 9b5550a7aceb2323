// Registration rules (spec §8 registration failure reasons), computed from the confirmed data and the
// database: underage, expired document, failed liveness, already registered, document in use, prohibited list.
import type { Queryable } from '../db/db';

export type RegistrationReason =
  | 'underaged'
  | 'user_interdicted'
  | 'document_expired'
  | 'life_proofing_failed'
  | 'user_already_registered'
  | 'document_already_exists'
  | 'enforcement_source_unavailable';

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

export interface PersonData {
  first_name: string;
  last_name: string;
  birth_date: string;
  document_number: string;
  id_number: string | null;
}

export class EnforcementUnavailableError extends Error {
  constructor() {
    super('the prohibited-list service is unavailable');
    this.name = 'EnforcementUnavailableError';
  }
}

export interface EnforcementMatch {
  legal_domain: string;
}

/** The prohibited-list service (the external enforcement source in production). */
export interface EnforcementSource {
  /** The match, or null when the person is not on any list; throws EnforcementUnavailableError. */
  check(
    db: Queryable,
    tenant: string,
    legalDomains: string[],
    person: PersonData,
  ): Promise<EnforcementMatch | null>;
}

/** Fault switches of the reference services (ENFORCEMENT_FAULT=1 or POST /api/dev/faults/enforcement). */
export interface Faults {
  enforcement: boolean;
}

/**
 * The prohibited_list table of the tenant, restricted to its legal domains: a match on document number, on
 * id number, or on first name, last name and birth date together (names compared without case).
 */
export function referenceEnforcement(faults: Faults): EnforcementSource {
  return {
    async check(db, tenant, legalDomains, person) {
      if (faults.enforcement) throw new EnforcementUnavailableError();
      const { rows } = await db.query<EnforcementMatch>(
        `select legal_domain from prohibited_list
          where tenant = $1 and legal_domain = any($2::text[])
            and (upper(document_number) = upper($3)
              or ($4::text is not null and upper(id_number) = upper($4))
              or (birth_date = $5::date and lower(first_name) = lower($6) and lower(last_name) = lower($7)))
          limit 1`,
        [
          tenant,
          legalDomains,
          person.document_number,
          person.id_number,
          person.birth_date,
          person.first_name.trim(),
          person.last_name.trim(),
        ],
      );
      return rows[0] ?? null;
    },
  };
}
