-- Staff portal: what a tenant administrator did to every user at once (spec §6 "Admins manage the tenant (activate,
-- deactivate, delete all users and data)"). Deleting all data is recorded here: who, when, and how many users and
-- images were removed. No personal data is kept in this table.
create table tenant_admin_actions (
  id bigint generated always as identity primary key,
  tenant text not null,
  action text not null check (action in ('delete_users', 'delete_all_data', 'credentials_active', 'credentials_inactive')),
  actor text not null,
  users integer not null,
  images integer not null,
  created_at timestamptz not null default now()
);
create index tenant_admin_actions_tenant on tenant_admin_actions (tenant, created_at desc);
