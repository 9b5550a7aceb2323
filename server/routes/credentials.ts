// Credentials of enrolled users, the read side (spec §3 Credentials of a user, Accreditation; §7 Credentials):
//   GET /public/credentials/{userId}             the user's credentials keyed by sid
//   GET /public/credentials/{userId}/sids/{sid}  one credential: JSON, or a PNG QR image (PDF not yet)
// Readers: the person the user record belongs to (users.account_id = token sub) with can_view_accreditations or
// get_users_me, and staff with get_users_all. Everyone else, another tenant, or an id that is not a UUID: 404,
// so that nobody learns whether a user or a credential exists. Every query names the tenant of the call.
import { type Context, Hono } from 'hono';
import type { Permission } from '../../src/api/contract/permissions';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import { isUuid } from '../onboarding/validation';
import { HttpProblem } from '../problem';
import { qrPng } from '../qr';

const OWN_PERMISSIONS: readonly Permission[] = ['can_view_accreditations', 'get_users_me'];
const STAFF_PERMISSION: Permission = 'get_users_all';

interface UserRow {
  user_id: string;
  account_id: string | null;
  acs_id: string;
  active: boolean;
}

interface CredentialRow {
  sid: string;
  user_id: string;
  credential_type: 'qr' | 'embedding' | 'enrolment_proof';
  state: 'active' | 'revoked';
  starts_at: Date;
  ends_at: Date | null;
  created_at: Date;
}

export interface CredentialsOptions {
  now?: () => Date;
}

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

export function credentialsRoutes(
  deps: AppDeps,
  auth: ApiAuth,
  options: CredentialsOptions = {},
): Hono<AuthEnv> {
  const { db } = deps;
  const now = options.now ?? (() => new Date());
  const app = new Hono<AuthEnv>();
  const readers = auth.requireAuth(...OWN_PERMISSIONS, STAFF_PERMISSION);

  /** The user record itself when the caller may read it, or a 404 problem. */
  function readable(c: Context<AuthEnv>, user: UserRow | undefined): UserRow {
    if (!user) throw notFound();
    const claims = c.get('auth');
    const staff = claims.roles.includes(STAFF_PERMISSION);
    const owner =
      user.account_id !== null &&
      user.account_id === claims.sub &&
      OWN_PERMISSIONS.some((permission) => claims.roles.includes(permission));
    if (!staff && !owner) throw notFound();
    return user;
  }

  /** The user record the caller may read, or a 404 problem. */
  async function readableUser(c: Context<AuthEnv>, userId: string): Promise<UserRow> {
    if (!isUuid(userId)) throw notFound();
    const { rows } = await db.query<UserRow>(
      'select user_id::text as user_id, account_id, acs_id, active from users where tenant = $1 and user_id = $2',
      [c.get('tenant'), userId],
    );
    return readable(c, rows[0]);
  }

  const CREDENTIAL_COLUMNS =
    'sid::text as sid, user_id::text as user_id, credential_type, state, starts_at, ends_at, created_at';

  app.get('/public/credentials/:userId', readers, async (c) => {
    const userId = c.req.param('userId');
    if (!isUuid(userId)) throw notFound();
    // One round trip for the user and their credentials (a user without any gives one row of nulls): the
    // person's own QR screen reads this often, and every query is a trip through the database engine.
    const { rows } = await db.query<UserRow & { [K in keyof CredentialRow]: CredentialRow[K] | null }>(
      `select u.user_id::text as user_id, u.account_id, u.acs_id, u.active,
              c.sid::text as sid, c.credential_type, c.state, c.starts_at, c.ends_at, c.created_at
         from users u
         left join credentials c on c.tenant = u.tenant and c.user_id = u.user_id
        where u.tenant = $1 and u.user_id = $2
        order by c.created_at, c.sid`,
      [c.get('tenant'), userId],
    );
    const user = readable(c, rows[0]);
    c.header('Cache-Control', 'no-store');
    return c.json({
      user_id: user.user_id,
      activated: user.active,
      // No per-user location list is stored yet (post_credentials_location is not implemented).
      locations: [] as string[],
      metadata: { acs_id: user.acs_id },
      credentials: Object.fromEntries(
        rows.flatMap((row) =>
          row.sid === null || row.created_at === null || row.starts_at === null
            ? []
            : [
                [
                  row.sid,
                  {
                    created_at: iso(row.created_at),
                    credential_type: row.credential_type,
                    state: row.state,
                    starts_at: iso(row.starts_at),
                    ends_at: iso(row.ends_at),
                  },
                ],
              ],
        ),
      ),
    });
  });

  app.get('/public/credentials/:userId/sids/:sid', readers, async (c) => {
    const user = await readableUser(c, c.req.param('userId'));
    const sid = c.req.param('sid');
    if (!isUuid(sid)) throw notFound();
    const tenant = c.get('tenant');
    const { rows } = await db.query<CredentialRow>(
      `select ${CREDENTIAL_COLUMNS} from credentials where tenant = $1 and user_id = $2 and sid = $3`,
      [tenant, user.user_id, sid],
    );
    const row = rows[0];
    if (!row) throw notFound();
    c.header('Cache-Control', 'no-store');
    c.header('Vary', 'Accept');
    const format = requestedFormat(c.req.query('format'), c.req.header('accept'));
    if (format === 'pdf') {
      throw new HttpProblem(
        406,
        'The PDF credential is not available yet; ask for format=png or JSON.',
        'not_acceptable',
      );
    }
    if (format === 'png') {
      if (row.credential_type !== 'qr') {
        throw new HttpProblem(406, `A ${row.credential_type} credential has no QR image.`, 'not_acceptable');
      }
      const size = Number(c.req.query('size'));
      const png = await qrPng(credentialPayload(tenant, user.acs_id, row.sid), {
        ...(Number.isFinite(size) && size > 0 ? { size } : {}),
      });
      return c.body(new Uint8Array(png), 200, {
        'Content-Type': 'image/png',
        'Content-Disposition': `inline; filename="credential-${row.sid}.png"`,
      });
    }
    return c.json({
      sid: row.sid,
      user_id: row.user_id,
      credential_type: row.credential_type,
      state: row.state,
      starts_at: iso(row.starts_at),
      ends_at: iso(row.ends_at),
      valid: isValidCredential(row, now()),
    });
  });

  return app;
}
