-- Every user has a region (ActivateUsers, spec §2 "activate users of another region", §4): the legal domain where
-- they registered. From now on the registration records it (server/onboarding/store/region.ts); this fills the users
-- registered before, by the same rules, as far as the database knows them.

-- 1. The facility the onboarding named as its location, when that facility belongs to a legal domain.
update users u set region = f.legal_domain
  from onboardings o
  join facilities f on f.tenant = o.tenant and (f.facility_id = o.location or lower(f.alias) = lower(o.location))
 where u.region is null and o.tenant = u.tenant and o.onboarding_id = u.onboarding_id
   and f.legal_domain is not null;

-- 2. The facility of whoever registered the person (the assistant or staff member of assisted_by, else the person's
--    own account): one they are in charge of, then the one of their account's location.
update users u set region = (
  select f.legal_domain from facilities f
   where f.tenant = u.tenant and f.legal_domain is not null
     and (exists (select 1 from account_facilities af
                   where af.tenant = f.tenant and af.facility_id = f.facility_id
                     and af.account_id = coalesce(u.assisted_by, u.account_id))
       or exists (select 1 from accounts a
                   where a.tenant = f.tenant and a.id::text = coalesce(u.assisted_by, u.account_id)
                     and (a.location = f.facility_id or lower(a.location) = lower(f.alias))))
   order by exists (select 1 from account_facilities af
                     where af.tenant = f.tenant and af.facility_id = f.facility_id
                       and af.account_id = coalesce(u.assisted_by, u.account_id)) desc, f.alias
   limit 1)
 where u.region is null;

-- 3. Else the tenant's home region. SQL cannot read settings.json (watchlistDomains, whose first is the home region
--    the registration uses); the tenant's prohibited lists are kept per legal domain of watchlistDomains, so the
--    first of those codes stands in for it (gambling: es-an, demo: es-demo).
update users u set region = (
  select w.legal_domain from watchlists w where w.tenant = u.tenant and w.current order by w.legal_domain limit 1)
 where u.region is null;
