-- The staff accounts list (GET /api/public/accounts) reads a tenant's accounts newest first, one page at a
-- time: with this index a page is an index range instead of a sort of every account of the tenant.
create index accounts_newest on accounts (tenant, created_at desc, username);
