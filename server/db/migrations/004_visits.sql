-- Visits (spec §3 Visit, New visit request; §4 Visit statuses, history events). Every row carries its tenant.
-- Created here so that the account-deletion rule "refused on a visit in progress" (spec §8) and the visits
-- area read one table; the visits area may add columns in later migrations.
create table visits (
  tenant text not null,
  visit_id uuid not null default gen_random_uuid(),
  title text not null,
  expected_at timestamptz not null,
  leaving_at timestamptz not null,
  -- The host is named by email (spec §5: "host email must be found"); host_account_id is that account.
  host_email text not null,
  host_account_id uuid,
  facility_id text not null,
  -- The visitor: an account of the tenant when known, and the name and email typed on the form.
  visitor_account_id uuid,
  visitor_name text,
  visitor_email text,
  guests integer not null default 0 check (guests >= 0),
  status text not null check (status in ('requested', 'accepted', 'checked_in', 'checked_out', 'cancelled')),
  extra_fields jsonb not null default '{}'::jsonb,
  created_by uuid,
  created_at timestamptz not null default now(),
  primary key (tenant, visit_id),
  foreign key (tenant, facility_id) references facilities (tenant, facility_id)
);
create index visits_expected on visits (tenant, expected_at);
create index visits_visitor on visits (tenant, visitor_account_id);
create index visits_host on visits (tenant, lower(host_email));

-- A visit's history (spec §4: requested by, approved by, checked in, arrived, checked out, left, rejected,
-- cancelled), in order; actor is who did it (an account, 'automatic', 'kiosk' or 'terminal').
create table visit_history (
  tenant text not null,
  visit_id uuid not null,
  seq integer not null,
  datetime timestamptz not null default now(),
  action text not null,
  actor text,
  message text,
  result text,
  primary key (tenant, visit_id, seq),
  foreign key (tenant, visit_id) references visits (tenant, visit_id) on delete cascade
);
