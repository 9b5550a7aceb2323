import { type } from 'arktype';
import { describe, expect, it } from 'vitest';
import { userDetail, userPage } from '../../contract/api/users';
import { seededUser } from '../db/seed-users';
import { type Person, person } from '../onboarding/testing/harness';
import { signedInAppForFile } from '../testing/signed-in-app';
import { unquoteFilter } from './rules';

// The staff users API through the real app, with the fake auth of the onboarding harness and the seeded users.

const portal = signedInAppForFile();

const manager = (tenant = 'gambling') => person('staff-usermanager', tenant, ['get_users_all']);
const admin = (tenant = 'gambling') => person('staff-admin', tenant, ['get_users_all', 'delete_users_all']);
const assistant = (tenant = 'gambling') =>
  person('staff-assistant', tenant, ['post_onboardings_assisted', 'can_view_complete_onboardings']);

const call = portal.call;

async function page(query: string, who: Person = manager()) {
  const res = await call('GET', `/public/users?${query}`, who);
  expect(res.status).toBe(200);
  const parsed = userPage(await res.json());
  if (parsed instanceof type.errors) throw new Error(parsed.summary);
  return parsed;
}

async function userIdOf(acsId: string, tenant = 'gambling') {
  const { rows } = await portal.db.query<{ user_id: string }>(
    'select user_id::text as user_id from users where tenant = $1 and acs_id = $2',
    [tenant, acsId],
  );
  const id = rows[0]?.user_id;
  if (!id) throw new Error(`no user ${acsId}`);
  return id;
}

