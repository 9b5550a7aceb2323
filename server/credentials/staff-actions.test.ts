import { beforeAll, describe, expect, it } from 'vitest';
import { seededUser } from '../db/seed-users';
import { type Person, person } from '../onboarding/testing/harness';
import { signedInAppForFile } from '../testing/signed-in-app';

// Staff actions: add location, activate/deactivate all recorded with what changed, ActivateUsers by region, and
// assisted_by shown by name, through the real app with the fake auth of the onboarding harness and the seed.

const portal = signedInAppForFile();

const ASSISTANT_ROLES = [
  'post_onboardings_assisted',
  'can_view_complete_onboardings',
  'put_credentials_state_one',
  'post_credentials_location',
  'post_external_enforcements',
  'delete_accounts_one',
  'post_accesses_myscope',
] as const;
const assistant = (tenant = 'gambling', sub = 'staff-assistant') => person(sub, tenant, [...ASSISTANT_ROLES]);
const manager = (tenant = 'gambling') =>
  person('staff-usermanager', tenant, ['get_users_all', 'post_singles', 'put_credentials_state_one']);
const locator = (tenant = 'gambling') =>
  person('staff-locator', tenant, ['get_users_all', 'post_credentials_location']);
const admin = (tenant = 'gambling') =>
  person('staff-admin', tenant, ['get_users_all', 'put_credentials_state_all', 'delete_users_all']);

const call = portal.call;

async function userIdOf(index: number, tenant = 'gambling') {
  const { rows } = await portal.db.query<{ user_id: string }>(
    'select user_id::text as user_id from users where tenant = $1 and acs_id = $2',
    [tenant, seededUser(tenant, index).acs_id],
  );
  const id = rows[0]?.user_id;
  if (!id) throw new Error(`no user ${index}`);
  return id;
}

async function facility(tenant: string, alias: string) {
  const { rows } = await portal.db.query<{ facility_id: string }>(
    'select facility_id from facilities where tenant = $1 and alias = $2',
    [tenant, alias],
  );
  const id = rows[0]?.facility_id;
  if (!id) throw new Error(`no facility ${alias}`);
  return id;
}

async function locationsRead(userId: string, who: Person = manager()) {
  const res = await call('GET', `/public/credentials/${userId}`, who);
  expect(res.status).toBe(200);
  return ((await res.json()) as { locations: string[] }).locations;
}

describe('POST /public/credentials/{userId}/locations (add location)', () => {
  it('adds a facility of the tenant once, and the credentials read lists it', async () => {
    const userId = await userIdOf(11);
    const lasPalmas = await facility('gambling', 'Sala Las Palmas');
    const before = await locationsRead(userId);
    expect(before).toHaveLength(1); // the seed gives each user one location
    for (let i = 0; i < 2; i++) {
      const res = await call('POST', `/public/credentials/${userId}/locations`, locator(), {
        location: lasPalmas,
      });
      expect(res.status).toBe(201);
    }
    const after = await locationsRead(userId);
    expect(after).toContain(lasPalmas);
    expect(after).toHaveLength(new Set([...before, lasPalmas]).size);
    // The alias names the same facility.
    const byAlias = await call('POST', `/public/credentials/${userId}/locations`, locator(), {
      location: 'Sala Bilbao',
    });
    const answered = ((await byAlias.json()) as { locations: string[] }).locations;
    expect(answered).toContain(await facility('gambling', 'Sala Bilbao'));
    // The answer to adding one lists them as the credentials read does: in the same order.
    expect(answered).toEqual(await locationsRead(userId));
  });

  it('needs post_credentials_location; another tenant’s user or facility is refused', async () => {
    const userId = await userIdOf(12);
    const demoHq = await facility('demo', 'Demo HQ');
    const refused = await call('POST', `/public/credentials/${userId}/locations`, manager(), {
      location: 'Sala Bilbao',
    });
    expect(refused.status).toBe(403);
    // A gambling user asked for by a demo caller: 404; a demo facility for a gambling user: 422.
    const other = await call('POST', `/public/credentials/${userId}/locations`, locator('demo'), {
      location: 'Demo HQ',
    });
    expect(other.status).toBe(404);
    const foreign = await call('POST', `/public/credentials/${userId}/locations`, locator(), {
      location: demoHq,
    });
    expect(foreign.status).toBe(422);
    expect(await foreign.json()).toMatchObject({
      errors: [{ field: 'location', code: 'location_not_found' }],
    });
    expect(await locationsRead(userId)).not.toContain(demoHq);
    const made = await call('POST', `/public/credentials/not-a-uuid/locations`, locator(), {
      location: 'Sala Bilbao',
    });
    expect(made.status).toBe(404);
  });
});

