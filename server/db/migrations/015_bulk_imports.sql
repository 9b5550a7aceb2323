-- Add users from photos (bulk import): one job per upload and one result per metadata row. The upload is answered
-- with the job's id at once; the rows are registered one by one (each in its own transaction) and the portal polls
-- the job. Only the staff member who started a job sees it (another's or another tenant's is a 404).
create table bulk_imports (
  tenant text not null,
  job_id uuid not null default gen_random_uuid(),
  created_by text not null,
  total integer not null,
  status text not null default 'running' check (status in ('running', 'done', 'failed')),
  created_at timestamptz not null default now(),
  -- Moved on by every row: a running job whose process stopped (a restart) stops moving and is reported failed.
  updated_at timestamptz not null default now(),
  finished_at timestamptz,
  primary key (tenant, job_id)
);
create index bulk_imports_created_by on bulk_imports (tenant, created_by, created_at desc);

create table bulk_import_rows (
  tenant text not null,
  job_id uuid not null,
  row_number integer not null,
  email text not null,
  outcome text not null check (outcome in ('accepted', 'rejected')),
  reason text,
  field text,
  code smallint not null default 0,
  user_id text,
  primary key (tenant, job_id, row_number),
  foreign key (tenant, job_id) references bulk_imports (tenant, job_id) on delete cascade
);
