// Development data of the audit: the seeded `assistant` is in charge of the tenant's first facility
// (post_accesses_myscope sees only it), and a month of door decisions across the seeded users' credentials and the
// tenant's facilities, so that AuditAccesses shows something on a new `npm start`. Deterministic: the n-th access
// picks its credential, facility, time and outcome from n.
import type { Seeder } from '../db/seeder';

/** Accesses seeded per tenant (about a hundred a day over 30 days). */
export const SEED_ACCESSES = 3000;

export const seedAudit: Seeder = async (tx, tenant) => {
  await tx.query(
    `insert into account_facilities (tenant, account_id, facility_id)
     select a.tenant, a.id::text, f.facility_id from accounts a
       join lateral (select facility_id from facilities where tenant = a.tenant order by alias limit 1) f on true
      where a.tenant = $1 and a.username = 'assistant'
     on conflict do nothing`,
    [tenant],
  );
  const existing = await tx.query('select 1 from audit_accesses where tenant = $1 limit 1', [tenant]);
  if (existing.rows.length > 0) return;
  // Reasons of the denied ones, in turn: most are granted (n % 9 != 0).
  await tx.query(
    `with creds as (
       select row_number() over (order by c.sid) - 1 as k, c.sid, c.credential_type, u.*
         from credentials c join users u on u.tenant = c.tenant and u.user_id = c.user_id
        where c.tenant = $1 and c.credential_type in ('qr', 'embedding')),
     facs as (select row_number() over (order by alias) - 1 as k, facility_id from facilities where tenant = $1),
     counts as (select (select count(*) from creds) as nc, (select count(*) from facs) as nf),
     picks as (
       select n, (n * 7919) % counts.nc as ck, (n * 31) % counts.nf as fk,
              now() - ((n::double precision / $2) * interval '30 days') - ((n * 37) % 3600) * interval '1 second' as at,
              case when n % 9 = 0 then (array['credential_expired', 'credential_revoked', 'user_inactive', 'user_interdicted'])[1 + (n / 9) % 4]
                   else 'granted' end as reason
         from generate_series(1, $2) as n, counts where counts.nc > 0 and counts.nf > 0)
     insert into audit_accesses (tenant, created_at, facility_id, user_id, sid, credential_type, doc_type, granted, reason,
         enforcement_source, first_name, last_name, birth_date, document_type, document_number, id_number,
         registration_date, watchlists_check_mode, watchlists_checked, enforcement_watchlist_id)
     select $1, p.at, f.facility_id, c.user_id, c.sid::text, c.credential_type,
            case when p.reason = 'granted' then 'access' else 'denied' end, p.reason = 'granted', p.reason,
            case when p.reason in ('granted', 'user_interdicted') then 'reference-watchlists' end,
            c.first_name, c.last_name, c.birth_date, c.document_type, c.document_number, c.id_number, c.onboarding_date,
            case when p.reason in ('granted', 'user_interdicted') then 'interdicted' end,
            case when p.reason in ('granted', 'user_interdicted') then $3::text[] else '{}'::text[] end,
            -- The list that refused them: the tenant's seeded list (its entry stands for whoever was on it then).
            case when p.reason = 'user_interdicted' then (select w.watchlist_id from watchlists w
              where w.tenant = $1 and w.current order by w.legal_domain limit 1) end
       from picks p join creds c on c.k = p.ck join facs f on f.k = p.fk`,
    [
      tenant,
      SEED_ACCESSES,
      tenant === 'demo' ? ['es-demo'] : ['es-an', 'es-ct', 'es-cn', 'es-nc', 'es-ri', 'es-mc'],
    ],
  );
  // Planner statistics (PGlite runs no autovacuum): without them the unfiltered audit page is ten times slower.
  await tx.query('analyze audit_accesses');
};
