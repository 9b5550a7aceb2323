import { randomUUID } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { StaffActionName } from '../../contract/api/staff-actions';
import type { App } from '../app';
import { ROLE_PERMISSIONS, type RoleName } from '../auth/roles';
import { seededUser } from '../db/seed-users';
import {
  type Harness,
  headersOf,
  type Person,
  paddedJpeg,
  payload,
  person,
  readyPortrayal,
} from '../onboarding/testing/harness';
import { signedInAppForFile, signedInRequest } from '../testing/signed-in-app';
import { staffRoutes } from './testing/route-table';

// Every route that records a staff action, called for real: for each route of the route table that carries the
// recorder (the same list server/staff-actions/routes.test.ts checks), a staff member of the role that does it makes
// one request on the seeded database, and the record holds exactly one row for that request id naming who, their
// role, the action, whose data and the tenant. The same call by staff without the right (403), and a call the route
// refuses for what it asks (404, 409 or 422), leave no row. A recording route with no request here fails.

const portal = signedInAppForFile({ origins: 'default', onboarding: { resultDelayMs: 0 } });

const staff = (role: RoleName, tenant = 'gambling'): Person =>
  person(`staff-${role}-${tenant}`, tenant, [...ROLE_PERMISSIONS[role]]);

interface Call {
  path: string;
  body?: unknown;
  /** Another app on the same database (one with the visit's day as its clock). */
  app?: App;
}

interface Recipe {
  role: RoleName;
  tenant?: string;
  /** The action the row names, when the handler names it (a registration). */
  action?: StaffActionName;
  /** Makes what the call needs: the call, and whose data the row names. */
  prepare: () => Promise<{ call: Call; subject: string | null }>;
  /** A call the route refuses for what it asks, with the status it answers. */
  refused?: () => Promise<Call & { status: 404 | 409 | 422 }>;
  /** Changes every person of the tenant: run after the others. */
  last?: true;
}

const send = (method: string, call: Call, who: Person) =>
  (call.app ?? portal.app).request(`/api${call.path}`, signedInRequest(method, who, call.body, who.tenant));

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await portal.db.query<T>(sql, params)).rows;
}

async function one<T>(sql: string, params: unknown[] = []): Promise<T> {
  const rows = await query<T>(sql, params);
  if (!rows[0]) throw new Error(`nothing for ${sql}`);
  return rows[0];
}

const userIdOf = async (index: number, tenant = 'gambling') =>
  (
    await one<{ id: string }>('select user_id::text as id from users where tenant = $1 and acs_id = $2', [
      tenant,
      seededUser(tenant, index).acs_id,
    ])
  ).id;

const NOBODY = '00000000-0000-4000-8000-000000000000';
let next = 0;
/** A seeded user no other request of this file touches. */
const freshUser = () => userIdOf(20 + next++);

async function newAccount(onboarding = 'none') {
  const name = `recorded-${randomUUID().slice(0, 8)}`;
  return (
    await one<{ id: string }>(
      `insert into accounts (tenant, username, email, roles, onboarding_status)
       values ('gambling', $1, $1 || '@example.test', array['user'], $2) returning id::text as id`,
      [name, onboarding],
    )
  ).id;
}

/** A harness over this file's app, for the onboarding helpers (readyPortrayal). */
const harness = { call: harnessCall } as unknown as Harness;
function harnessCall(method: string, path: string, who: Person, body?: unknown) {
  const headers = headersOf(who);
  if (body instanceof Uint8Array) {
    headers['content-type'] = 'image/jpeg';
    return portal.app.request(`/api${path}`, { method, headers, body: new Blob([Uint8Array.from(body)]) });
  }
  return portal.app.request(`/api${path}`, signedInRequest(method, who, body));
}

const evidenceRead = (kind: string): Recipe => ({
  role: 'usermanager',
  prepare: async () => {
    const id = await freshUser();
    return { call: { path: `/public/users/${id}/${kind}` }, subject: id };
  },
  refused: async () => ({ path: `/public/users/${NOBODY}/${kind}`, status: 404 }),
});

