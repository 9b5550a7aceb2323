import { beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '../auth/roles';
import { seededUser } from '../db/seed-users';
import { person } from '../onboarding/testing/harness';
import { signedInAppForFile } from '../testing/signed-in-app';

// A change and its row of the staff-action record commit together: when the row cannot be written (here a trigger
// refuses the rows of one staff member, as a full disk or a lost connection would refuse them), the change is rolled
// back and the call answers 500; a read answers 500 without the image. The same calls by another staff member
// change the data and write their row.

const portal = signedInAppForFile();

const usermanager = (sub: string) => person(sub, 'gambling', [...ROLE_PERMISSIONS.usermanager]);
const assistant = (sub: string) => person(sub, 'gambling', [...ROLE_PERMISSIONS.assistant]);

beforeAll(async () => {
  await portal.db.exec(`
    create function refuse_broken_staff() returns trigger language plpgsql as $$
    begin
      if new.staff_id like 'broken-%' then raise exception 'the record refuses this row'; end if;
      return new;
    end $$;
    create trigger refuse_broken_staff before insert on staff_actions
      for each row execute function refuse_broken_staff();`);
});

async function userIdOf(index: number) {
  const { rows } = await portal.db.query<{ id: string }>(
    `select user_id::text as id from users where tenant = 'gambling' and acs_id = $1`,
    [seededUser('gambling', index).acs_id],
  );
  return rows[0]?.id ?? '';
}

const activeOf = async (id: string) =>
  (await portal.db.query<{ active: boolean }>('select active from users where user_id = $1::uuid', [id]))
    .rows[0]?.active;

const recordedFor = async (subject: string) =>
  (
    await portal.db.query<{ action: string; staff_id: string }>(
      `select action, staff_id from staff_actions where tenant = 'gambling' and subject_id = $1 order by at`,
      [subject],
    )
  ).rows;

describe('the action and its record commit together', () => {
  it('a deactivation whose record cannot be written is rolled back', async () => {
    const id = await userIdOf(7);
    expect(await activeOf(id)).toBe(true);
    const refused = await portal.call(
      'PUT',
      `/public/credentials/${id}/inactive`,
      usermanager('broken-manager'),
    );
    expect(refused.status).toBe(500);
    expect(await activeOf(id)).toBe(true);
    expect(await recordedFor(id)).toEqual([]);

    const done = await portal.call('PUT', `/public/credentials/${id}/inactive`, usermanager('staff-manager'));
    expect(done.status).toBe(200);
    expect(await activeOf(id)).toBe(false);
    expect(await recordedFor(id)).toEqual([{ action: 'user.deactivate', staff_id: 'staff-manager' }]);
  });

  it('a completed onboarding whose record cannot be written stays pending', async () => {
    const { rows } = await portal.db.query<{ id: string }>(
      `insert into accounts (tenant, username, email, roles, onboarding_status)
       values ('gambling', 'pending-tx', 'pending-tx@example.test', array['user'], 'incompleted')
       returning id::text as id`,
    );
    const id = rows[0]?.id ?? '';
    const statusOf = async () =>
      (
        await portal.db.query<{ s: string }>(
          'select onboarding_status as s from accounts where id = $1::uuid',
          [id],
        )
      ).rows[0]?.s;
    const body = { onboarding_status: 'completed' };
    const refused = await portal.call(
      'PUT',
      `/public/accounts/${id}/onboarding`,
      assistant('broken-assistant'),
      body,
    );
    expect(refused.status).toBe(500);
    expect(await statusOf()).toBe('incompleted');
    const done = await portal.call(
      'PUT',
      `/public/accounts/${id}/onboarding`,
      assistant('staff-assistant'),
      body,
    );
    expect(done.status).toBe(200);
    expect(await statusOf()).toBe('completed');
    expect(await recordedFor(id)).toEqual([{ action: 'onboarding.complete', staff_id: 'staff-assistant' }]);
  });

  it('a registration whose record cannot be written leaves no user', async () => {
    const body = (tag: string) => ({
      mode: 'fields',
      email: `tx-${tag}@example.test`,
      first_name: 'Ane',
      last_name: 'Transakzioa',
      birth_date: '1990-02-03',
      document_type: 'id_card',
      document_number: `TX${tag}`,
    });
    const usersOf = async (tag: string) =>
      (
        await portal.db.query<{ n: number }>(
          `select count(*)::int as n from users where tenant = 'gambling' and document_number = $1`,
          [`TX${tag}`],
        )
      ).rows[0]?.n;
    const refused = await portal.call('POST', '/public/singles', usermanager('broken-manager'), body('A1'));
    expect(refused.status).toBe(500);
    expect(await usersOf('A1')).toBe(0);
    const done = await portal.call('POST', '/public/singles', usermanager('staff-manager'), body('B2'));
    expect(done.status).toBe(201);
    expect(await usersOf('B2')).toBe(1);
  });

  it('a read whose record cannot be written answers 500, without the image', async () => {
    const id = await userIdOf(8);
    const refused = await portal.call('GET', `/public/users/${id}/selfie`, usermanager('broken-manager'));
    expect(refused.status).toBe(500);
    expect(refused.headers.get('content-type')).not.toMatch(/^image\//);
    const done = await portal.call('GET', `/public/users/${id}/selfie`, usermanager('staff-manager'));
    expect(done.status).toBe(200);
    expect(done.headers.get('content-type')).toMatch(/^image\//);
  });
});
