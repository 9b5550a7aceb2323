// The SQL of ActivateUsers: where the assistant works, and the activation of a region's users. Every statement names
// the tenant.
import type { Queryable } from '../db/db';

/** Where the assistant works: the facility they are in charge of, else the one of their account's location. */
export async function facilityOfAssistant(db: Queryable, tenant: string, accountId: string) {
  const { rows } = await db.query<{ facility_id: string; alias: string }>(
    `select f.facility_id, f.alias from facilities f
       left join account_facilities af on af.tenant = f.tenant and af.facility_id = f.facility_id
                                       and af.account_id = $2
       left join accounts a on a.tenant = f.tenant and a.id::text = $2
                           and (a.location = f.facility_id or lower(a.location) = lower(f.alias))
      where f.tenant = $1 and (af.account_id is not null or a.id is not null)
      order by (af.account_id is not null) desc, f.alias limit 1`,
    [tenant, accountId],
  );
  return rows[0];
}

/**
 * Makes the region's users (those with that identity number, when one is given) active and adds the facility to
 * their locations; the ids of the users activated (none: nothing changed).
 */
export async function activateRegion(
  tx: Queryable,
  tenant: string,
  activation: { region: string; idNumber: string; facilityId: string; addedBy: string },
): Promise<string[]> {
  const { rows } = await tx.query<{ user_id: string }>(
    `update users set active = true
      where tenant = $1 and region = $2
        and ($3 = '' or upper(coalesce(id_number, '')) = $3 or upper(coalesce(nie, '')) = $3)
      returning user_id::text as user_id`,
    [tenant, activation.region, activation.idNumber],
  );
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.user_id);
  await tx.query(
    `insert into user_locations (tenant, user_id, facility_id, added_by)
     select $1, id::uuid, $2, $3 from unnest($4::text[]) as id
     on conflict do nothing`,
    [tenant, activation.facilityId, activation.addedBy, ids],
  );
  return ids;
}
