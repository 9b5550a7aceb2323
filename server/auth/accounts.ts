// IAM accounts of the development identity provider (spec §3 IAM account) and the seeded demo accounts.
import type { Db, Queryable } from '../db/db';
import type { Seeder } from '../db/seeder';
import { getOrCreatePromise } from '../get-or-create';
import { hashPassword } from './passwords';
import { permissionsOf, type RoleName } from './roles';

export interface AccountRow {
  id: string;
  username: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  password_hash: string | null;
  roles: string[];
  enrolled: boolean;
  acs_id: string | null;
  location: string | null;
  locale: string | null;
  onboarding_status: string;
  created_at: Date;
}

const COLUMNS =
  'id::text as id, username, first_name, last_name, email, password_hash, roles, enrolled, acs_id, location, locale, onboarding_status, created_at';

/**
 * The account a person signs in as (or asks a password reset for): the one whose username or email is this login,
 * without case or accents (login_key, server/auth/logins.ts). A login several accounts share (only from before
 * the database refused them) names none of them: choosing one would hand someone else's sign-in to whoever made
 * the other.
 */
export async function findAccountByLogin(
  db: Queryable,
  tenant: string,
  login: string,
): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow>(
    `select ${COLUMNS} from accounts
      where tenant = $1 and (login_key(username) = login_key($2) or login_key(email) = login_key($2))
      limit 2`,
    [tenant, login.trim()],
  );
  return rows.length === 1 ? rows[0] : undefined;
}

export async function findAccountById(
  db: Queryable,
  tenant: string,
  id: string,
): Promise<AccountRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const { rows } = await db.query<AccountRow>(
    `select ${COLUMNS} from accounts where tenant = $1 and id = $2`,
    [tenant, id],
  );
  return rows[0];
}

/** The claims of the portal's access token (contract/api/access-token.ts) for an account. */
export function tokenClaimsOf(account: AccountRow, tenant: string) {
  const name = [account.first_name, account.last_name].filter(Boolean).join(' ');
  return {
    tenant,
    roles: permissionsOf(account.roles),
    preferred_username: account.username,
    ...(account.email ? { email: account.email } : {}),
    ...(name ? { name } : {}),
    enrolled: account.enrolled,
    acs_id: account.acs_id,
    location: account.location,
    ...(account.locale ? { locale: account.locale } : {}),
  };
}

/** IAM account as the API shows it (spec §3): Keycloak's field names, createdTimestamp in milliseconds. */
export function iamAccountOf(account: AccountRow) {
  return {
    id: account.id,
    username: account.username,
    firstName: account.first_name,
    lastName: account.last_name,
    email: account.email,
    createdTimestamp: account.created_at.getTime(),
    onboarding_status: account.onboarding_status,
  };
}

export interface AccountQuery {
  filter?: string | undefined;
  pageSize: number;
  pageIndex: number;
}

