-- The development identity provider (spec §3 IAM account; §7 identity provider). Every row carries its tenant.

-- IAM accounts: id, username, firstName, lastName, email, createdTimestamp, onboarding_status (spec §3), plus
-- what the provider needs to sign people in and to put in their tokens.
create table accounts (
  tenant text not null,
  id uuid not null default gen_random_uuid(),
  username text not null,
  first_name text,
  last_name text,
  email text,
  -- scrypt$N$r$p$salt$hash (server/auth/passwords.ts); null for an account that cannot sign in yet.
  password_hash text,
  -- Role names of server/auth/roles.ts; the token carries the permission strings they map to.
  roles text[] not null default '{}',
  enrolled boolean not null default false,
  acs_id text,
  -- The person's location (spec §3 Session: profile).
  location text,
  locale text,
  onboarding_status text not null default 'none' check (onboarding_status in ('none', 'incompleted', 'completed')),
  created_at timestamptz not null default now(),
  primary key (tenant, id)
);
create unique index accounts_username on accounts (tenant, lower(username));
create unique index accounts_email on accounts (tenant, lower(email)) where email is not null;

-- Password reset links: only the hash of the token is kept.
create table password_resets (
  tenant text not null,
  token_hash text not null,
  account_id uuid not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (tenant, token_hash),
  foreign key (tenant, account_id) references accounts (tenant, id) on delete cascade
);

-- Mail the portal sends (password reset links); shown at /dev/mailbox outside production.
create table outbox (
  tenant text not null,
  mail_id uuid not null default gen_random_uuid(),
  recipient text not null,
  subject text not null,
  body text not null,
  link text,
  created_at timestamptz not null default now(),
  primary key (tenant, mail_id)
);

-- oidc-provider's models (sessions, grants, codes, refresh tokens, interactions…), one row per entity.
create table oidc_payloads (
  tenant text not null,
  model text not null,
  id text not null,
  payload jsonb not null,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  primary key (tenant, model, id)
);
create index oidc_payloads_grant on oidc_payloads (tenant, grant_id);
create index oidc_payloads_uid on oidc_payloads (tenant, model, uid);

-- Signing keys (JWKS) and cookie keys of each tenant's provider, made on first start.
create table idp_keys (
  tenant text not null primary key,
  jwks jsonb not null,
  cookie_keys jsonb not null,
  created_at timestamptz not null default now()
);
