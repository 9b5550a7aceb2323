import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_ACTIONS, type StaffActionName, type StaffActionsPage } from '../../contract/api/staff-actions';
import { type App, createApp } from '../app';
import type { Db } from '../db/db';
import { seededUser } from '../db/seed-users';
import { basicEngine } from '../onboarding/engine';
import { fakeAuth, headersOf, type Person, PUBLIC_DIR, person } from '../onboarding/testing/harness';
import { createSiteFixture, createTestDb, type SiteFixture, testDeps } from '../testing/fixtures';
import { staffRoutes } from './testing/route-table';

// The route table is the list of what must be recorded: every route that names a staff permission either records
// a staff action or is named below with the reason it does not. A new staff route that does neither fails here.
const EXEMPT: Record<string, string> = {
  'GET /api/public/accounts':
    'a list of accounts (names, emails): the record covers changes and evidence reads',
  'GET /api/internal/accounts': 'an existence check of a login or an account id before a registration',
  'GET /api/public/credentials': 'an existence check of an access-control id (200 or 404), no personal data',
  'PUT /api/internal/accounts/:userId/locale': 'the language of the portal, not personal data of the person',
  'GET /api/public/credentials/:userId':
    'a person’s credentials and locations: identity data every staff task reads',
  'GET /api/public/credentials/:userId/sids/:sid': 'one credential (its QR), read to hand it over',
  'GET /api/public/credentials/:userId/sids/:sid/state': 'a door asks whether a credential is valid',
  'GET /api/public/users': 'the list of users: identity data every staff task reads',
  'GET /api/public/users/:id':
    'a person’s detail: identity data every staff task reads; the biometric evidence it links is recorded',
  'POST /api/internal/onboardings': 'a step of an assisted registration, recorded once at its confirmation',
  'GET /api/internal/onboardings/:id':
    'a step of an assisted registration, recorded once at its confirmation',
  'GET /api/internal/onboardings/:id/status':
    'a step of an assisted registration, recorded once at its confirmation',
  'PUT /api/internal/onboardings/:id/legal_terms':
    'a step of an assisted registration, recorded once at its confirmation',
  'DELETE /api/internal/onboardings/:id': 'an assisted registration abandoned: no person’s record was made',
  'POST /api/internal/portrayals': 'a step of an assisted registration, recorded once at its confirmation',
  'GET /api/internal/portrayals/:id': 'a step of an assisted registration, recorded once at its confirmation',
  'DELETE /api/internal/portrayals/:id': 'an assisted registration’s pictures dropped before it finished',
  'POST /api/internal/challenges': 'a step of an assisted registration, recorded once at its confirmation',
  'PUT /api/internal/portrayals/:id/:kind{obverse|reverse|selfie}':
    'a step of an assisted registration, recorded once at its confirmation',
  'PUT /api/internal/portrayals/:id/lifeproof':
    'a step of an assisted registration, recorded once at its confirmation',
  'POST /api/user-code/generate':
    'hands an assisted registration over to the person’s phone; no data of theirs',
  'POST /api/user-code/redeem': 'the person’s phone joins their own registration',
  'GET /api/dev/faults/enforcement': 'a development switch, loopback only, not in production',
  'POST /api/dev/faults/enforcement': 'a development switch, loopback only, not in production',
  'POST /api/dev/faults/busy': 'a development switch, loopback only, not in production',
  'GET /api/dev/clock': 'a development switch, loopback only, not in production',
  'PUT /api/dev/clock': 'a development switch, loopback only, not in production',
  'GET /api/public/visits/arrival': 'the reception’s list of today’s arrivals',
  'GET /api/public/visits/visitors/:userId': 'the reception looks a visitor up to book a visit',
  'GET /api/public/visits': 'the list of visits',
  'GET /api/public/visits/:id': 'one visit',
  'GET /api/public/visits/:id/qr': 'a visit’s QR, handed to the visitor',
  'POST /api/public/visits': 'a visit booked: the visit keeps who booked it in its history',
  'POST /api/public/visits/:id/cancellation':
    'a visit cancelled: the visit keeps who cancelled it in its history',
  'GET /api/public/singles/bulk/:jobId': 'the progress of one’s own import, recorded when it was sent',
  'POST /api/internal/accesses': 'a door’s decision: the access audit records it',
  'GET /api/public/audit_accesses': 'the auditor reads the access audit',
  'POST /api/public/audit_accesses': 'the auditor exports the access audit',
  'GET /api/public/staff_actions': 'the auditor reads this record',
  'POST /api/public/staff_actions': 'the auditor exports this record',
  'POST /api/internal/enforcements':
    'an interdiction check of a document against the prohibited list: nothing of the person is stored',
  'POST /api/enforcements':
    'an interdiction check of a document against the prohibited list: nothing is stored',
  'GET /api/public/watchlists': 'which watchlist versions the tenant holds',
  'GET /api/public/watchlists/uploads/:id': 'the outcome of a watchlist upload, recorded when it was sent',
};

