// The SQL of credentials, user locations and the new-selfie evidence: every query names the tenant.
import type { Queryable } from '../db/db';

export interface UserRow {
  user_id: string;
  account_id: string | null;
  acs_id: string;
  active: boolean;
  first_name: string;
  last_name: string;
}

export interface CredentialRow {
  sid: string;
  user_id: string;
  credential_type: 'qr' | 'embedding' | 'enrolment_proof';
  state: 'active' | 'revoked';
  starts_at: Date;
  ends_at: Date | null;
  created_at: Date;
  metadata: Record<string, unknown>;
}

const USER_COLUMNS = 'user_id::text as user_id, account_id, acs_id, active, first_name, last_name';
type Nullable<T> = { [K in keyof T]: T[K] | null };

const CREDENTIAL_COLUMNS =
  'sid::text as sid, user_id::text as user_id, credential_type, state, starts_at, ends_at, created_at, metadata';

/**
 * The facility ids added to a user's credentials, oldest first (ties by id): the one query of a person's locations,
 * for locationsOf and inside userWithCredentials, so that both answer them in the same order. The tenant is $1;
 * `userId` is the SQL of the user's id.
 */
const userLocationsSql = (userId: string) =>
  `select l.facility_id from user_locations l where l.tenant = $1 and l.user_id = ${userId}
    order by l.created_at, l.facility_id`;