describe('POST /public/users/activation (ActivateUsers)', () => {
  beforeAll(async () => {
    await portal.db.query(
      `insert into account_facilities (tenant, account_id, facility_id)
       select 'gambling', 'staff-assistant', facility_id from facilities where tenant = 'gambling' and alias = 'Sala Bilbao'`,
    );
  });

  it('activates the users of a region and adds the assistant’s facility to their locations', async () => {
    const bilbao = await facility('gambling', 'Sala Bilbao');
    await portal.db.query("update users set active = false where tenant = 'gambling' and region = 'es-ct'");
    const { rows } = await portal.db.query<{ count: number }>(
      "select count(*)::int as count from users where tenant = 'gambling' and region = 'es-ct'",
    );
    const expected = rows[0]?.count ?? 0;
    expect(expected).toBeGreaterThan(1);
    const res = await call('POST', '/public/users/activation', assistant(), { region: 'es-ct' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      users: expected,
      region: 'es-ct',
      facility_id: bilbao,
      alias: 'Sala Bilbao',
    });
    const after = await portal.db.query<{ active: boolean; has: boolean }>(
      `select u.active, exists (select 1 from user_locations l where l.tenant = u.tenant and l.user_id = u.user_id
                                   and l.facility_id = $1) as has
         from users u where u.tenant = 'gambling' and u.region = 'es-ct'`,
      [bilbao],
    );
    expect(after.rows.every((row) => row.active && row.has)).toBe(true);
    // The other tenant's users are untouched.
    const demo = await portal.db.query<{ count: number }>(
      "select count(*)::int as count from user_locations where tenant = 'demo' and facility_id = $1",
      [bilbao],
    );
    expect(demo.rows[0]?.count).toBe(0);
  });

  it('narrows to one DNI/NIE, and answers 404 no_users_found when nobody matches', async () => {
    const { rows } = await portal.db.query<{ id_number: string; region: string }>(
      "select id_number, region from users where tenant = 'gambling' and acs_id = $1",
      [seededUser('gambling', 20).acs_id],
    );
    const one = rows[0];
    if (!one) throw new Error('no user 20');
    await portal.db.query("update users set active = false where tenant = 'gambling' and id_number = $1", [
      one.id_number,
    ]);
    const res = await call('POST', '/public/users/activation', assistant(), {
      region: one.region,
      id_number: one.id_number.toLowerCase(),
    });
    expect(await res.json()).toMatchObject({ users: 1 });
    const other = one.region === 'es-an' ? 'es-ri' : 'es-an';
    const none = await call('POST', '/public/users/activation', assistant(), {
      region: other,
      id_number: one.id_number,
    });
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ code: 'no_users_found' });
  });

  it('is only for assistants who are not user managers, in the gambling domain', async () => {
    const asManager = await call('POST', '/public/users/activation', manager(), { region: 'es-an' });
    expect(asManager.status).toBe(403);
    const both = person('staff-both', 'gambling', [...ASSISTANT_ROLES, 'get_users_all']);
    expect((await call('POST', '/public/users/activation', both, { region: 'es-an' })).status).toBe(403);
    const demo = await call('POST', '/public/users/activation', assistant('demo'), { region: 'es-demo' });
    expect(demo.status).toBe(403);
    expect((await call('POST', '/public/users/activation', undefined, { region: 'es-an' })).status).toBe(401);
  });

  it('refuses a region that is not the tenant’s, and an assistant in charge of no facility', async () => {
    const wrong = await call('POST', '/public/users/activation', assistant(), { region: 'es-demo' });
    expect(wrong.status).toBe(422);
    const nowhere = await call('POST', '/public/users/activation', assistant('gambling', 'staff-nowhere'), {
      region: 'es-an',
    });
    expect(nowhere.status).toBe(409);
    expect(await nowhere.json()).toMatchObject({ code: 'no_facility' });
  });
});