describe('GET /public/users', () => {
  it('pages the seeded users with a bookmark to the next page and none on the last', async () => {
    const first = await page('pageSize=25');
    expect(first.totalItems).toBeGreaterThanOrEqual(60);
    expect(first.items).toHaveLength(25);
    expect(first.bookmark).not.toBeNull();
    const second = await page(`pageSize=25&bookmark=${first.bookmark}`);
    expect(second.pageIndex).toBe(1);
    expect(second.items.map((u) => u.user_id)).not.toContain(first.items[0]?.user_id);
    const lastIndex = Math.ceil(first.totalItems / 25) - 1;
    const last = await page(`pageSize=25&pageIndex=${lastIndex}`);
    expect(last.bookmark).toBeNull();
    expect(last.items.length).toBe(first.totalItems - lastIndex * 25);
  });

  it('filters with the quoted text, by national id and by birth date; sorts by the named column', async () => {
    const u = seededUser('gambling', 17);
    const byEmail = await page(`filter=${encodeURIComponent(`"${u.email}"`)}`);
    expect(byEmail.items.map((x) => x.email)).toEqual([u.email]);
    const byId = await page(`idNumber=${u.id_number.toLowerCase()}`);
    expect(byId.items.map((x) => x.acs_id)).toEqual([u.acs_id]);
    const byBirth = await page(`idNumber=${u.id_number}&birthDate=${u.birth_date}`);
    expect(byBirth.totalItems).toBe(1);
    const wrongBirth = await page(`idNumber=${u.id_number}&birthDate=1901-01-01`);
    expect(wrongBirth.totalItems).toBe(0);
    const sorted = await page('orderby=last_name&sorted=asc&pageSize=100');
    const names = sorted.items.map((x) => x.last_name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const desc = await page('orderby=last_name&sorted=desc&pageSize=100');
    expect(desc.items[0]?.last_name).toBe(names.at(-1));
  });

  it('refuses a bad orderby, sorted, birth date or bookmark with 400', async () => {
    for (const query of ['orderby=password', 'sorted=up', 'birthDate=31-12-1990', 'bookmark=zzz']) {
      const res = await call('GET', `/public/users?${query}`, manager());
      expect(res.status, query).toBe(400);
      expect((await res.json()).code).toBe('invalid_query');
    }
  });

  it('needs get_users_all (or, to pick a user to re-enrol, post_onboardings_assisted) and names only the caller tenant', async () => {
    expect((await call('GET', '/public/users', undefined)).status).toBe(401);
    const accountManager = person('staff-accounts', 'gambling', [
      'get_accounts_all',
      'can_view_complete_onboardings',
    ]);
    expect((await call('GET', '/public/users', accountManager)).status).toBe(403);
    expect((await call('GET', '/public/users?pageSize=5', assistant())).status).toBe(200);
    expect(
      (await call('GET', `/public/users/${await userIdOf(seededUser('gambling', 1).acs_id)}`, assistant()))
        .status,
    ).toBe(403);
    const demo = await page('pageSize=100', manager('demo'));
    expect(demo.items.every((x) => x.acs_id.startsWith('ACS-DEMO'))).toBe(true);
  });

  it('unquotes the filter only when the whole of it is quoted', () => {
    expect(unquoteFilter('"ana@x"')).toBe('ana@x');
    expect(unquoteFilter(' "a"b ')).toBe('"a"b');
    expect(unquoteFilter(undefined)).toBe('');
  });
});

describe('GET /public/users/{id} and its evidences', () => {
  it('gives every field of the user and the evidences that exist', async () => {
    const u = seededUser('gambling', 3);
    const id = await userIdOf(u.acs_id);
    const res = await call('GET', `/public/users/${id}`, manager());
    expect(res.status).toBe(200);
    const body = userDetail(await res.json());
    if (body instanceof type.errors) throw new Error(body.summary);
    const detail = body;
    expect(detail).toMatchObject({
      first_name: u.first_name,
      id_number: u.id_number,
      birth_date: u.birth_date,
      register_mode: u.register_mode,
      life_proofing_result: u.results[0],
      evidences: ['selfie', 'obverse', 'reverse'],
    });
  });

  it('serves each evidence as an image, and 404 for a missing one, another tenant or a bad id', async () => {
    const id = await userIdOf(seededUser('gambling', 6).acs_id);
    const selfie = await call('GET', `/public/users/${id}/selfie`, manager());
    expect(selfie.status).toBe(200);
    expect(selfie.headers.get('content-type')).toBe('image/jpeg');
    expect(new Uint8Array(await selfie.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0xff, 0xd8]));
    expect((await call('GET', `/public/users/${id}/reverse`, manager())).status).toBe(404);
    expect((await call('GET', `/public/users/${id}`, manager('demo'))).status).toBe(404);
    expect((await call('GET', `/public/users/${id}/obverse`, manager('demo'))).status).toBe(404);
    expect((await call('GET', '/public/users/not-a-uuid', manager())).status).toBe(404);
  });
});

describe('PUT /public/accounts/{id}/onboarding', () => {
  it('lets an assistant complete a pending onboarding once', async () => {
    const { rows } = await portal.db.query<{ id: string }>(
      `insert into accounts (tenant, username, email, roles, onboarding_status)
       values ('gambling', 'pending-one', 'pending-one@x.example', array['user'], 'incompleted') returning id::text as id`,
    );
    const id = rows[0]?.id ?? '';
    const done = await call('PUT', `/public/accounts/${id}/onboarding`, assistant(), {
      onboarding_status: 'completed',
    });
    expect(done.status).toBe(200);
    const { rows: after } = await portal.db.query<{ onboarding_status: string }>(
      'select onboarding_status from accounts where id = $1::uuid',
      [id],
    );
    expect(after[0]?.onboarding_status).toBe('completed');
    const again = await call('PUT', `/public/accounts/${id}/onboarding`, assistant(), {
      onboarding_status: 'completed',
    });
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('onboarding_not_pending');
    const other = await call('PUT', `/public/accounts/${id}/onboarding`, assistant('demo'), {
      onboarding_status: 'completed',
    });
    expect(other.status).toBe(404);
    expect(
      (await call('PUT', `/public/accounts/${id}/onboarding`, manager(), { onboarding_status: 'completed' }))
        .status,
    ).toBe(403);
  });
});

