// Regions and locations of the seeded users: each user registered in one region of the tenant (a legal domain of
// settings.watchlistDomains) and holds one location (a facility), so that ActivateUsers has users of other regions
// to activate and PortalUserDetail's credentials tab shows a location on a new `npm start`.
import type { Seeder } from './seeder';

/** The legal domains of the shipped tenants (public/tenants/<tenant>/settings.json watchlistDomains). */
export const SEED_REGIONS: Readonly<Record<string, readonly string[]>> = {
  gambling: ['es-an', 'es-ct', 'es-cn', 'es-nc', 'es-ri', 'es-mc'],
  demo: ['es-demo'],
};

export const seedRegions: Seeder = async (tx, tenant) => {
  const regions = SEED_REGIONS[tenant] ?? [tenant];
  // The n-th user (oldest first) registered in the n-th region, round robin; the same for the facilities.
  await tx.query(
    `with numbered as (
       select user_id, row_number() over (order by created_at, user_id) - 1 as n from users where tenant = $1)
     update users u set region = ($2::text[])[(n % cardinality($2::text[]))::int + 1]
       from numbered where u.tenant = $1 and u.user_id = numbered.user_id and u.region is null`,
    [tenant, regions],
  );
  await tx.query(
    `with numbered as (
       select user_id, row_number() over (order by created_at, user_id) - 1 as n from users where tenant = $1),
     facs as (
       select facility_id, row_number() over (order by alias) - 1 as k, count(*) over () as total
         from facilities where tenant = $1)
     insert into user_locations (tenant, user_id, facility_id, added_by)
     select $1, numbered.user_id, facs.facility_id, 'seed' from numbered join facs on facs.k = numbered.n % facs.total
     on conflict do nothing`,
    [tenant],
  );
};