const userState = (state: 'active' | 'inactive'): Recipe => ({
  role: 'usermanager',
  prepare: async () => {
    const id = await freshUser();
    return { call: { path: `/public/credentials/${id}/${state}` }, subject: id };
  },
  refused: async () => ({ path: `/public/credentials/${NOBODY}/${state}`, status: 404 }),
});

const everyone = (path: string): Recipe => ({
  role: 'admin',
  tenant: 'demo',
  prepare: async () => ({ call: { path, body: { confirm: 'demo' } }, subject: null }),
  refused: async () => ({ path, body: { confirm: 'gambling' }, status: 422 }),
  last: true,
});

function watchlistForm(domain: string, csv: string) {
  const form = new FormData();
  form.set('domain', domain);
  form.set('watch_type', 'interdicted');
  form.set('upload', new File([csv], 'list.csv', { type: 'text/csv' }));
  return form;
}

const watchlist = (path: string): Recipe => ({
  role: 'admin',
  tenant: 'demo',
  prepare: async () => ({
    call: { path, body: watchlistForm('es-demo', 'id_number;birth_date\n11111111H;1960-05-05\n') },
    subject: null,
  }),
  refused: async () => ({
    path,
    body: watchlistForm('es-demo', 'id_number,birth_date\n,1970-01-01\n'),
    status: 422,
  }),
});

/** A visit of the seeded visitor in `status`, and an app whose clock is half an hour before it. */
async function visitIn(status: 'accepted' | 'checked_in') {
  const visit = await one<{ id: string; expected_at: Date; visitor: string }>(
    `select visit_id::text as id, expected_at, visitor_account_id::text as visitor from visits
      where tenant = 'gambling' and status = 'accepted' order by expected_at limit 1`,
  );
  const app = portal.another({
    origins: 'default',
    deps: { visits: { now: () => new Date(visit.expected_at.getTime() - 30 * 60_000) } },
  });
  if (status === 'checked_in') {
    const res = await send(
      'PUT',
      { path: `/public/visits/${visit.id}/checkin`, body: {}, app },
      staff('receptionist'),
    );
    expect(res.status).toBe(200);
  }
  return { ...visit, app };
}

