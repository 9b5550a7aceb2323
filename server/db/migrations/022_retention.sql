-- Retention of biometric evidence per tenant (settings retention.*, server/retention/): what each purge run deleted,
-- and which of a user's evidence images the retention rule deleted, so that staff screens say so instead of
-- "no such image".

-- One row per run, tenant and kind of data: how many rows went, and when the run started and ended.
create table retention_runs (
  run_id uuid not null,
  tenant text not null,
  kind text not null check (kind in ('evidence', 'unfinished_onboarding', 'audit')),
  deleted integer not null,
  started_at timestamptz not null,
  ended_at timestamptz not null,
  primary key (run_id, tenant, kind)
);
create index retention_runs_started on retention_runs (started_at desc);

-- An evidence image (user_evidences) deleted by the retention rule: the image has left, the user's outcome and
-- scores stay on the user. A new image of the same kind (re-enrolment) makes this row moot; the detail ignores it.
create table evidence_deletions (
  tenant text not null,
  user_id uuid not null,
  kind text not null check (kind in ('obverse', 'reverse', 'selfie')),
  deleted_at timestamptz not null,
  deleted_by text not null check (deleted_by in ('retention')),
  primary key (tenant, user_id, kind),
  foreign key (tenant, user_id) references users (tenant, user_id) on delete cascade
);

-- The purge looks for what is older than a day count, per tenant.
create index user_evidences_created on user_evidences (tenant, created_at);
create index portrayal_images_created on portrayal_images (tenant, created_at);
create index onboardings_unfinished on onboardings (tenant, updated_at) where status <> 'completed';
