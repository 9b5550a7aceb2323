-- Credential reset requests (spec §2 ResetCredentials): a person who lost access asks by email; the mail carries a
-- link whose token is kept only as its hash, expires after 30 minutes and works once. Redeeming it (signed in as the
-- same account) revokes every credential of the person and issues a new 15-day QR.
create table credential_resets (
  tenant text not null,
  token_hash text not null,
  account_id uuid not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (tenant, token_hash),
  foreign key (tenant, account_id) references accounts (tenant, id) on delete cascade
);
create index credential_resets_account on credential_resets (tenant, account_id);
