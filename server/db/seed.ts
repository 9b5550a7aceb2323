import { seedAudit } from '../audit/seed';
import { seedAccounts } from '../auth/accounts';
import { seedProhibitedList } from '../onboarding/seed';
import { seedVisits } from '../visits/seed';
import type { Db } from './db';
import { seedPeople } from './seed-people';
import { seedRegions } from './seed-regions';
import { seedStaffUsers } from './seed-users';
import type { Seeder, TenantSeed } from './seeder';

export const SEED_DATA: Readonly<Record<string, TenantSeed>> = {
  gambling: {
    facilities: [
      { alias: 'Casino Gran Vía', timezone: 'Europe/Madrid' },
      { alias: 'Sala Bilbao', timezone: 'Europe/Madrid' },
      { alias: 'Sala Las Palmas', timezone: 'Atlantic/Canary', legalDomain: 'es-cn' },
    ],
  },
  demo: {
    facilities: [
      { alias: 'Demo HQ', timezone: 'Europe/Madrid' },
      { alias: 'Demo Lab', timezone: 'Europe/Lisbon' },
      { alias: 'Demo Warehouse', timezone: 'Europe/Madrid' },
    ],
  },
};

const seedFacilities: Seeder = async (tx, tenant, data) => {
  for (const facility of data.facilities) {
    await tx.query(
      `insert into facilities (tenant, alias, timezone, legal_domain) values ($1, $2, $3, $4)
       on conflict (tenant, alias) do nothing`,
      [tenant, facility.alias, facility.timezone, facility.legalDomain ?? null],
    );
  }
};

// Accounts come before what refers to them (the enrolled accounts' user records and credentials).
export const SEEDERS: readonly Seeder[] = [
  seedFacilities,
  seedAccounts,
  seedPeople,
  seedStaffUsers,
  seedRegions,
  seedProhibitedList,
  seedVisits,
  seedAudit,
];

/**
 * SEED_ACCOUNT_TENANTS=a,b: tenants without seed data of their own that still get the seeded accounts (and
 * SEED_NEWCOMERS), nothing else: the browser journeys' tenants that exist only for a setting the shipped ones do not
 * have (tests/fixtures/tenants/), where a newcomer walks the enrolment.
 */
export const accountOnlyTenants = (env: NodeJS.ProcessEnv = process.env): string[] =>
  (env.SEED_ACCOUNT_TENANTS ?? '')
    .split(',')
    .map((tenant) => tenant.trim())
    .filter(Boolean);

export interface SeedOptions {
  /** From migrate(): only a database created by this start is seeded. */
  isNewDb: boolean;
  nodeEnv?: string | undefined;
  /** The shipped tenants; tenants without seed data are left empty. */
  tenants: readonly string[];
}

export type SeedOutcome = 'seeded' | 'skipped-production' | 'skipped-existing';

export async function seed(db: Db, options: SeedOptions): Promise<SeedOutcome> {
  if (options.nodeEnv === 'production') return 'skipped-production';
  if (!options.isNewDb) return 'skipped-existing';
  const accountsOnly = accountOnlyTenants();
  for (const tenant of options.tenants) {
    const data = SEED_DATA[tenant];
    if (data) {
      await db.transaction(async (tx) => {
        for (const seeder of SEEDERS) await seeder(tx, tenant, data);
      });
    } else if (accountsOnly.includes(tenant)) {
      await db.transaction((tx) => seedAccounts(tx, tenant, { facilities: [] }));
    }
  }
  return 'seeded';
}
