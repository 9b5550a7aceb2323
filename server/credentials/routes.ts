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
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import type { Db } from '../db/db';
import { HttpProblem } from '../http/problem';
import { confirmTenant } from '../http/tenant-confirmation';
import { DetailedProblem, isUuid, readBody } from '../http/validation';
import { qrPng } from '../qr';
import { noteStaffAction, recordsStaffAction, recordsWithin } from '../staff-actions/routes';
import { credentialPdf, pdfLocaleOf } from './pdf';
import {
  ACS_ID_CHECK,
  ACTIVATE,
  type Access,
  ADD_LOCATION,
  CHANGE_STATE,
  credentialPayload,
  DOOR,
  isValidCredential,
  mayReach,
  QR_VALID_MS,
  READ,
  REQUEST_RIGHT,
  stateWindow,
} from './rules';
import {
  acsIdOwner,
  activeCredentials,
  addUserLocation,
  type CredentialRow,
  copyNewSelfie,
  credentialBySid,
  facilityIdOf,
  facilityOf,
  insertCredential,
  locationsOf,
  revokeActive,
  setCredentialState,
  setEveryUserActive,
  setUserActive,
  type UserRow,
  userByIdOrAccount,
  userWithCredentials,
} from './store';

export interface CredentialsOptions {
  now?: () => Date;
}

const notFound = () => new HttpProblem(404, 'No credential with that id.', 'not_found');
const iso = (date: Date | null) => (date === null ? null : date.toISOString());

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

/** What every group of the credential routes shares. */
interface CredentialsContext {
  deps: AppDeps;
  db: Db;
  auth: ApiAuth;
  now: () => Date;
  tenantLook: ReturnType<typeof tenantLookLoader>;
  allow: (access: Access) => ReturnType<ApiAuth['requireAuth']>;
  /**
   * The user record named by `id` (its user_id, or its account id: spec §7 GET /public/credentials/{id}, which is
   * how a person signed in finds their own record) that the caller may reach with `access`, or a 404 problem.
   */
  reachableUser: (c: Context<AuthEnv>, id: string, access: Access) => Promise<UserRow>;
  credentialOf: (c: Context<AuthEnv>, user: UserRow, sid: string) => Promise<CredentialRow>;
}

/** The user record itself when the caller may reach it with `access` (staff, or its owner), or a 404 problem. */
function reachable<T extends UserRow>(c: Context<AuthEnv>, user: T | undefined, access: Access): T {
  if (!user || !mayReach(c.get('auth'), user.account_id, access)) throw notFound();
  return user;
}

export function credentialsRoutes(
  deps: AppDeps,
  auth: ApiAuth,
  options: CredentialsOptions = {},
): Hono<AuthEnv> {
  const { db } = deps;
  const v: CredentialsContext = {
    deps,
    db,
    auth,
    now: options.now ?? (() => new Date()),
    tenantLook: tenantLookLoader(deps.config.publicDir),
    allow: (access) => auth.requireAuth(...access.own, ...access.staff),
    reachableUser: async (c, id, access) => {
      if (!isUuid(id)) throw notFound();
      return reachable(c, await userByIdOrAccount(db, c.get('tenant'), id), access);
    },
    credentialOf: async (c, user, sid) => {
      if (!isUuid(sid)) throw notFound();
      const row = await credentialBySid(db, c.get('tenant'), user.user_id, sid);
      if (!row) throw notFound();
      return row;
    },
  };
  const app = new Hono<AuthEnv>();
  activationRoutes(app, v);
  readRoutes(app, v);
  stateRoutes(app, v);
  locationRoute(app, v);
  rightsRoute(app, v);
  return app;
}

