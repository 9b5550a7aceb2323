// The prohibited-list service (spec §8 user_interdicted, enforcement_source_unavailable): an external enforcement
// source in production, the tenant's current watchlists in the reference backend. The enrolment asks it before it
// registers a person, the access audit at every door and interdiction check; neither owns it.
import type { Queryable } from '../db/db';
import { faultSwitchedOn, findProhibitedMatch, type ProhibitedPerson } from './store';

export type PersonData = ProhibitedPerson;

export class EnforcementUnavailableError extends Error {
  constructor() {
    super('the prohibited-list service is unavailable');
    this.name = 'EnforcementUnavailableError';
  }
}

export interface EnforcementMatch {
  legal_domain: string;
  /** The watchlist version that holds the person (the reference source); an external source may not say. */
  watchlist_id?: string;
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

/**
 * Fault switches of the reference services forced on for every tenant by this process's settings
 * (ENFORCEMENT_FAULT=1; every process of a cluster gets the same environment). The switch that
 * POST /api/dev/faults/enforcement flips is a row of fault_switches, so every process sees it.
 */
export interface Faults {
  enforcement: boolean;
}

export type FaultName = keyof Faults;

/** Whether a fault is on for the tenant: forced by the settings, or switched on in the database. */
export async function faultOn(
  db: Queryable,
  faults: Faults,
  tenant: string,
  name: FaultName,
): Promise<boolean> {
  return faults[name] || (await faultSwitchedOn(db, tenant, name));
}

/** The tenant's current watchlists restricted to its legal domains; unavailable while the fault switch is on. */
export function referenceEnforcement(faults: Faults): EnforcementSource {
  return {
    async check(db, tenant, legalDomains, person) {
      if (await faultOn(db, faults, tenant, 'enforcement')) throw new EnforcementUnavailableError();
      return findProhibitedMatch(db, tenant, legalDomains, person);
    },
  };
}
