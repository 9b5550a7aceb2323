-- State that several server processes behind one load balancer must share: what used to live in one process's memory
-- and would answer differently in another.

-- The login throttle's counters (server/auth/throttle.ts): failures per account and per address of a tenant.
create table login_throttle (
  tenant text not null,
  -- 'account|<username>' or 'address|<client address>'
  key text not null,
  failures integer not null,
  last_at timestamptz not null,
  primary key (tenant, key)
);
create index login_throttle_last_at on login_throttle (last_at);

-- Development fault switches (POST /api/dev/faults/<name>): a row means the switch is on for the tenant.
create table fault_switches (
  tenant text not null,
  name text not null,
  switched_at timestamptz not null default now(),
  primary key (tenant, name)
);