const RECIPES: Record<string, Recipe> = {
  'POST /api/internal/accounts': {
    role: 'assistant',
    prepare: async () => ({
      call: { path: '/internal/accounts', body: { email: `made-${randomUUID().slice(0, 8)}@example.test` } },
      subject: 'made',
    }),
    refused: async () => ({ path: '/internal/accounts', body: { email: 'not-an-email' }, status: 422 }),
  },
  'DELETE /api/internal/accounts/:id': {
    role: 'assistant',
    prepare: async () => {
      const id = await newAccount();
      return { call: { path: `/internal/accounts/${id}`, body: {} }, subject: id };
    },
    refused: async () => ({ path: `/internal/accounts/${NOBODY}`, body: {}, status: 404 }),
  },
  'PUT /api/public/credentials/active': everyone('/public/credentials/active'),
  'PUT /api/public/credentials/inactive': everyone('/public/credentials/inactive'),
  'PUT /api/public/credentials/:userId/active': userState('active'),
  'PUT /api/public/credentials/:userId/inactive': userState('inactive'),
  'PUT /api/public/credentials/:userId/sids/:sid/state': {
    role: 'usermanager',
    prepare: async () => {
      const id = await freshUser();
      const { sid } = await one<{ sid: string }>(
        `select sid::text as sid from credentials where tenant = 'gambling' and user_id = $1::uuid
          and credential_type = 'qr' order by created_at limit 1`,
        [id],
      );
      return {
        call: { path: `/public/credentials/${id}/sids/${sid}/state`, body: { state: 'revoked' } },
        subject: id,
      };
    },
    refused: async () => ({
      path: `/public/credentials/${NOBODY}/sids/${NOBODY}/state`,
      body: { state: 'revoked' },
      status: 404,
    }),
  },
  'POST /api/public/credentials/:userId/locations': {
    role: 'assistant',
    prepare: async () => {
      const id = await freshUser();
      return {
        call: { path: `/public/credentials/${id}/locations`, body: { location: 'Sala Bilbao' } },
        subject: id,
      };
    },
    refused: async () => ({
      path: `/public/credentials/${await freshUser()}/locations`,
      body: { location: 'Demo HQ' },
      status: 422,
    }),
  },
  'POST /api/internal/rights': {
    role: 'usermanager',
    prepare: async () => {
      const id = await freshUser();
      // One active credential of a type at a time: the seeded QR goes first.
      await portal.db.query(
        `update credentials set state = 'revoked' where tenant = 'gambling' and user_id = $1::uuid
            and credential_type = 'qr'`,
        [id],
      );
      return {
        call: { path: '/internal/rights', body: { subject: id, object: 'portal', action: 'access_qr' } },
        subject: id,
      };
    },
    refused: async () => ({
      path: '/internal/rights',
      body: { subject: NOBODY, object: 'portal', action: 'access_qr' },
      status: 404,
    }),
  },
  'GET /api/public/users/:id/selfie': evidenceRead('selfie'),
  'GET /api/public/users/:id/obverse': evidenceRead('obverse'),
  'GET /api/public/users/:id/reverse': evidenceRead('reverse'),
  'DELETE /api/public/users': everyone('/public/users'),
  'PUT /api/public/users/deleteAllData': everyone('/public/users/deleteAllData'),
  'PUT /api/public/accounts/:id/onboarding': {
    role: 'assistant',
    prepare: async () => {
      const id = await newAccount('incompleted');
      return {
        call: { path: `/public/accounts/${id}/onboarding`, body: { onboarding_status: 'completed' } },
        subject: id,
      };
    },
    refused: async () => ({
      path: `/public/accounts/${NOBODY}/onboarding`,
      body: { onboarding_status: 'completed' },
      status: 404,
    }),
  },
  'POST /api/public/users/activation': {
    role: 'assistant',
    prepare: async () => {
      await portal.db.query(
        `insert into account_facilities (tenant, account_id, facility_id)
         select 'gambling', $1, facility_id from facilities where tenant = 'gambling' and alias = 'Sala Bilbao'
         on conflict do nothing`,
        [staff('assistant').sub],
      );
      return { call: { path: '/public/users/activation', body: { region: 'es-ct' } }, subject: null };
    },
    refused: async () => ({
      path: '/public/users/activation',
      body: { region: 'es-ct', id_number: '00000000T' },
      status: 404,
    }),
  },
  'PUT /api/internal/onboardings/:id/portrayals/:portrayalId': {
    role: 'assistant',
    action: 'user.register',
    prepare: async () => {
      const who = staff('assistant');
      const started = await readyPortrayal(harness, who, {
        mode: 'assisted',
        user_id: `acc-${randomUUID()}`,
        userData: { email: null },
        registerMode: 'Assisted',
      });
      return {
        call: {
          path: `/internal/onboardings/${started.onboardingId}/portrayals/${started.portrayalId}`,
          body: payload(),
        },
        subject: 'made',
      };
    },
    refused: async () => ({
      path: `/internal/onboardings/${NOBODY}/portrayals/${NOBODY}`,
      body: payload(),
      status: 404,
    }),
  },
  'PUT /api/public/visits/:id/checkin': {
    role: 'receptionist',
    prepare: async () => {
      const visit = await visitIn('accepted');
      return {
        call: { path: `/public/visits/${visit.id}/checkin`, body: {}, app: visit.app },
        subject: visit.visitor,
      };
    },
    refused: async () => ({ path: `/public/visits/${NOBODY}/checkin`, body: {}, status: 404 }),
  },
  'PUT /api/public/visits/:id/checkout': {
    role: 'receptionist',
    prepare: async () => {
      const visit = await visitIn('checked_in');
      return {
        call: { path: `/public/visits/${visit.id}/checkout`, body: {}, app: visit.app },
        subject: visit.visitor,
      };
    },
    refused: async () => ({ path: `/public/visits/${NOBODY}/checkout`, body: {}, status: 404 }),
  },
  'POST /api/public/singles': {
    role: 'usermanager',
    prepare: async () => {
      const tag = randomUUID().slice(0, 8).toUpperCase();
      return {
        call: {
          path: '/public/singles',
          body: {
            mode: 'fields',
            email: `single-${tag}@example.test`,
            first_name: 'Nerea',
            last_name: 'Grabada',
            birth_date: '1988-04-12',
            document_type: 'id_card',
            document_number: `REC${tag}`,
          },
        },
        subject: 'made',
      };
    },
    refused: async () => ({ path: '/public/singles', body: { mode: 'fields' }, status: 422 }),
  },
  'POST /api/public/singles/bulk': {
    role: 'usermanager',
    prepare: async () => {
      const form = new FormData();
      form.append(
        'metadata',
        new Blob([
          `email,first_name,last_name,acs_id,image\r\nbulk-rec@example.test,Ane,Bulk,BULK-REC,ane.jpg\r\n`,
        ]),
        'people.csv',
      );
      const zip = zipSync({ 'ane.jpg': new Uint8Array(paddedJpeg(20_000, 7)) });
      form.append('media', new Blob([zip], { type: 'application/zip' }), 'photos.zip');
      return { call: { path: '/public/singles/bulk', body: form }, subject: null };
    },
    refused: async () => {
      const form = new FormData();
      form.append('metadata', new Blob([strToU8('nothing,useful\r\n')]), 'people.csv');
      return { path: '/public/singles/bulk', body: form, status: 422 };
    },
  },
  'POST /api/public/watchlists': watchlist('/public/watchlists'),
  'POST /api/watchlists': watchlist('/watchlists'),
};

