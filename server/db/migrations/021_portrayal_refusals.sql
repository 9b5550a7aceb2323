-- What refused a portrayal's pictures, and which check: the field and the rule it failed (a check digit, the
-- DNI/NIE rules, an MRZ not found, a document without a face). The portrayal keeps its latest answer
-- (error_check beside error_code); a retry with new pictures replaces it, so every refusal is also kept in
-- portrayal_refusals, for staff to see why a person's earlier attempts were refused (PortalUserDetail, security).
alter table portrayals add column error_check jsonb;

create table portrayal_refusals (
  tenant text not null,
  portrayal_id uuid not null,
  images_version integer not null,
  error_code text not null,
  error_image text,
  check_field text,
  check_rule text,
  created_at timestamptz not null,
  primary key (tenant, portrayal_id, images_version),
  foreign key (tenant, portrayal_id) references portrayals (tenant, portrayal_id) on delete cascade
);
