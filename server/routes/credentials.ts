// Credentials of enrolled users (spec §3 Credentials of a user, Accreditation; §4 Accreditation; §7 Credentials).
// The routes and the permission strings each names are in docs/account.md's credential table. A person reaches
// their own user record (users.account_id = token sub) with the personal rights; staff reach anyone's with theirs.
// Everyone else, another tenant, or an id that is not a UUID: 404, so that nobody learns whether a user or a
// credential exists. Every query names the tenant of the call.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Context, Hono } from 'hono';
import {
  ACTION_TYPES,
  type AcsIdOwner,
  type ActivationAnswer,
  addLocationBody,
  CREDENTIAL_ALREADY_EXISTS,
  type Credential,
  type CredentialStateAnswer,
  credentialStateBody,
  rightsRequest,
  type UserCredentials,
  type UserLocations,
} from '../../contract/api/credentials';
import type { Permission } from '../../contract/api/permissions';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import type { Queryable } from '../db/db';
import { HttpProblem } from '../http/problem';
import { DetailedProblem, isUuid, readBody } from '../http/validation';
import { qrPng } from '../qr';
import { credentialPdf, pdfLocaleOf } from './credential-pdf';
import { confirmTenant } from './tenant-confirmation';

/** Spec §1, §9: a QR credential lasts 15 days; setting it active again starts a new 15-day window. */
export const QR_VALID_MS = 15 * 24 * 60 * 60 * 1000;

/** Who may do what: the person's own rights, and the staff rights that reach anyone of the tenant. */
interface Access {
  own: readonly Permission[];
  staff: readonly Permission[];
}
const READ: Access = { own: ['can_view_accreditations', 'get_users_me'], staff: ['get_users_all'] };
const DOOR: Access = {
  own: READ.own,
  staff: ['get_users_all', 'put_credentials_state_one', 'post_audit_accesses_all', 'post_accesses_myscope'],
};
const CHANGE_STATE: Access = { own: ['can_view_accreditations'], staff: ['put_credentials_state_one'] };
const ACTIVATE: Access = { own: [], staff: ['put_credentials_state_one', 'put_credentials_state_all'] };
const REQUEST_RIGHT: Access = {
  own: ['can_view_accreditations'],
  staff: ['put_credentials_state_one', 'post_singles'],
};
const ADD_LOCATION: Access = { own: [], staff: ['post_credentials_location'] };
const ACS_ID_CHECK: readonly Permission[] = ['get_users_all', 'post_singles', 'post_onboardings_assisted'];

interface UserRow {
  user_id: string;
  account_id: string | null;
  acs_id: string;
  active: boolean;
  first_name: string;
  last_name: string;
}

interface CredentialRow {
  sid: string;
  user_id: string;
  credential_type: 'qr' | 'embedding' | 'enrolment_proof';
  state: 'active' | 'revoked';
  starts_at: Date;
  ends_at: Date | null;
  created_at: Date;
  metadata: Record<string, unknown>;
}

export interface CredentialsOptions {
  now?: () => Date;
}

const USER_COLUMNS = 'user_id::text as user_id, account_id, acs_id, active, first_name, last_name';
type Nullable<T> = { [K in keyof T]: T[K] | null };

const CREDENTIAL_COLUMNS =
  'sid::text as sid, user_id::text as user_id, credential_type, state, starts_at, ends_at, created_at, metadata';

const notFound = () => new HttpProblem(404, 'No credential with that id.', 'not_found');
const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/** What the QR image encodes: the tenant, the person's access-control id and the credential's sid. */
export function credentialPayload(tenant: string, acsId: string, sid: string): string {
  return `acs:${tenant}:${encodeURIComponent(acsId)}:${sid}`;
}

/** A QR accreditation is valid while active and its end is in the future; the others while active (spec §3). */
export function isValidCredential(
  row: Pick<CredentialRow, 'credential_type' | 'state' | 'ends_at'>,
  now: Date,
) {
  if (row.state !== 'active') return false;
  if (row.ends_at === null) return row.credential_type !== 'qr';
  return row.ends_at.getTime() > now.getTime();
}

type Format = 'json' | 'png' | 'pdf';

