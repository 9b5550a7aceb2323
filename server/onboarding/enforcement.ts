// The prohibited-list service (spec §8 user_interdicted, enforcement_source_unavailable): an external
// enforcement source in production, the tenant's current watchlists (server/audit) in the reference backend.
import type { Queryable } from '../db/db';
import { findProhibitedMatch, type ProhibitedPerson } from './store/registration';

export type PersonData = ProhibitedPerson;

export class EnforcementUnavailableError extends Error {
  constructor() {
    super('the prohibited-list service is unavailable');
    this.name = 'EnforcementUnavailableError';
  }
}

export interface EnforcementMatch {
  legal_domain: string;
}

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

/** The tenant's current watchlists restricted to its legal domains; unavailable while the fault switch is on. */
export function referenceEnforcement(faults: Faults): EnforcementSource {
  return {
    async check(db, tenant, legalDomains, person) {
      if (faults.enforcement) throw new EnforcementUnavailableError();
      return findProhibitedMatch(db, tenant, legalDomains, person);
    },
  };
}