/** Actions a route's handler names (registration or re-enrolment), where the route alone cannot say which. */
const NAMED_BY_HANDLERS: Record<string, StaffActionName[]> = {
  'PUT /api/internal/onboardings/:id/portrayals/:portrayalId': ['user.register', 'user.reenrol'],
};

const { table: TABLE, staff: STAFF_ROUTES, recording: RECORDING } = staffRoutes();

describe('every staff route on personal data records, or says why not', () => {
  it('finds the staff routes in the route table', () => {
    expect(STAFF_ROUTES.length).toBeGreaterThan(40);
    expect(RECORDING.length).toBeGreaterThan(15);
  });

  it.each(STAFF_ROUTES.map((r) => [r.route, r]))('%s', (_name, r) => {
    const why = EXEMPT[r.route];
    if (r.recording) {
      expect(why, 'a recording route is not exempt').toBeUndefined();
      if (r.recording.action === 'named by the handler') expect(NAMED_BY_HANDLERS[r.route]).toBeDefined();
    } else {
      expect(why, `${r.route} records no staff action and is not exempt`).toBeTruthy();
    }
  });

  it('no exemption names a route that does not exist, and every action name is recorded by some route', () => {
    const routes = new Set(TABLE.map((r) => r.route));
    expect(Object.keys(EXEMPT).filter((route) => !routes.has(route))).toEqual([]);
    const recorded = new Set<string>([
      ...RECORDING.flatMap((r) => {
        const action = r.recording?.action;
        return action === undefined || action === 'named by the handler' ? [] : [action];
      }),
      ...Object.values(NAMED_BY_HANDLERS).flat(),
    ]);
    expect(STAFF_ACTIONS.filter((action) => !recorded.has(action))).toEqual([]);
  });
});

let db: Db;
let site: SiteFixture;
let app: App;

beforeAll(async () => {
  db = await createTestDb();
  site = createSiteFixture();
  app = createApp({
    ...testDeps(db, site, { publicDir: PUBLIC_DIR }),
    auth: fakeAuth,
    onboarding: { engine: basicEngine, production: false },
  });
});

afterAll(async () => {
  await db.close();
  site.remove();
});

const manager = (tenant = 'gambling') =>
  person('staff-usermanager', tenant, ['get_users_all', 'post_singles', 'put_credentials_state_one']);
const auditor = (tenant = 'gambling') => person('staff-auditor', tenant, ['post_audit_accesses_all']);

