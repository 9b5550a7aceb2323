-- The record of every staff action on a person's data (server/staff-actions/): who (the staff account and the roles
-- its token held), when, what (a fixed list of action names), whose data and with which request. Written by the
-- API, never updated or deleted by it; the retention purge trims it after the tenant's retention.auditDays.
-- Whose data is an id only (a user record's id, or an account id where the route names an account): the person's
-- name or document is not copied here, so that deleting a person leaves nothing of them but an id in this record.
create table staff_actions (
  tenant text not null,
  id uuid not null default gen_random_uuid(),
  at timestamptz not null default now(),
  staff_id text not null,
  -- The staff member's username when the action happened: the record still says who after their account goes.
  staff_name text,
  staff_roles text[] not null,
  action text not null check (action in (
    'evidence.read', 'user.register', 'users.register_bulk', 'user.reenrol', 'account.create', 'user.activate', 'user.deactivate', 'user.cancel',
    'users.activate_all', 'users.deactivate_all', 'users.delete_all', 'data.delete_all', 'onboarding.complete',
    'credential.state', 'credential.location', 'credential.issue', 'users.activate_region', 'watchlist.upload', 'visit.check_in',
    'visit.check_out')),
  -- Null for an action on many people at once (delete all, activate all, a watchlist) and for a visitor with no account.
  subject_id text,
  request_id text,
  primary key (tenant, id)
);
create index staff_actions_at on staff_actions (tenant, at desc, id desc);
create index staff_actions_subject on staff_actions (tenant, subject_id) where subject_id is not null;

-- The purge records its trims of this record as their own kind.
alter table retention_runs drop constraint retention_runs_kind_check;
alter table retention_runs add constraint retention_runs_kind_check
  check (kind in ('evidence', 'unfinished_onboarding', 'audit', 'staff_actions'));