/** ?format= wins; without it, an Accept that names image/png (or only PDF) chooses; JSON otherwise. */
function requestedFormat(format: string | undefined, accept: string | undefined): Format {
  if (format !== undefined && format !== '') {
    const value = format.toLowerCase();
    if (value === 'json' || value === 'png' || value === 'pdf') return value;
    throw new HttpProblem(406, 'format must be json, png or pdf.', 'not_acceptable');
  }
  const types = (accept ?? '').toLowerCase();
  if (types.includes('image/png')) return 'png';
  if (types.includes('application/pdf') && !/application\/json|\*\/\*/.test(types)) return 'pdf';
  return 'json';
}

/** A credential as the API shows it (spec §3), with whether it lets its holder in now. */
function credentialJson(row: CredentialRow, now: Date) {
  return {
    sid: row.sid,
    user_id: row.user_id,
    credential_type: row.credential_type,
    state: row.state,
    starts_at: row.starts_at.toISOString(),
    ends_at: iso(row.ends_at),
    created_at: row.created_at.toISOString(),
    valid: isValidCredential(row, now),
  };
}

interface TenantLook {
  title: string;
  /** The title per language (settings `titles`); a language without one uses `title`. */
  titles: Partial<Record<string, string>>;
  logo: string;
}

/** Title and logo of a tenant's settings.json, read once per tenant (the PDF's heading). */
function tenantLookLoader(publicDir: string) {
  const cache = new Map<string, Promise<TenantLook>>();
  return (tenant: string): Promise<TenantLook> => {
    let entry = cache.get(tenant);
    if (!entry) {
      entry = readFile(join(publicDir, 'tenants', tenant, 'settings.json'), 'utf8')
        .then((raw) => {
          const settings = JSON.parse(raw) as {
            title?: unknown;
            titles?: unknown;
            theme?: { logo?: unknown };
          };
          const titles =
            typeof settings.titles === 'object' && settings.titles !== null
              ? Object.fromEntries(
                  Object.entries(settings.titles).filter(
                    (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
                  ),
                )
              : {};
          return {
            title: typeof settings.title === 'string' ? settings.title : tenant,
            titles,
            logo: typeof settings.theme?.logo === 'string' ? settings.theme.logo : 'logo.svg',
          };
        })
        .catch(() => ({ title: tenant, titles: {}, logo: 'logo.svg' }));
      cache.set(tenant, entry);
    }
    return entry;
  };
}

/** The facility ids added to a user's credentials, oldest first. */
async function locationsOf(db: Queryable, tenant: string, userId: string): Promise<string[]> {
  const { rows } = await db.query<{ facility_id: string }>(
    'select facility_id from user_locations where tenant = $1 and user_id = $2::uuid order by created_at, facility_id',
    [tenant, userId],
  );
  return rows.map((row) => row.facility_id);
}

/** The facility whose clock the PDF uses: the one of the person's location, else the tenant's first. */
async function facilityOf(db: Queryable, tenant: string, accountId: string | null) {
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

export function credentialsRoutes(
  deps: AppDeps,
  auth: ApiAuth,
  options: CredentialsOptions = {},
): Hono<AuthEnv> {
  const { db } = deps;
  const now = options.now ?? (() => new Date());
  const tenantLook = tenantLookLoader(deps.config.publicDir);
  const app = new Hono<AuthEnv>();
  const allow = (access: Access) => auth.requireAuth(...access.own, ...access.staff);

  /**
   * The user record named by `id` (its user_id, or its account id: spec §7 GET /public/credentials/{id}, which is
   * how a person signed in finds their own record) that the caller may reach with `access`, or a 404 problem.
   */
  async function reachableUser(c: Context<AuthEnv>, id: string, access: Access): Promise<UserRow> {
    if (!isUuid(id)) throw notFound();
    const { rows } = await db.query<UserRow>(
      `select ${USER_COLUMNS} from users
        where tenant = $1 and (user_id = $2::uuid or account_id = $3) order by (user_id = $2::uuid) desc limit 1`,
      [c.get('tenant'), id, id],
    );
    return reachable(c, rows[0], access);
  }

  /** The user record itself when the caller may reach it with `access` (staff, or its owner), or a 404 problem. */
  function reachable<T extends UserRow>(c: Context<AuthEnv>, user: T | undefined, access: Access): T {
    if (!user) throw notFound();
    const claims = c.get('auth');
    const staff = access.staff.some((permission) => claims.roles.includes(permission));
    const owner =
      user.account_id !== null &&
      user.account_id === claims.sub &&
      access.own.some((permission) => claims.roles.includes(permission));
    if (!staff && !owner) throw notFound();
    return user;
  }

  async function credentialOf(c: Context<AuthEnv>, user: UserRow, sid: string): Promise<CredentialRow> {
    if (!isUuid(sid)) throw notFound();
    const { rows } = await db.query<CredentialRow>(
      `select ${CREDENTIAL_COLUMNS} from credentials where tenant = $1 and user_id = $2 and sid = $3`,
      [c.get('tenant'), user.user_id, sid],
    );
    const row = rows[0];
    if (!row) throw notFound();
    return row;
  }

  // Existence check of an access-control id (spec §5: 200 exists, 404 free), for the staff registration forms.
  app.get('/public/credentials', auth.requireAuth(...ACS_ID_CHECK), async (c) => {
    const acsId = c.req.query('acs_id')?.trim();
    if (!acsId) throw new HttpProblem(400, 'Give acs_id.', 'invalid_query');
    const { rows } = await db.query<{ user_id: string; acs_id: string }>(
      'select user_id::text as user_id, acs_id from users where tenant = $1 and acs_id = $2',
      [c.get('tenant'), acsId],
    );
    const row = rows[0];
    if (!row) throw new HttpProblem(404, 'No user holds that access-control id.', 'not_found');
    return c.json<AcsIdOwner>(row);
  });

  // Activate or deactivate every user's credentials (spec §4: "set per user or for all users").
  for (const [segment, active] of [
    ['active', true],
    ['inactive', false],
  ] as const) {
    // Confirmed with the tenant's name like the deletions: it changes every user of the tenant at once. Only the
    // users whose state changes are counted; the action is recorded like the deletions (who, when, how many).
    app.put(`/public/credentials/${segment}`, auth.requireAuth('put_credentials_state_all'), async (c) => {
      await confirmTenant(c);
      const tenant = c.get('tenant');
      const users = await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ count: number }>(
          `with changed as (update users set active = $2 where tenant = $1 and active <> $2 returning 1)
           select count(*)::int as count from changed`,
          [tenant, active],
        );
        const count = rows[0]?.count ?? 0;
        await tx.query(
          `insert into tenant_admin_actions (tenant, action, actor, users, images) values ($1, $2, $3, $4, 0)`,
          [tenant, active ? 'credentials_active' : 'credentials_inactive', c.get('auth').sub, count],
        );
        return count;
      });
      return c.json<ActivationAnswer>({ activated: active, users });
    });
    app.put(`/public/credentials/:userId/${segment}`, allow(ACTIVATE), async (c) => {
      const user = await reachableUser(c, c.req.param('userId'), ACTIVATE);
      await db.query('update users set active = $3 where tenant = $1 and user_id = $2', [
        c.get('tenant'),
        user.user_id,
        active,
      ]);
      return c.json<ActivationAnswer>({ activated: active, users: 1 });
    });
  }

  app.get('/public/credentials/:userId', allow(READ), async (c) => {
    const id = c.req.param('userId');
    if (!isUuid(id)) throw notFound();
    // One round trip for the user and their credentials (a user without any gives one row of nulls): the
    // person's own QR screen reads this often, and every query is a trip through the database engine.
    const { rows: joined } = await db.query<UserRow & Nullable<CredentialRow>>(
      `with u as (select ${USER_COLUMNS} from users
                   where tenant = $1 and (user_id = $2::uuid or account_id = $3)
                   order by (user_id = $2::uuid) desc limit 1)
       select u.*, c.sid::text as sid, c.credential_type, c.state, c.starts_at, c.ends_at, c.created_at, c.metadata
         from u left join credentials c on c.tenant = $1 and c.user_id = u.user_id::uuid
        order by c.created_at, c.sid`,
      [c.get('tenant'), id, id],
    );
    const user = reachable(c, joined[0], READ);
    const rows = joined.filter((row): row is UserRow & CredentialRow => row.sid !== null);
    const at = now();
    c.header('Cache-Control', 'no-store');
    return c.json<UserCredentials>({
      user_id: user.user_id,
      activated: user.active,
      // The facilities added to the person's credentials (user_locations, migration 016), by facility id.
      locations: await locationsOf(db, c.get('tenant'), user.user_id),
      metadata: { acs_id: user.acs_id, first_name: user.first_name, last_name: user.last_name },
      credentials: Object.fromEntries(
        rows.map((row) => [
          row.sid,
          {
            created_at: row.created_at.toISOString(),
            credential_type: row.credential_type,
            state: row.state,
            starts_at: row.starts_at.toISOString(),
            ends_at: iso(row.ends_at),
            valid: isValidCredential(row, at),
          },
        ]),
      ),
    });
  });

  app.get('/public/credentials/:userId/sids/:sid', allow(READ), async (c) => {
    const user = await reachableUser(c, c.req.param('userId'), READ);
    const row = await credentialOf(c, user, c.req.param('sid'));
    const tenant = c.get('tenant');
    c.header('Cache-Control', 'no-store');
    c.header('Vary', 'Accept');
    const format = requestedFormat(c.req.query('format'), c.req.header('accept'));
    if (format === 'png' || format === 'pdf') {
      if (row.credential_type !== 'qr') {
        throw new HttpProblem(406, `A ${row.credential_type} credential has no QR image.`, 'not_acceptable');
      }
      const size = Number(c.req.query('size'));
      const png = await qrPng(credentialPayload(tenant, user.acs_id, row.sid), {
        ...(format === 'pdf' ? { size: 600 } : Number.isFinite(size) && size > 0 ? { size } : {}),
      });
      if (format === 'png') {
        return c.body(new Uint8Array(png), 200, {
          'Content-Type': 'image/png',
          'Content-Disposition': `inline; filename="credential-${row.sid}.png"`,
        });
      }
      const [look, facility] = await Promise.all([
        tenantLook(tenant),
        facilityOf(db, tenant, user.account_id),
      ]);
      const locale = pdfLocaleOf(c.req.query('lang'), c.req.header('accept-language'));
      const pdf = await credentialPdf({
        publicDir: deps.config.publicDir,
        tenant,
        title: look.titles[locale] ?? look.title,
        logo: look.logo,
        name: `${user.first_name} ${user.last_name}`,
        qrPng: new Uint8Array(png),
        startsAt: row.starts_at,
        endsAt: row.ends_at,
        timeZone: facility.timezone,
        facility: facility.alias,
        locale,
      });
      const disposition = c.req.query('download') === '1' ? 'attachment' : 'inline';
      return c.body(new Uint8Array(pdf), 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `${disposition}; filename="credential-${row.sid}.pdf"`,
      });
    }
    return c.json<Credential>(credentialJson(row, now()));
  });

  // What a door asks (spec §4 Access results): a revoked or expired QR, or a deactivated user, is not valid.
  app.get('/public/credentials/:userId/sids/:sid/state', allow(DOOR), async (c) => {
    const user = await reachableUser(c, c.req.param('userId'), DOOR);
    const row = await credentialOf(c, user, c.req.param('sid'));
    c.header('Cache-Control', 'no-store');
    return c.json<CredentialStateAnswer>({
      sid: row.sid,
      state: row.state,
      valid: user.active && isValidCredential(row, now()),
    });
  });

  // Spec §4 Accreditation: active (a qr one gets a new 15-day window from now) or revoked (it ends now).
  app.put('/public/credentials/:userId/sids/:sid/state', allow(CHANGE_STATE), async (c) => {
    const user = await reachableUser(c, c.req.param('userId'), CHANGE_STATE);
    const { state } = await readBody(c, credentialStateBody);
    const row = await credentialOf(c, user, c.req.param('sid'));
    const at = now();
    const qr = row.credential_type === 'qr';
    const { rows } = await db.query<CredentialRow>(
      `update credentials set state = $4, starts_at = $5, ends_at = $6
        where tenant = $1 and user_id = $2 and sid = $3 returning ${CREDENTIAL_COLUMNS}`,
      [
        c.get('tenant'),
        user.user_id,
        row.sid,
        state,
        state === 'active' && qr ? at : row.starts_at,
        qr ? (state === 'active' ? new Date(at.getTime() + QR_VALID_MS) : at) : row.ends_at,
      ],
    );
    const updated = rows[0];
    if (!updated) throw notFound();
    return c.json<Credential>(credentialJson(updated, at));
  });

  // Spec §7 POST /internal/rights: ask for an accreditation. One active credential of each type at a time; with a
  // new selfie portrayal of the person, the face credential is made again from it.
  // Add location (spec §6 post_credentials_location): a facility of the tenant where the person's credentials are
  // good. 422 location_not_found for a facility that is not the tenant's; adding one already there changes nothing.
  app.post('/public/credentials/:userId/locations', allow(ADD_LOCATION), async (c) => {
    const user = await reachableUser(c, c.req.param('userId'), ADD_LOCATION);
    const { location } = await readBody(c, addLocationBody);
    const tenant = c.get('tenant');
    const { rows } = await db.query<{ facility_id: string }>(
      'select facility_id from facilities where tenant = $1 and (facility_id = $2 or lower(alias) = lower($2))',
      [tenant, location.trim()],
    );
    const facility = rows[0];
    if (!facility) {
      throw new DetailedProblem(422, 'No facility of this tenant has that id.', 'validation', {
        errors: [{ field: 'location', code: 'location_not_found' }],
      });
    }
    await db.query(
      `insert into user_locations (tenant, user_id, facility_id, added_by) values ($1, $2, $3, $4)
       on conflict do nothing`,
      [tenant, user.user_id, facility.facility_id, c.get('auth').sub],
    );
    return c.json<UserLocations>(
      { user_id: user.user_id, locations: await locationsOf(db, tenant, user.user_id) },
      201,
    );
  });

  app.post('/internal/rights', allow(REQUEST_RIGHT), async (c) => {
    const body = await readBody(c, rightsRequest);
    const user = await reachableUser(c, body.subject, REQUEST_RIGHT);
    const tenant = c.get('tenant');
    const type = ACTION_TYPES[body.action];
    const portrayalId = body.claims?.portrayal_id;
    if (portrayalId && type !== 'embedding') {
      throw new DetailedProblem(
        422,
        'Only a face accreditation is made from a selfie.',
        'validation_failed',
        {
          errors: [{ field: 'claims.portrayal_id', code: 'not_allowed' }],
        },
      );
    }
    const at = now();
    return db.transaction(async (tx) => {
      const { rows: existing } = await tx.query<CredentialRow>(
        `select ${CREDENTIAL_COLUMNS} from credentials
          where tenant = $1 and user_id = $2 and credential_type = $3 and state = 'active'
          order by created_at desc for update`,
        [tenant, user.user_id, type],
      );
      const current = existing.find((row) => isValidCredential(row, at));
      if (current && !portrayalId) {
        throw new DetailedProblem(
          409,
          `An active ${type} credential exists already.`,
          CREDENTIAL_ALREADY_EXISTS,
          { credential: credentialJson(current, at) },
        );
      }
      const metadata: Record<string, unknown> = { object: body.object, requested_by: c.get('auth').sub };
      if (portrayalId) {
        await copyNewSelfie(tx, tenant, user, portrayalId);
        metadata.portrayal_id = portrayalId;
        // The new face replaces the old one: a door knows one face per person.
        await tx.query(
          `update credentials set state = 'revoked', ends_at = $4
            where tenant = $1 and user_id = $2 and credential_type = $3 and state = 'active'`,
          [tenant, user.user_id, type, at],
        );
      }
      const { rows } = await tx.query<CredentialRow>(
        `insert into credentials (tenant, user_id, credential_type, state, starts_at, ends_at, metadata, created_at)
         values ($1, $2, $3, 'active', $4, $5, $6, $4) returning ${CREDENTIAL_COLUMNS}`,
        [
          tenant,
          user.user_id,
          type,
          at,
          type === 'qr' ? new Date(at.getTime() + QR_VALID_MS) : null,
          JSON.stringify(metadata),
        ],
      );
      const created = rows[0];
      if (!created) throw new Error('credential insert returned no row');
      return c.json<Credential>(credentialJson(created, at), 201);
    });
  });

  return app;
}

/**
 * The new selfie of a person (spec §1 "renewing a selfie"): a selfie portrayal the person made, whose picture is
 * in, becomes the user's selfie evidence. Anything else (another person's portrayal, a document, no picture): 422.
 */
async function copyNewSelfie(tx: Queryable, tenant: string, user: UserRow, portrayalId: string) {
  const { rows } = await tx.query<{ content_type: string; bytes: Uint8Array }>(
    `select i.content_type, i.bytes from portrayals p
       join portrayal_images i on i.tenant = p.tenant and i.portrayal_id = p.portrayal_id
                              and i.kind = 'selfie' and i.seq = 0
      where p.tenant = $1 and p.portrayal_id = $2 and p.portrayal_type = 'selfie'
        and (p.owner_id = $3 or p.user_id = $3 or p.user_id = $4)`,
    [tenant, portrayalId, user.account_id ?? '', user.user_id],
  );
  const selfie = rows[0];
  if (!selfie) {
    throw new DetailedProblem(422, 'No selfie of this person in that portrayal.', 'validation_failed', {
      errors: [{ field: 'claims.portrayal_id', code: 'selfie_not_provided' }],
    });
  }
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
}