describe('DELETE /public/users and PUT /public/users/deleteAllData', () => {
  const count = async (sql: string, tenant: string) =>
    (await portal.db.query<{ n: number }>(sql, [tenant])).rows[0]?.n ?? -1;

  it('refuses without delete_users_all or without the tenant name, changing nothing', async () => {
    const before = await count('select count(*)::int as n from users where tenant = $1', 'demo');
    expect((await call('DELETE', '/public/users', manager('demo'), { confirm: 'demo' })).status).toBe(403);
    const wrong = await call('DELETE', '/public/users', admin('demo'), { confirm: 'gambling' });
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).code).toBe('confirmation_mismatch');
    // No name at all is refused like a wrong one.
    for (const [method, path] of [
      ['DELETE', '/public/users'],
      ['PUT', '/public/users/deleteAllData'],
    ] as const) {
      const missing = await call(method, path, admin('demo'));
      expect(missing.status).toBe(422);
      expect((await missing.json()).code).toBe('confirmation_mismatch');
    }
    expect(await count('select count(*)::int as n from users where tenant = $1', 'demo')).toBe(before);
  });

  it('deletes all data of one tenant only, says how many, and records it', async () => {
    const users = await count('select count(*)::int as n from users where tenant = $1', 'demo');
    const gamblingUsers = await count('select count(*)::int as n from users where tenant = $1', 'gambling');
    const images = await count(
      `select ((select count(*) from user_evidences where tenant = $1) +
               (select count(*) from portrayal_images where tenant = $1))::int as n`,
      'demo',
    );
    expect(users).toBeGreaterThanOrEqual(60);
    // An "add users from photos" job whose results name the imported people.
    await portal.db.query(
      `with job as (insert into bulk_imports (tenant, created_by, total, status) values ('demo', 'staff-admin', 1, 'done')
         returning job_id)
       insert into bulk_import_rows (tenant, job_id, row_number, email, outcome) select 'demo', job_id, 1,
         'imported@demo.example', 'accepted' from job`,
    );
    const audit = await count('select count(*)::int as n from audit_accesses where tenant = $1', 'demo');
    expect(
      await count(
        'select count(*)::int as n from audit_accesses where tenant = $1 and first_name is not null',
        'demo',
      ),
    ).toBeGreaterThan(0);
    const res = await call('PUT', '/public/users/deleteAllData', admin('demo'), { confirm: 'demo' });
    expect(res.status).toBe(200);
    // The access audit keeps every decision but no longer says who it was about.
    expect(await count('select count(*)::int as n from audit_accesses where tenant = $1', 'demo')).toBe(
      audit,
    );
    expect(
      await count(
        `select count(*)::int as n from audit_accesses where tenant = $1 and (user_id is not null or sid is not null
           or first_name is not null or last_name is not null or birth_date is not null or document_number is not null
           or id_number is not null or registration_date is not null)`,
        'demo',
      ),
    ).toBe(0);
    expect(
      await count(
        'select count(*)::int as n from audit_accesses where tenant = $1 and first_name is not null',
        'gambling',
      ),
    ).toBeGreaterThan(0);
    expect(await res.json()).toEqual({ users, images });
    for (const table of [
      'users',
      'user_evidences',
      'portrayal_images',
      'portrayals',
      'onboardings',
      'credentials',
      'bulk_imports',
      'bulk_import_rows',
    ]) {
      expect(await count(`select count(*)::int as n from ${table} where tenant = $1`, 'demo'), table).toBe(0);
    }
    expect(
      await count('select count(*)::int as n from accounts where tenant = $1 and enrolled', 'demo'),
    ).toBe(0);
    expect(await count('select count(*)::int as n from users where tenant = $1', 'gambling')).toBe(
      gamblingUsers,
    );
    const { rows } = await portal.db.query(
      "select action, actor, users, images from tenant_admin_actions where tenant = 'demo'",
    );
    expect(rows).toEqual([{ action: 'delete_all_data', actor: 'staff-admin', users, images }]);
    const empty = await call('DELETE', '/public/users', admin('demo'), { confirm: 'demo' });
    expect(await empty.json()).toEqual({ users: 0, images: 0 });
  });
});