/** The user record of a user id, or of an account id (how a person signed in finds their own record). */
export async function userByIdOrAccount(db: Queryable, tenant: string, id: string) {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from users
        where tenant = $1 and (user_id = $2::uuid or account_id = $3) order by (user_id = $2::uuid) desc limit 1`,
    [tenant, id, id],
  );
  return rows[0];
}

/**
 * userByIdOrAccount and the user's credentials in one round trip (a user without any gives one row of nulls):
 * the person's own QR screen reads this often, and every query is a trip through the database engine.
 */
export async function userWithCredentials(db: Queryable, tenant: string, id: string) {
  // One statement with the user's locations, not two: every statement on the embedded database costs the server's
  // one thread its parsing and planning, and a person's phone reads this record whenever it shows the QR.
  const { rows } = await db.query<UserRow & { locations: string[] } & Nullable<CredentialRow>>(
    `with u as (select ${USER_COLUMNS} from users
                   where tenant = $1 and (user_id = $2::uuid or account_id = $3)
                   order by (user_id = $2::uuid) desc limit 1)
       select u.*,
              array(${userLocationsSql('u.user_id::uuid')}) as locations,
              c.sid::text as sid, c.credential_type, c.state, c.starts_at, c.ends_at, c.created_at, c.metadata
         from u left join credentials c on c.tenant = $1 and c.user_id = u.user_id::uuid
        order by c.created_at, c.sid`,
    [tenant, id, id],
  );
  return {
    user: rows[0] as UserRow | undefined,
    /** The facilities added to the user's credentials (user_locations), as locationsOf orders them. */
    locations: rows[0]?.locations ?? [],
    credentials: rows.filter(
      (row): row is UserRow & { locations: string[] } & CredentialRow => row.sid !== null,
    ),
  };
}

export async function credentialBySid(db: Queryable, tenant: string, userId: string, sid: string) {
  const { rows } = await db.query<CredentialRow>(
    `select ${CREDENTIAL_COLUMNS} from credentials where tenant = $1 and user_id = $2 and sid = $3`,
    [tenant, userId, sid],
  );
  return rows[0];
}

export async function acsIdOwner(db: Queryable, tenant: string, acsId: string) {
  const { rows } = await db.query<{ user_id: string; acs_id: string }>(
    'select user_id::text as user_id, acs_id from users where tenant = $1 and acs_id = $2',
    [tenant, acsId],
  );
  return rows[0];
}

/**
 * Activates or deactivates every user of the tenant, recorded as the actor's; answers how many changed. In the
 * caller's transaction (the change and its record of staff actions commit together).
 */
export async function setEveryUserActive(tx: Queryable, tenant: string, active: boolean, actor: string) {
  const { rows } = await tx.query<{ count: number }>(
    `with changed as (update users set active = $2 where tenant = $1 and active <> $2 returning 1)
         select count(*)::int as count from changed`,
    [tenant, active],
  );
  const count = rows[0]?.count ?? 0;
  await tx.query(
    `insert into tenant_admin_actions (tenant, action, actor, users, images) values ($1, $2, $3, $4, 0)`,
    [tenant, active ? 'credentials_active' : 'credentials_inactive', actor, count],
  );
  return count;
}

export async function setUserActive(db: Queryable, tenant: string, userId: string, active: boolean) {
  await db.query('update users set active = $3 where tenant = $1 and user_id = $2', [tenant, userId, active]);
}

export async function setCredentialState(
  db: Queryable,
  tenant: string,
  { userId, sid, state, startsAt, endsAt }: StateChange,
) {
  const { rows } = await db.query<CredentialRow>(
    `update credentials set state = $4, starts_at = $5, ends_at = $6
        where tenant = $1 and user_id = $2 and sid = $3 returning ${CREDENTIAL_COLUMNS}`,
    [tenant, userId, sid, state, startsAt, endsAt],
  );
  return rows[0];
}

interface StateChange {
  userId: string;
  sid: string;
  state: 'active' | 'revoked';
  startsAt: Date;
  endsAt: Date | null;
}

/** The facility ids added to a user's credentials, oldest first. */
export async function locationsOf(db: Queryable, tenant: string, userId: string): Promise<string[]> {
  const { rows } = await db.query<{ facility_id: string }>(userLocationsSql('$2::uuid'), [tenant, userId]);
  return rows.map((row) => row.facility_id);
}

/** The facility whose clock the PDF uses: the one of the person's location, else the tenant's first. */
export async function facilityOf(db: Queryable, tenant: string, accountId: string | null) {
  const { rows } = await db.query<{ alias: string; timezone: string }>(
    `select f.alias, f.timezone from facilities f
       left join accounts a on a.tenant = f.tenant and a.id::text = $2
              and (a.location = f.facility_id or lower(a.location) = lower(f.alias))
      where f.tenant = $1
      order by (a.id is not null) desc, f.created_at, f.alias limit 1`,
    [tenant, accountId ?? ''],
  );
  return rows[0] ?? { alias: null, timezone: 'Europe/Madrid' };
}

/** A facility of the tenant by its id or its alias. */
export async function facilityIdOf(db: Queryable, tenant: string, location: string) {
  const { rows } = await db.query<{ facility_id: string }>(
    'select facility_id from facilities where tenant = $1 and (facility_id = $2 or lower(alias) = lower($2))',
    [tenant, location],
  );
  return rows[0]?.facility_id;
}

/** Adds a facility to a user's credentials; one already there changes nothing. */
export async function addUserLocation(
  db: Queryable,
  tenant: string,
  userId: string,
  facilityId: string,
  by: string,
) {
  await db.query(
    `insert into user_locations (tenant, user_id, facility_id, added_by) values ($1, $2, $3, $4)
       on conflict do nothing`,
    [tenant, userId, facilityId, by],
  );
}

/** The active credentials of a type, the newest first, locked for the transaction. */
export async function activeCredentials(tx: Queryable, tenant: string, userId: string, type: string) {
  const { rows } = await tx.query<CredentialRow>(
    `select ${CREDENTIAL_COLUMNS} from credentials
          where tenant = $1 and user_id = $2 and credential_type = $3 and state = 'active'
          order by created_at desc for update`,
    [tenant, userId, type],
  );
  return rows;
}

export async function revokeActive(tx: Queryable, tenant: string, userId: string, type: string, at: Date) {
  await tx.query(
    `update credentials set state = 'revoked', ends_at = $4
            where tenant = $1 and user_id = $2 and credential_type = $3 and state = 'active'`,
    [tenant, userId, type, at],
  );
}

export async function insertCredential(
  tx: Queryable,
  tenant: string,
  credential: {
    userId: string;
    type: string;
    at: Date;
    endsAt: Date | null;
    metadata: Record<string, unknown>;
  },
) {
  const { rows } = await tx.query<CredentialRow>(
    `insert into credentials (tenant, user_id, credential_type, state, starts_at, ends_at, metadata, created_at)
         values ($1, $2, $3, 'active', $4, $5, $6, $4) returning ${CREDENTIAL_COLUMNS}`,
    [
      tenant,
      credential.userId,
      credential.type,
      credential.at,
      credential.endsAt,
      JSON.stringify(credential.metadata),
    ],
  );
  const created = rows[0];
  if (!created) throw new Error('credential insert returned no row');
  return created;
}

/**
 * The new selfie of a person (spec §1 "renewing a selfie"): a selfie portrayal the person made, whose picture is
 * in, becomes the user's selfie evidence. False when there is no such picture (another person's portrayal, a
 * document, no picture).
 */
export async function copyNewSelfie(
  tx: Queryable,
  tenant: string,
  user: UserRow,
  portrayalId: string,
): Promise<boolean> {
  const { rows } = await tx.query<{ content_type: string; bytes: Uint8Array }>(
    `select i.content_type, i.bytes from portrayals p
       join portrayal_images i on i.tenant = p.tenant and i.portrayal_id = p.portrayal_id
                              and i.kind = 'selfie' and i.seq = 0
      where p.tenant = $1 and p.portrayal_id = $2 and p.portrayal_type = 'selfie'
        and (p.owner_id = $3 or p.user_id = $3 or p.user_id = $4)`,
    [tenant, portrayalId, user.account_id ?? '', user.user_id],
  );
  const selfie = rows[0];
  if (!selfie) return false;
  await tx.query(
    `insert into user_evidences (tenant, user_id, kind, content_type, bytes) values ($1, $2, 'selfie', $3, $4)
     on conflict (tenant, user_id, kind) do update set content_type = excluded.content_type,
       bytes = excluded.bytes, created_at = now()`,
    [tenant, user.user_id, selfie.content_type, selfie.bytes],
  );
  await tx.query('update users set portrayal_id = $3 where tenant = $1 and user_id = $2', [
    tenant,
    user.user_id,
    portrayalId,
  ]);
  return true;
}
