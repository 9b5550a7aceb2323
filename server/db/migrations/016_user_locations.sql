-- Staff portal: where a user's credentials are good, and where the user registered. user_locations: the facilities
-- added to a user's credentials (spec §6 post_credentials_location, "add location"; §3 Credentials of a user:
-- locations), by a staff member or by activating the user in another region.
create table user_locations (
  tenant text not null,
  user_id uuid not null,
  facility_id text not null,
  added_by text not null,
  created_at timestamptz not null default now(),
  primary key (tenant, user_id, facility_id),
  foreign key (tenant, user_id) references users (tenant, user_id) on delete cascade,
  foreign key (tenant, facility_id) references facilities (tenant, facility_id) on delete cascade
);

-- The region a user registered in: a legal domain of the tenant (spec §3: "Legal domains are regional codes such as
-- es-an, es-ct"); null when unknown. ActivateUsers activates the users of another region (spec §2, §4).
alter table users add column region text;
create index users_region on users (tenant, region);

-- AssistedExistingUsers (spec §4): an assisted onboarding that re-enrols an existing user; when it completes, that
-- user record takes the new data and evidences instead of a new record being made.
alter table onboardings add column replaces_user_id uuid;