/** One page of a tenant's accounts, newest first; the filter matches username, names or email. */
export async function listAccounts(db: Db, tenant: string, query: AccountQuery) {
  const params: unknown[] = [tenant];
  let where = 'tenant = $1';
  const filter = query.filter?.trim();
  if (filter) {
    params.push(`%${filter.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where += ` and (lower(username) like $2 or lower(coalesce(email, '')) like $2
      or lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) like $2)`;
  }
  // The page and the total in one round trip (a window count); only a page past the end, which has no row to
  // carry the total, needs a second query.
  const { rows } = await db.query<AccountRow & { total: number }>(
    `select ${COLUMNS}, count(*) over ()::int as total from accounts where ${where}
      order by created_at desc, username
      limit ${query.pageSize} offset ${query.pageSize * query.pageIndex}`,
    params,
  );
  const totalItems =
    rows[0]?.total ??
    (query.pageIndex === 0
      ? 0
      : ((
          await db.query<{ count: number }>(
            `select count(*)::int as count from accounts where ${where}`,
            params,
          )
        ).rows[0]?.count ?? 0));
  return {
    items: rows.map(iamAccountOf),
    totalItems,
    pageIndex: query.pageIndex,
    pageSize: query.pageSize,
  };
}

export interface SeedAccount {
  username: string;
  firstName: string;
  lastName: string;
  roles: RoleName[];
  /** Seeded as an enrolled person: a user record and a QR credential exist. */
  enrolled: boolean;
}

/** Seeded in every tenant of a new, non-production database; the password is the username. */
export const SEED_ACCOUNTS: readonly SeedAccount[] = [
  { username: 'newcomer', firstName: 'Nerea', lastName: 'Nueva', roles: ['user'], enrolled: false },
  { username: 'user', firstName: 'Unai', lastName: 'Usuario', roles: ['user'], enrolled: true },
  { username: 'visitor', firstName: 'Vera', lastName: 'Visitante', roles: ['visitor'], enrolled: true },
  { username: 'assistant', firstName: 'Asier', lastName: 'Asistente', roles: ['assistant'], enrolled: false },
  {
    username: 'receptionist',
    firstName: 'Rosa',
    lastName: 'Recepción',
    roles: ['receptionist'],
    enrolled: false,
  },
  { username: 'auditor', firstName: 'Aitor', lastName: 'Auditor', roles: ['auditor'], enrolled: false },
  {
    username: 'usermanager',
    firstName: 'Uxue',
    lastName: 'Gestora',
    roles: ['usermanager'],
    enrolled: false,
  },
  {
    username: 'accountmanager',
    firstName: 'Ane',
    lastName: 'Cuentas',
    roles: ['accountmanager'],
    enrolled: false,
  },
  { username: 'admin', firstName: 'Alex', lastName: 'Admin', roles: ['admin'], enrolled: false },
];

export const seedEmail = (username: string, tenant: string) => `${username}@${tenant}.example`;

// Seed passwords are hashed once per process (both tenants share the hash of a development password).
const seedHashes = new Map<string, Promise<string>>();
const seedHash = (password: string) => getOrCreatePromise(seedHashes, password, () => hashPassword(password));

/**
 * SEED_NEWCOMERS=n adds n more unenrolled users, newcomer-01… (password = username), so that browser journeys
 * can each enrol someone of their own.
 */
export function seedAccountList(env: NodeJS.ProcessEnv = process.env): SeedAccount[] {
  const extra = Math.min(Math.max(Number(env.SEED_NEWCOMERS) || 0, 0), 99);
  const newcomers = Array.from({ length: extra }, (_, i): SeedAccount => {
    const username = `newcomer-${String(i + 1).padStart(2, '0')}`;
    return { username, firstName: 'Nerea', lastName: `Nueva ${i + 1}`, roles: ['user'], enrolled: false };
  });
  return [...SEED_ACCOUNTS, ...newcomers];
}

export const seedAccounts: Seeder = async (tx, tenant) => {
  const accounts = seedAccountList();
  for (const [index, account] of accounts.entries()) {
    const acsId = account.enrolled ? `ACS-${tenant.toUpperCase()}-${String(index).padStart(4, '0')}` : null;
    const { rows } = await tx.query<{ id: string }>(
      `insert into accounts (tenant, username, first_name, last_name, email, password_hash, roles, enrolled, acs_id,
         onboarding_status, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() - make_interval(mins => $11))
       on conflict do nothing returning id::text as id`,
      [
        tenant,
        account.username,
        account.firstName,
        account.lastName,
        seedEmail(account.username, tenant),
        await seedHash(account.username),
        account.roles,
        account.enrolled,
        acsId,
        account.enrolled ? 'completed' : 'none',
        accounts.length - index,
      ],
    );
    const id = rows[0]?.id;
    if (id && account.enrolled && acsId) await seedEnrolledUser(tx, tenant, id, account, acsId, index);
  }
};

/** The user record (spec §3 User) and the credentials of a seeded enrolled account. */
async function seedEnrolledUser(
  tx: Queryable,
  tenant: string,
  accountId: string,
  account: SeedAccount,
  acsId: string,
  index: number,
): Promise<void> {
  const { rows } = await tx.query<{ user_id: string }>(
    `insert into users (tenant, account_id, username, first_name, last_name, email, acs_id, id_number, nationality,
       birth_date, expiry_date, document_number, document_type, expedition_country, onboarding_state, register_mode,
       life_proofing_result, identity_proofing_result, ocr_integrity, document_validity, selfie_authenticity)
     values ($1, $2, $3, $4, $5, $6, $7, $8, 'ESP', '1990-05-17', (now() + interval '5 years')::date, $9, 'id_card',
       'ES', 'completed', 'auto', 'not_computed', 'not_computed', 'not_computed', 'not_computed', 'not_computed')
     returning user_id::text as user_id`,
    [
      tenant,
      accountId,
      account.username,
      account.firstName,
      account.lastName,
      seedEmail(account.username, tenant),
      acsId,
      `0000000${index}${'TRWAGMYFPDXBNJZSQVHLCKE'[index % 23]}`,
      `SEED${String(index).padStart(5, '0')}`,
    ],
  );
  const userId = rows[0]?.user_id;
  if (!userId) return;
  // Spec §3 Accreditation: a 15-day QR, a face and a proof credential; the `user` also keeps an expired QR, so
  // that MyAccreditations shows one with its extend button on a new `npm start`.
  await tx.query(
    `insert into credentials (tenant, user_id, credential_type, starts_at, ends_at, metadata, created_at)
     values ($1, $2, 'qr', now(), now() + interval '15 days', '{"object":"portal"}', now()),
            ($1, $2, 'embedding', now() - interval '1 day', null, '{"object":"portal"}', now() - interval '1 day'),
            ($1, $2, 'enrolment_proof', now() - interval '1 day', null, '{"object":"portal"}', now() - interval '1 day')`,
    [tenant, userId],
  );
  if (account.username === 'user') {
    await tx.query(
      `insert into credentials (tenant, user_id, credential_type, starts_at, ends_at, metadata, created_at)
       values ($1, $2, 'qr', now() - interval '40 days', now() - interval '25 days', '{"object":"portal"}',
               now() - interval '40 days')`,
      [tenant, userId],
    );
  }
}
