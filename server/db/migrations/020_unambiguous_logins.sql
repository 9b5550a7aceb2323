-- A person signs in, and asks for a password reset, with their username or their email: a login must name one
-- account and only one. So no account's username or email may be another account's username or email, compared
-- without case or accents (Vera, vera and Véra are one login). Without this, staff could create an account whose
-- username is someone else's email and take that person's sign-in and password resets.

-- The form a login is compared in: trimmed, compatibility-decomposed (so accents become separate marks and look-alike
-- forms such as ligatures or full-width letters become plain letters), lower case, without the combining marks. The
-- server compares logins with this same function (server/auth/logins.ts).
create function login_key(value text) returns text
  language sql immutable strict parallel safe
  as $$
    select regexp_replace(lower(normalize(btrim(value), NFKD)),
      '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]', '', 'g')
  $$;

-- Every login of every account, once: an account's username and its email (one row when they are the same login).
-- The key is what enforces the rule, across both columns and between concurrent writers (a unique index on each
-- column alone cannot see a username equal to another row's email).
create table account_logins (
  tenant text not null,
  login text not null,
  account_id uuid not null,
  primary key (tenant, login),
  foreign key (tenant, account_id) references accounts (tenant, id) on delete cascade
);
create index account_logins_account on account_logins (tenant, account_id);

-- The accounts that already exist. Where two already share a login, the oldest keeps it here (the newer one is the
-- likelier impostor); sign-in refuses a login that names several accounts whatever this table holds, and the server
-- reports every such clash at start-up until it is resolved (server/auth/logins.ts reportLoginClashes).
insert into account_logins (tenant, login, account_id)
select distinct on (tenant, login) tenant, login, id
  from (select tenant, login_key(username) as login, id, created_at from accounts
        union all
        select tenant, login_key(email), id, created_at from accounts where email is not null) as logins
 order by tenant, login, created_at, id;

create function account_logins_sync() returns trigger
  language plpgsql
  as $$
begin
  if tg_op = 'UPDATE' then
    delete from account_logins where tenant = old.tenant and account_id = old.id;
  end if;
  -- A login another account holds fails here with a unique violation on account_logins_pkey.
  insert into account_logins (tenant, login, account_id)
  select distinct new.tenant, login_key(value), new.id
    from unnest(array[new.username, new.email]) as value
   where value is not null;
  return null;
end
$$;

create trigger accounts_logins_insert after insert on accounts
  for each row execute function account_logins_sync();
-- Only a change of a login: the other columns (locale, enrolment…) of an account that still clashes from before
-- stay writable.
create trigger accounts_logins_update after update of tenant, id, username, email on accounts
  for each row
  when (old.tenant is distinct from new.tenant or old.id is distinct from new.id
        or old.username is distinct from new.username or old.email is distinct from new.email)
  execute function account_logins_sync();

-- Sign-in looks an account up by either login in this form.
create index accounts_login_username on accounts (tenant, login_key(username));
create index accounts_login_email on accounts (tenant, login_key(email));

-- Report the clashes found (PostgreSQL's log; psql shows them too): which accounts, not their logins, which are
-- personal data.
do $$
declare
  clash record;
begin
  for clash in
    select tenant, array_agg(id order by created_at, id) as ids
      from (select tenant, login_key(username) as login, id, created_at from accounts
            union
            select tenant, login_key(email), id, created_at from accounts where email is not null) as logins
     group by tenant, login
    having count(*) > 1
  loop
    raise warning 'accounts % of tenant % share a login; it signs none of them in until it is changed',
      clash.ids, clash.tenant;
  end loop;
end
$$;