describe('PUT /public/credentials/active|inactive (Administration)', () => {
  const activeUsers = async (tenant: string) =>
    (
      await portal.db.query<{ count: number }>(
        'select count(*)::int as count from users where tenant = $1 and active',
        [tenant],
      )
    ).rows[0]?.count ?? -1;
  const recordedActions = async (tenant: string) =>
    (
      await portal.db.query<{ count: number }>(
        'select count(*)::int as count from tenant_admin_actions where tenant = $1',
        [tenant],
      )
    ).rows[0]?.count ?? -1;

  it("refuses without the tenant's name typed, changing and recording nothing", async () => {
    // Another tenant than the test below, whose counts start from the seed.
    const tenant = 'gambling';
    const active = await activeUsers(tenant);
    expect(active).toBeGreaterThan(0);
    const recorded = await recordedActions(tenant);
    for (const segment of ['inactive', 'active']) {
      const path = `/public/credentials/${segment}`;
      for (const body of [undefined, {}, { confirm: '' }, { confirm: 'demo' }, { confirm: 'gamblin' }]) {
        const res = await call('PUT', path, admin(tenant), body);
        expect(res.status, `${segment} ${JSON.stringify(body)}`).toBe(422);
        expect(await res.json()).toMatchObject({ code: 'confirmation_mismatch' });
      }
      const wrongType = await call('PUT', path, admin(tenant), { confirm: 7 });
      expect(wrongType.status).toBe(422);
      expect(await wrongType.json()).toMatchObject({ code: 'validation' });
    }
    expect(await activeUsers(tenant)).toBe(active);
    expect(await recordedActions(tenant)).toBe(recorded);
    // The right comes first: someone without it learns nothing about the confirmation.
    expect((await call('PUT', '/public/credentials/inactive', manager(tenant))).status).toBe(403);
  });

  it('counts only the users whose state changed, and records each action', async () => {
    const tenant = 'demo';
    const confirm = { confirm: ` ${tenant} ` };
    const off = await call('PUT', '/public/credentials/inactive', admin(tenant), confirm);
    const { rows } = await portal.db.query<{ count: number }>(
      'select count(*)::int as count from users where tenant = $1',
      [tenant],
    );
    const total = rows[0]?.count ?? 0;
    const offBody = (await off.json()) as { users: number };
    expect(offBody.users).toBeGreaterThan(0);
    expect(offBody.users).toBeLessThanOrEqual(total);
    // Nothing is left to deactivate; activating changes every user.
    expect(await (await call('PUT', '/public/credentials/inactive', admin(tenant), confirm)).json()).toEqual({
      activated: false,
      users: 0,
    });
    expect(await (await call('PUT', '/public/credentials/active', admin(tenant), confirm)).json()).toEqual({
      activated: true,
      users: total,
    });
    const recorded = await portal.db.query<{ action: string; users: number; actor: string }>(
      'select action, users, actor from tenant_admin_actions where tenant = $1 order by id',
      [tenant],
    );
    expect(recorded.rows).toEqual([
      { action: 'credentials_inactive', users: offBody.users, actor: 'staff-admin' },
      { action: 'credentials_inactive', users: 0, actor: 'staff-admin' },
      { action: 'credentials_active', users: total, actor: 'staff-admin' },
    ]);
    const gambling = await portal.db.query<{ count: number }>(
      "select count(*)::int as count from tenant_admin_actions where tenant = 'gambling'",
    );
    expect(gambling.rows[0]?.count).toBe(0);
    expect((await call('PUT', '/public/credentials/active', manager(tenant), confirm)).status).toBe(403);
  });
});

describe('GET /public/users/{id}: assisted_by and region', () => {
  it('names the assistant by username when assisted_by is an account id', async () => {
    const userId = await userIdOf(13);
    const { rows } = await portal.db.query<{ id: string }>(
      "select id::text as id from accounts where tenant = 'gambling' and username = 'assistant'",
    );
    await portal.db.query(
      "update users set assisted_by = $1, register_mode = 'assisted' where tenant = 'gambling' and user_id = $2",
      [rows[0]?.id, userId],
    );
    const res = await call('GET', `/public/users/${userId}`, manager());
    const body = (await res.json()) as { assisted_by: string; region: string };
    expect(body.assisted_by).toBe('assistant');
    expect(['es-an', 'es-ct', 'es-cn', 'es-nc', 'es-ri', 'es-mc']).toContain(body.region);
  });
});
