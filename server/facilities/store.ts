// The SQL of the facilities list: every statement names the tenant.
import type { FacilityList } from '../../contract/api/facilities';
import type { Queryable } from '../db/db';

/** The tenant's facilities by alias; with `accountId`, only those that account is in charge of (account_facilities). */
export async function listFacilities(db: Queryable, tenant: string, accountId: string | null) {
  const { rows } = await db.query<FacilityList[number]>(
    `select f.facility_id, f.alias, f.timezone from facilities f
      where f.tenant = $1
        and ($2::text is null or exists (select 1 from account_facilities a
              where a.tenant = f.tenant and a.facility_id = f.facility_id and a.account_id = $2))
      order by f.alias, f.facility_id`,
    [tenant, accountId],
  );
  return rows;
}