function call(method: string, path: string, who: Person | undefined, body?: unknown) {
  const headers = headersOf(who);
  if (body !== undefined) headers['content-type'] = 'application/json';
  return app.request(`/api${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

async function userIdOf(index: number, tenant = 'gambling') {
  const { rows } = await db.query<{ user_id: string }>(
    'select user_id::text as user_id from users where tenant = $1 and acs_id = $2',
    [tenant, seededUser(tenant, index).acs_id],
  );
  const id = rows[0]?.user_id;
  if (!id) throw new Error(`no user ${index}`);
  return id;
}

async function recordOf(subject: string) {
  const res = await call('GET', `/public/staff_actions?person=${subject}&pageSize=100`, auditor());
  expect(res.status).toBe(200);
  return ((await res.json()) as StaffActionsPage).items;
}

describe('what the record holds', () => {
  it('a selfie read and a deactivation: who, their role, what, whose, the request id', async () => {
    const userId = await userIdOf(3);
    expect((await call('GET', `/public/users/${userId}/selfie`, manager())).status).toBe(200);
    expect((await call('PUT', `/public/credentials/${userId}/inactive`, manager())).status).toBe(200);
    const rows = await recordOf(userId);
    expect(rows.map((r) => r.action)).toEqual(['user.deactivate', 'evidence.read']);
    expect(rows[0]).toMatchObject({
      staff_id: 'staff-usermanager',
      staff_roles: ['usermanager'],
      subject_id: userId,
      subject_name: `${seededUser('gambling', 3).first_name} ${seededUser('gambling', 3).last_name}`,
    });
    expect(rows[0]?.request_id).toBeTruthy();
  });

  it('an action on every person names no one; a refused confirmation records nothing', async () => {
    const admin = person('staff-admin', 'demo', ['put_credentials_state_all']);
    const auditorOfDemo = auditor('demo');
    expect((await call('PUT', '/public/credentials/inactive', admin, { confirm: 'gambling' })).status).toBe(
      422,
    );
    expect((await call('PUT', '/public/credentials/inactive', admin, { confirm: 'demo' })).status).toBe(200);
    expect((await call('PUT', '/public/credentials/active', admin, { confirm: 'demo' })).status).toBe(200);
    const res = await call('GET', '/public/staff_actions?staff=staff-admin', auditorOfDemo);
    const items = ((await res.json()) as StaffActionsPage).items;
    expect(items.map((r) => [r.action, r.subject_id, r.subject_name])).toEqual([
      ['users.activate_all', null, null],
      ['users.deactivate_all', null, null],
    ]);
  });

  it('a registration names the new person; one refused records nothing', async () => {
    const body = {
      mode: 'fields',
      email: 'recorded-single@example.test',
      first_name: 'Nerea',
      last_name: 'Grabada',
      birth_date: '1988-04-12',
      document_type: 'id_card',
      document_number: 'SAREC1X',
    };
    const made = await call('POST', '/public/singles', manager(), body);
    const { result } = (await made.json()) as { result: { outcome: string; user_id: string } };
    expect(result.outcome).toBe('accepted');
    const again = await call('POST', '/public/singles', manager(), {
      ...body,
      email: 'other-single@example.test',
    });
    // The same document again: refused (as a rejected outcome or a conflict, whichever the rules answer).
    const refused = (await again.json()) as { result?: { outcome: string }; code?: string };
    expect(refused.result?.outcome ?? refused.code).not.toBe('accepted');
    const res = await call('GET', '/public/staff_actions?action=user.register&person=Grabada', auditor());
    const items = ((await res.json()) as StaffActionsPage).items;
    expect(items.map((r) => [r.subject_id, r.subject_name])).toEqual([[result.user_id, 'Nerea Grabada']]);
  });

  it('a call that failed records nothing', async () => {
    const userId = await userIdOf(4);
    const other = person('staff-other', 'gambling', ['put_credentials_state_one']);
    expect((await call('GET', `/public/users/${userId}/selfie`, other)).status).toBe(403);
    expect(
      (await call('GET', `/public/users/00000000-0000-4000-8000-000000000000/selfie`, manager())).status,
    ).toBe(404);
    expect(await recordOf(userId)).toEqual([]);
  });

  it('filters by staff member, action and dates; the auditor of one tenant sees only its own', async () => {
    const userId = await userIdOf(5);
    await call('GET', `/public/users/${userId}/obverse`, manager());
    const byAction = await call(
      'GET',
      `/public/staff_actions?action=evidence.read&staff=usermanager`,
      auditor(),
    );
    const items = ((await byAction.json()) as StaffActionsPage).items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((r) => r.action === 'evidence.read' && r.staff_id === 'staff-usermanager')).toBe(true);
    const future = await call('GET', `/public/staff_actions?from=2999-01-01T00:00:00Z`, auditor());
    expect(((await future.json()) as StaffActionsPage).total).toBe(0);
    const demo = await call('GET', `/public/staff_actions?person=${userId}`, auditor('demo'));
    expect(((await demo.json()) as StaffActionsPage).items).toEqual([]);
  });

  it('only the auditor reads it; a wrong filter is a 422 naming the field', async () => {
    expect((await call('GET', '/public/staff_actions', manager())).status).toBe(403);
    const scoped = person('staff-assistant', 'gambling', ['post_accesses_myscope']);
    expect((await call('GET', '/public/staff_actions', scoped)).status).toBe(403);
    const wrong = await call('GET', '/public/staff_actions?action=user.peek', auditor());
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toMatchObject({ errors: [{ field: 'action', code: 'wrong_format' }] });
  });

  it('the csv export has the same rows, formula-safe', async () => {
    const userId = await userIdOf(6);
    await call(
      'GET',
      `/public/users/${userId}/selfie`,
      person('=HYPERLINK("x")', 'gambling', ['get_users_all']),
    );
    const res = await call('POST', '/public/staff_actions', auditor(), { person: userId });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('at,staff_id,staff_name,staff_roles,action,subject_id,subject_name,request_id');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[1]).toContain(',evidence.read,');
  });

  it('no route changes or removes a row', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      expect((await call(method, '/public/staff_actions', auditor())).status).toBe(404);
    }
  });
});
