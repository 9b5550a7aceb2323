// The shape of a seed step, below both the seed runner (./seed.ts) and the seeders of each area
// (server/auth/accounts.ts, server/onboarding/seed.ts), so that none of them imports the other's module.
import type { Queryable } from './db';

export interface SeedFacility {
  alias: string;
  timezone: string;
  /** The legal domain (region) of the facility; none: it reads every list and registers in the home region. */
  legalDomain?: string;
}

/** Development data per tenant; accounts (server/auth/accounts.ts) and prohibited entries have seeders of their own. */
export interface TenantSeed {
  facilities: SeedFacility[];
}

/** One step of the seed; steps run in order inside one transaction per tenant. */
export type Seeder = (tx: Queryable, tenant: string, data: TenantSeed) => Promise<void>;
