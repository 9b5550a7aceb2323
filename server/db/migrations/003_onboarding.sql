-- Onboarding and portrayal (spec §3 Onboarding, Portrayal, Portrayal result, User, Credentials; §7). Every row
-- carries its tenant; every key and every lookup includes it. Account ids are the identity provider's
-- account ids (the access token's sub), kept as text so this schema does not depend on the accounts table.

create table onboardings (
  tenant text not null,
  onboarding_id uuid not null default gen_random_uuid(),
  mode text not null check (mode in ('auto', 'assisted')),
  -- The person being enrolled: the caller in auto mode, the assisted account (if any) in assisted mode.
  account_id text,
  -- The assistant, in assisted mode.
  assisted_by text,
  created_by text not null,
  register_mode text not null,
  location text,
  user_data jsonb,
  visit_date text,
  host text,
  identity_proofing boolean not null,
  life_proofing boolean not null,
  biometric_qr boolean not null,
  supported_docs jsonb not null,
  status text not null default 'started'
    check (status in ('started', 'legal_terms_accepted', 'in_progress', 'completed')),
  legal_terms_accepted_at timestamptz,
  last_outcome text,
  last_reason text,
  user_id uuid,
  qr_sid uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (tenant, onboarding_id)
);
create index onboardings_account on onboardings (tenant, account_id);
create index onboardings_assistant on onboardings (tenant, assisted_by);

create table portrayals (
  tenant text not null,
  portrayal_id uuid not null default gen_random_uuid(),
  onboarding_id uuid,
  -- Who may touch it: the account that created it (and the assistant of its onboarding).
  owner_id text not null,
  assisted_by text,
  user_id text,
  portrayal_type text not null check (portrayal_type in ('document', 'selfie')),
  document_type text,
  document_country text,
  process text,
  life_proofing boolean not null default false,
  challenge_id uuid,
  liveness_data jsonb,
  liveness_result text check (liveness_result in ('passing', 'failing', 'not_computed')),
  liveness_detail text,
  -- The data the person confirmed at registration (the OCR adaptations of spec §3 Onboarding).
  registration jsonb,
  -- Each upload bumps images_version and images_updated_at; the result is computed (computed_version set to
  -- images_version) once the required images are in and the delay after the last upload has passed.
  images_version integer not null default 0,
  images_updated_at timestamptz,
  computed_version integer,
  result jsonb,
  error_code text,
  error_image text,
  computed_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (tenant, portrayal_id),
  foreign key (tenant, onboarding_id) references onboardings (tenant, onboarding_id) on delete cascade
);
create index portrayals_onboarding on portrayals (tenant, onboarding_id);

create table portrayal_images (
  tenant text not null,
  portrayal_id uuid not null,
  kind text not null check (kind in ('obverse', 'reverse', 'selfie', 'lifeproof')),
  -- Liveness proofs have several frames; the other kinds have one image (seq 0), replaced on re-upload.
  seq integer not null default 0,
  content_type text not null,
  format text,
  bytes bytea not null,
  width integer,
  height integer,
  sharpness double precision,
  blurred boolean,
  created_at timestamptz not null default now(),
  primary key (tenant, portrayal_id, kind, seq),
  foreign key (tenant, portrayal_id) references portrayals (tenant, portrayal_id) on delete cascade
);

create table challenges (
  tenant text not null,
  challenge_id uuid not null default gen_random_uuid(),
  account_id text not null,
  actions jsonb not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  primary key (tenant, challenge_id)
);

-- Enrolled users (spec §3 User).
create table users (
  tenant text not null,
  user_id uuid not null default gen_random_uuid(),
  account_id text,
  username text,
  first_name text not null,
  last_name text not null,
  email text,
  acs_id text not null,
  id_number text,
  nie text,
  nationality text,
  birth_date date not null,
  expiry_date date,
  document_number text not null,
  document_type text not null,
  expedition_country text,
  extra_fields jsonb not null default '{}'::jsonb,
  portrayal_id uuid,
  onboarding_id uuid,
  host text,
  onboarding_date timestamptz not null default now(),
  active boolean not null default true,
  onboarding_state text not null check (onboarding_state in ('completed', 'incompleted')),
  register_mode text not null check (register_mode in ('auto', 'assisted', 'administrative')),
  assisted_by text,
  -- Verification results: passing, failing or not_computed (spec: not computed / indeterminate).
  life_proofing_result text not null,
  identity_proofing_result text not null,
  ocr_integrity text not null,
  document_validity text not null,
  selfie_authenticity text not null,
  created_at timestamptz not null default now(),
  primary key (tenant, user_id)
);
create unique index users_account on users (tenant, account_id) where account_id is not null;
create unique index users_document_number on users (tenant, upper(document_number));
create unique index users_acs_id on users (tenant, acs_id);

-- The images a user was enrolled with (selfie, obverse, reverse), copied from the portrayal.
create table user_evidences (
  tenant text not null,
  user_id uuid not null,
  kind text not null check (kind in ('obverse', 'reverse', 'selfie')),
  content_type text not null,
  bytes bytea not null,
  created_at timestamptz not null default now(),
  primary key (tenant, user_id, kind),
  foreign key (tenant, user_id) references users (tenant, user_id) on delete cascade
);

-- Credentials of a user, keyed by sid (spec §3 Credentials, Accreditation).
create table credentials (
  tenant text not null,
  sid uuid not null default gen_random_uuid(),
  user_id uuid not null,
  credential_type text not null check (credential_type in ('qr', 'embedding', 'enrolment_proof')),
  state text not null default 'active' check (state in ('active', 'revoked')),
  starts_at timestamptz not null default now(),
  ends_at timestamptz,
  metadata jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  primary key (tenant, sid),
  foreign key (tenant, user_id) references users (tenant, user_id) on delete cascade
);
create index credentials_user on credentials (tenant, user_id);

-- Prohibited lists (interdictions) per legal domain (spec §3 Watchlist upload; legal domains es-an, …).
create table prohibited_list (
  tenant text not null,
  entry_id uuid not null default gen_random_uuid(),
  legal_domain text not null,
  id_number text,
  document_number text,
  first_name text,
  last_name text,
  birth_date date,
  created_at timestamptz not null default now(),
  primary key (tenant, entry_id)
);
create index prohibited_list_document on prohibited_list (tenant, upper(document_number));
create index prohibited_list_id_number on prohibited_list (tenant, upper(id_number));

-- Short codes that let a person continue their onboarding on a phone (POST /user-code/generate).
create table user_codes (
  tenant text not null,
  code text not null,
  account_id text not null,
  onboarding_id uuid not null,
  expires_at timestamptz not null,
  redeemed_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (tenant, code),
  foreign key (tenant, onboarding_id) references onboardings (tenant, onboarding_id) on delete cascade
);
