-- The source of a door's decision (spec §3 Audit access: enforcement source URL): the watchlist version whose entry
-- refused the person. Null when no list decided (granted, or refused before the lists were read).
alter table audit_accesses add column enforcement_watchlist_id uuid;

-- Watchlist uploads the server refused (spec §2 UploadWatchlistResult success false, §8 watchlist error page), so
-- that the result route (upload-watchlist-result/false/<id>) still says why after a reload. A stored upload is its
-- watchlist version (watchlists.watchlist_id), so both share one id space for the result route.
create table watchlist_upload_refusals (
  tenant text not null,
  upload_id uuid not null default gen_random_uuid(),
  legal_domain text,
  file_name text,
  uploaded_by text,
  code text not null,
  detail text,
  invalid_count integer,
  valid_count integer,
  created_at timestamptz not null default now(),
  primary key (tenant, upload_id)
);
create index watchlist_upload_refusals_time on watchlist_upload_refusals (tenant, created_at desc);
