-- When the bytes a purge run deleted left the database files: the run's tables are rewritten (VACUUM FULL) later
-- than the deletion on the embedded database, at a quiet moment and at the latest a stated time after the run
-- (server/retention/job.ts). Null while a run that deleted rows still waits for that rewrite.
alter table retention_runs add column rewritten_at timestamptz;
-- The runs before this column rewrote their tables at the end of the run.
update retention_runs set rewritten_at = ended_at where deleted > 0;
create index retention_runs_unrewritten on retention_runs (ended_at) where deleted > 0 and rewritten_at is null;
