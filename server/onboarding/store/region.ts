// The region a person registers in (users.region; ActivateUsers, spec §2 "activate users of another region", §4 "users
// can be activated in a region"). A region is a legal domain of the tenant (spec §3: settings.watchlistDomains,
// "regional codes such as es-an, es-ct"); a facility may belong to one (facilities.legal_domain, migration 013).
// The registration takes place somewhere, and that place decides:
//   1. the facility the onboarding names as its location (POST /internal/onboardings location), when it has one;
//   2. else the facility of whoever registers the person: the assistant (assisted), the staff member (single, bulk,
//      delegated) or the person's own account (auto): the facilities they are in charge of (account_facilities),
//      then the facility of their account's location;
//   3. else the tenant's first legal domain, its home region (a tenant with one legal domain has no other choice).
import type { Queryable } from '../../db/db';

export interface RegionSource {
  /** The onboarding's location: a facility id or alias of the tenant. */
  location: string | null;
  /** The account (id) that registers the person: the assistant, the staff member, or the person themselves. */
  registeredBy: string | null;
}

export async function regionOf(
  q: Queryable,
  tenant: string,
  source: RegionSource,
  legalDomains: readonly string[],
): Promise<string | null> {
  const { rows } = await q.query<{ legal_domain: string }>(
    `select legal_domain from (
       select f.legal_domain, 1 as rank, f.alias from facilities f
        where f.tenant = $1 and $2::text is not null and (f.facility_id = $2 or lower(f.alias) = lower($2))
       union all
       select f.legal_domain, 2, f.alias from facilities f
         join account_facilities af on af.tenant = f.tenant and af.facility_id = f.facility_id and af.account_id = $3
        where f.tenant = $1
       union all
       select f.legal_domain, 3, f.alias from facilities f
         join accounts a on a.tenant = f.tenant and a.id::text = $3
                        and (a.location = f.facility_id or lower(a.location) = lower(f.alias))
        where f.tenant = $1
     ) places
     where legal_domain = any($4::text[])
     order by rank, alias limit 1`,
    [tenant, source.location?.trim() || null, source.registeredBy ?? '', [...legalDomains]],
  );
  return rows[0]?.legal_domain ?? legalDomains[0] ?? null;
}
