// The SQL of the enforcement source: the reference backend's watchlist match, and the fault switches of
// development. Every statement names the tenant.
import type { Queryable } from '../db/db';

export interface ProhibitedPerson {
  first_name: string;
  last_name: string;
  birth_date: string;
  document_number: string;
  id_number: string | null;
}

/**
 * The legal domain of an entry of a current watchlist (migration 013) of the tenant, restricted to its legal domains, that matches on
 * document number, on id number, or on first name, last name and birth date together (names without case).
 */
export async function findProhibitedMatch(
  q: Queryable,
  tenant: string,
  legalDomains: string[],
  person: ProhibitedPerson,
): Promise<{ legal_domain: string; watchlist_id: string } | null> {
  const { rows } = await q.query<{ legal_domain: string; watchlist_id: string }>(
    `select w.legal_domain, w.watchlist_id::text as watchlist_id from watchlist_entries e
       join watchlists w on w.tenant = e.tenant and w.watchlist_id = e.watchlist_id and w.current
      where e.tenant = $1 and w.legal_domain = any($2::text[])
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
}

/** Whether the fault is switched on for the tenant in the database (POST /api/dev/faults/<name>). */
export async function faultSwitchedOn(db: Queryable, tenant: string, name: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from fault_switches where tenant = $1 and name = $2', [
    tenant,
    name,
  ]);
  return rows.length > 0;
}

/** Switches a fault on or off for the tenant (development only). */
export async function switchFault(db: Queryable, tenant: string, name: string, on: boolean): Promise<void> {
  await db.query(
    on
      ? 'insert into fault_switches (tenant, name) values ($1, $2) on conflict do nothing'
      : 'delete from fault_switches where tenant = $1 and name = $2',
    [tenant, name],
  );
}
