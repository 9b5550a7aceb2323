-- Visit confirmation links (spec §2 VisitConfirmation, §8 token_expired): the host's mailed token is signed with
-- the tenant's key below (HMAC-SHA256), names the visit and when it expires. A token works once because the
-- visit leaves 'requested' when it is used (visit_already_accepted / visit_already_rejected afterwards).
create table visit_token_keys (
  tenant text primary key,
  secret text not null,
  created_at timestamptz not null default now()
);