interface Row {
  tenant: string;
  staff_id: string;
  staff_roles: string[];
  action: string;
  subject_id: string | null;
  request_id: string;
}

const rowsOf = (requestId: string | null) =>
  query<Row>(
    `select tenant, staff_id, staff_roles, action, subject_id, request_id from staff_actions where request_id = $1`,
    [requestId],
  );

/** A 2xx call's own row: the subject 'made' is the id the answer names (a new account or user). */
async function subjectOf(res: Response, subject: string | null): Promise<string | null> {
  if (subject !== 'made') return subject;
  const body = (await res.json()) as { user_id?: string; result?: { user_id?: string } };
  return body.user_id ?? body.result?.user_id ?? null;
}

const { recording } = staffRoutes();
const ordered = [...recording].sort(
  (a, b) => Number(!!RECIPES[a.route]?.last) - Number(!!RECIPES[b.route]?.last),
);

describe('every recording route, called for real, records one row, and none when refused', () => {
  it('has a request for every recording route and for nothing else', () => {
    expect(recording.map((r) => r.route).filter((route) => !RECIPES[route])).toEqual([]);
    expect(Object.keys(RECIPES).filter((route) => !recording.some((r) => r.route === route))).toEqual([]);
  });

  it.each(ordered.map((r) => [r.route]))('%s', async (route) => {
    const recipe = RECIPES[route];
    if (!recipe) throw new Error(`no request for ${route}`);
    const method = route.split(' ')[0] as string;
    const tenant = recipe.tenant ?? 'gambling';
    const who = staff(recipe.role, tenant);
    const { call, subject } = await recipe.prepare();

    // Staff without the right: refused, nothing recorded.
    const forbidden = await send(method, call, staff('auditor', tenant));
    expect(forbidden.status).toBe(403);
    expect(await rowsOf(forbidden.headers.get('x-request-id'))).toEqual([]);

    const done = await send(method, call, who);
    expect(done.status, await done.clone().text()).toBeGreaterThanOrEqual(200);
    expect(done.status).toBeLessThan(300);
    const requestId = done.headers.get('x-request-id') ?? '';
    expect(requestId).not.toBe('');
    const action = recipe.action ?? recording.find((r) => r.route === route)?.recording?.action;
    expect(await rowsOf(requestId)).toEqual([
      {
        tenant,
        staff_id: who.sub,
        staff_roles: [recipe.role],
        action,
        subject_id: await subjectOf(done, subject),
        request_id: requestId,
      },
    ]);

    if (recipe.refused) {
      const { status, ...refusedCall } = await recipe.refused();
      const refused = await send(method, refusedCall, who);
      expect(refused.status, await refused.clone().text()).toBe(status);
      expect(await rowsOf(refused.headers.get('x-request-id'))).toEqual([]);
    }
  });
});
