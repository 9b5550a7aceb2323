-- Prohibited lists per tenant and legal domain (spec §3 Watchlist upload, §7 Enforcement and watchlists) and the
-- access audit (spec §3 Audit access). Replaces prohibited_list: each upload is a new watchlist version of its
-- legal domain, stored whole in one transaction; the previous version is kept (current = false).
create table watchlists (
  tenant text not null,
  watchlist_id uuid not null default gen_random_uuid(),
  legal_domain text not null,
  watch_type text not null default 'interdicted' check (watch_type in ('interdicted')),
  uploaded_by text,
  file_name text,
  row_count integer not null default 0,
  current boolean not null default true,
  created_at timestamptz not null default now(),
  primary key (tenant, watchlist_id)
);
create unique index watchlists_current on watchlists (tenant, legal_domain) where current;

create table watchlist_entries (
  tenant text not null,
  watchlist_id uuid not null,
  entry_id uuid not null default gen_random_uuid(),
  id_number text,
  document_number text,
  first_name text,
  last_name text,
  birth_date date,
  primary key (tenant, entry_id),
  foreign key (tenant, watchlist_id) references watchlists (tenant, watchlist_id) on delete cascade
);
create index watchlist_entries_id_number on watchlist_entries (tenant, upper(id_number));
create index watchlist_entries_document on watchlist_entries (tenant, upper(document_number));
create index watchlist_entries_list on watchlist_entries (tenant, watchlist_id);

insert into watchlists (tenant, legal_domain, uploaded_by, file_name, row_count)
  select tenant, legal_domain, 'migration', 'prohibited_list', count(*)::int
    from prohibited_list group by tenant, legal_domain;
insert into watchlist_entries (tenant, watchlist_id, id_number, document_number, first_name, last_name, birth_date)
  select p.tenant, w.watchlist_id, p.id_number, p.document_number, p.first_name, p.last_name, p.birth_date
    from prohibited_list p join watchlists w on w.tenant = p.tenant and w.legal_domain = p.legal_domain and w.current;
drop table prohibited_list;

-- A facility's legal domain (null: every legal domain of the tenant) decides which lists its doors read.
alter table facilities add column legal_domain text;

-- The facilities a staff account with post_accesses_myscope is in charge of.
create table account_facilities (
  tenant text not null,
  account_id text not null,
  facility_id text not null,
  primary key (tenant, account_id, facility_id),
  foreign key (tenant, facility_id) references facilities (tenant, facility_id) on delete cascade
);

-- Every decision of a door (POST /internal/accesses) and of an interdiction check, with its reason and a copy of
-- the entity as it was then (the user may be deleted later; the audit stays).
create table audit_accesses (
  tenant text not null,
  access_id uuid not null default gen_random_uuid(),
  created_at timestamptz not null default now(),
  facility_id text not null,
  user_id uuid,
  sid text,
  credential_type text,
  -- spec §3: 'access' means the attempt was accepted.
  doc_type text not null,
  granted boolean not null,
  reason text not null,
  enforcement_source text,
  first_name text,
  last_name text,
  birth_date date,
  document_type text,
  document_number text,
  id_number text,
  registration_date timestamptz,
  watchlists_check_mode text,
  watchlists_checked text[] not null default '{}',
  primary key (tenant, access_id),
  -- A facility removed takes its audit with it (the list joins facilities for the alias).
  foreign key (tenant, facility_id) references facilities (tenant, facility_id) on delete cascade
);
create index audit_accesses_time on audit_accesses (tenant, created_at desc, access_id);
create index audit_accesses_facility_time on audit_accesses (tenant, facility_id, created_at desc, access_id);