function activationRoutes(app: Hono<AuthEnv>, { db, auth, allow, reachableUser }: CredentialsContext) {
  // Existence check of an access-control id (spec §5: 200 exists, 404 free), for the staff registration forms.
  app.get('/public/credentials', auth.requireAuth(...ACS_ID_CHECK), async (c) => {
    const acsId = c.req.query('acs_id')?.trim();
    if (!acsId) throw new HttpProblem(400, 'Give acs_id.', 'invalid_query');
    const row = await acsIdOwner(db, c.get('tenant'), acsId);
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
    const everyone = recordsStaffAction(db, {
      action: active ? 'users.activate_all' : 'users.deactivate_all',
    });
    app.put(
      `/public/credentials/${segment}`,
      auth.requireAuth('put_credentials_state_all'),
      everyone,
      async (c) => {
        await confirmTenant(c);
        const users = await recordsWithin(c, db, (tx) =>
          setEveryUserActive(tx, c.get('tenant'), active, c.get('auth').sub),
        );
        return c.json<ActivationAnswer>({ activated: active, users });
      },
    );
    const one = recordsStaffAction(db, {
      action: active ? 'user.activate' : 'user.deactivate',
      subjectParam: 'userId',
    });
    app.put(`/public/credentials/:userId/${segment}`, allow(ACTIVATE), one, async (c) => {
      const user = await reachableUser(c, c.req.param('userId'), ACTIVATE);
      await recordsWithin(c, db, (tx) => setUserActive(tx, c.get('tenant'), user.user_id, active));
      return c.json<ActivationAnswer>({ activated: active, users: 1 });
    });
  }
}

function readRoutes(app: Hono<AuthEnv>, v: CredentialsContext) {
  const { db, now, allow, reachableUser, credentialOf } = v;
  app.get('/public/credentials/:userId', allow(READ), async (c) => {
    const id = c.req.param('userId');
    if (!isUuid(id)) throw notFound();
    const joined = await userWithCredentials(db, c.get('tenant'), id);
    const user = reachable(c, joined.user, READ);
    const at = now();
    c.header('Cache-Control', 'no-store');
    return c.json<UserCredentials>({
      user_id: user.user_id,
      activated: user.active,
      // The facilities added to the person's credentials (user_locations, migration 016), by facility id.
      locations: joined.locations,
      metadata: { acs_id: user.acs_id, first_name: user.first_name, last_name: user.last_name },
      credentials: Object.fromEntries(
        joined.credentials.map((row) => [
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
    c.header('Cache-Control', 'no-store');
    c.header('Vary', 'Accept');
    const format = requestedFormat(c.req.query('format'), c.req.header('accept'));
    if (format === 'png' || format === 'pdf') return credentialImage(c, v, { user, row, format });
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
}

/** A QR credential as its QR image (PNG) or as a printable PDF with the tenant's heading. */
async function credentialImage(
  c: Context<AuthEnv>,
  { db, deps, tenantLook }: CredentialsContext,
  { user, row, format }: { user: UserRow; row: CredentialRow; format: 'png' | 'pdf' },
) {
  const tenant = c.get('tenant');
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
  const [look, facility] = await Promise.all([tenantLook(tenant), facilityOf(db, tenant, user.account_id)]);
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

function stateRoutes(
  app: Hono<AuthEnv>,
  { db, now, allow, reachableUser, credentialOf }: CredentialsContext,
) {
  // Spec §4 Accreditation: active (a qr one gets a new 15-day window from now) or revoked (it ends now).
  app.put(
    '/public/credentials/:userId/sids/:sid/state',
    allow(CHANGE_STATE),
    recordsStaffAction(db, { action: 'credential.state', subjectParam: 'userId' }),
    async (c) => {
      const user = await reachableUser(c, c.req.param('userId'), CHANGE_STATE);
      const { state } = await readBody(c, credentialStateBody);
      const row = await credentialOf(c, user, c.req.param('sid'));
      const at = now();
      const updated = await recordsWithin(c, db, async (tx) => {
        const changed = await setCredentialState(tx, c.get('tenant'), {
          userId: user.user_id,
          sid: row.sid,
          state,
          ...stateWindow(row, state, at),
        });
        if (!changed) throw notFound();
        return changed;
      });
      return c.json<Credential>(credentialJson(updated, at));
    },
  );
}

function locationRoute(app: Hono<AuthEnv>, { db, allow, reachableUser }: CredentialsContext) {
  // Add location (spec §6 post_credentials_location): a facility of the tenant where the person's credentials are
  // good. 422 location_not_found for a facility that is not the tenant's; adding one already there changes nothing.
  app.post(
    '/public/credentials/:userId/locations',
    allow(ADD_LOCATION),
    recordsStaffAction(db, { action: 'credential.location', subjectParam: 'userId' }),
    async (c) => {
      const user = await reachableUser(c, c.req.param('userId'), ADD_LOCATION);
      const { location } = await readBody(c, addLocationBody);
      const tenant = c.get('tenant');
      const facilityId = await facilityIdOf(db, tenant, location.trim());
      if (!facilityId) {
        throw new DetailedProblem(422, 'No facility of this tenant has that id.', 'validation', {
          errors: [{ field: 'location', code: 'location_not_found' }],
        });
      }
      await recordsWithin(c, db, (tx) =>
        addUserLocation(tx, tenant, user.user_id, facilityId, c.get('auth').sub),
      );
      return c.json<UserLocations>(
        { user_id: user.user_id, locations: await locationsOf(db, tenant, user.user_id) },
        201,
      );
    },
  );
}

function rightsRoute(app: Hono<AuthEnv>, { db, now, allow, reachableUser }: CredentialsContext) {
  // Spec §7 POST /internal/rights: ask for an accreditation. One active credential of each type at a time; with a
  // new selfie portrayal of the person, the face credential is made again from it.
  app.post(
    '/internal/rights',
    allow(REQUEST_RIGHT),
    recordsStaffAction(db, { action: 'credential.issue' }),
    async (c) => {
      const body = await readBody(c, rightsRequest);
      const user = await reachableUser(c, body.subject, REQUEST_RIGHT);
      noteStaffAction(c, { subject: user.user_id });
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
      return recordsWithin(c, db, async (tx) => {
        const existing = await activeCredentials(tx, tenant, user.user_id, type);
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
          if (!(await copyNewSelfie(tx, tenant, user, portrayalId))) {
            throw new DetailedProblem(
              422,
              'No selfie of this person in that portrayal.',
              'validation_failed',
              {
                errors: [{ field: 'claims.portrayal_id', code: 'selfie_not_provided' }],
              },
            );
          }
          metadata.portrayal_id = portrayalId;
          // The new face replaces the old one: a door knows one face per person.
          await revokeActive(tx, tenant, user.user_id, type, at);
        }
        const created = await insertCredential(tx, tenant, {
          userId: user.user_id,
          type,
          at,
          endsAt: type === 'qr' ? new Date(at.getTime() + QR_VALID_MS) : null,
          metadata,
        });
        return c.json<Credential>(credentialJson(created, at), 201);
      });
    },
  );
}
