-- Facilities (spec: Facility facility_id, alias, timezone). Every row belongs to one tenant.
create table facilities (
  tenant text not null,
  facility_id text not null default gen_random_uuid()::text,
  alias text not null,
  timezone text not null,
  created_at timestamptz not null default now(),
  primary key (tenant, facility_id),
  unique (tenant, alias)
);
