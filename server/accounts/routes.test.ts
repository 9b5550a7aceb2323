import { beforeEach, describe, expect, it } from 'vitest';
import { headersOf, type Person, person } from '../onboarding/testing/harness';
import { type Enrolled, enrolledPerson, ownerOf, problem } from '../testing/enrolled-person';
import { signedInAppForFile } from '../testing/signed-in-app';
import { unzip } from './zip';

// The routes of the enrolled person's account (profile, data export, deletion) through the real app (app.ts mounts
// them when deps.auth is given), with the fake auth of the onboarding harness (claims from the x-test-claims header)
// and the seeded accounts. Each test that changes a person uses one of its own (testing/enrolled-person.ts).

const portal = signedInAppForFile({ origins: 'default' });

const call = portal.call;

describe('GET /internal/accounts (existence checks)', () => {
  const staff = person('staff-1', 'gambling', ['get_accounts_all']);
  it('answers 200 with the account for a known email and 404 when nobody has it', async () => {
    const res = await call('GET', '/internal/accounts?email=USER@gambling.example', staff);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { username: string }[]).map((a) => a.username)).toEqual(['user']);
    await problem(
      await call('GET', '/internal/accounts?email=nobody@gambling.example', staff),
      404,
      'not_found',
    );
    // Another tenant's account is not found here.
    await problem(await call('GET', '/internal/accounts?email=user@demo.example', staff), 404, 'not_found');
  });
});

describe('POST /internal/accounts', () => {
  const assistant = person('assistant-1', 'gambling', ['post_onboardings_assisted']);
  it('creates an account by email and refuses an email in use with 409', async () => {
    const res = await call('POST', '/internal/accounts', assistant, { email: 'new.person@example.test' });
    expect(res.status).toBe(201);
    const { user_id } = (await res.json()) as { user_id: string };
    const found = await call('GET', `/internal/accounts?userId=${user_id}`, assistant);
    expect(found.status).toBe(200);
    await problem(
      await call('POST', '/internal/accounts', assistant, { email: 'NEW.person@example.test' }),
      409,
      'email_already_in_use',
    );
    expect((await call('POST', '/internal/accounts', assistant, { email: 'not-an-email' })).status).toBe(422);
  });
  it('is refused without a staff right', async () => {
    const who = await enrolledPerson(portal.db);
    await problem(
      await call('POST', '/internal/accounts', ownerOf(who), { email: 'x@example.test' }),
      403,
      'forbidden',
    );
  });
});

describe('GET /internal/accounts/{id}/profile and /export', () => {
  it('gives the person their profile and a zip with everything, selfie included', async () => {
    const who = await enrolledPerson(portal.db);
    // The person shows their QR at a door: the decision is part of their data.
    const facility = await portal.db.query<{ facility_id: string }>(
      "select facility_id from facilities where tenant = 'gambling' order by facility_id limit 1",
    );
    const door = await call(
      'POST',
      '/internal/accesses',
      person('auditor-1', 'gambling', ['post_audit_accesses_all']),
      { facility_id: facility.rows[0]?.facility_id, credential: who.sid },
    );
    expect(door.status).toBe(201);
    const { access_id } = (await door.json()) as { access_id: string };
    // A user manager looks at the person's selfie: the export says when, what and the role, not who by name.
    const selfie = await call(
      'GET',
      `/public/users/${who.userId}/selfie`,
      person('staff-usermanager', 'gambling', ['get_users_all', 'post_singles', 'put_credentials_state_one']),
    );
    expect(selfie.status).toBe(200);
    const profile = await call('GET', `/internal/accounts/${who.accountId}/profile`, ownerOf(who));
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({
      account_id: who.accountId,
      email: who.email,
      user: { user_id: who.userId, id_number: who.idNumber, first_name: 'Ane', birth_date: '1990-01-01' },
    });
    const res = await call('GET', `/internal/accounts/${who.accountId}/export`, ownerOf(who));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="my-data-\d{4}-\d\d-\d\d\.zip"$/,
    );
    const entries = unzip(new Uint8Array(await res.arrayBuffer()));
    expect([...entries.keys()]).toEqual([
      'account.json',
      'user.json',
      'onboardings.json',
      'credentials.json',
      'visits.json',
      'audit.json',
      'staff-actions.json',
      'images/selfie.jpg',
    ]);
    expect(Buffer.from(entries.get('images/selfie.jpg') ?? []).toString()).toBe('selfie-bytes');
    const json = (name: string) => JSON.parse(new TextDecoder().decode(entries.get(name)));
    expect(json('user.json')).toMatchObject({ user_id: who.userId, id_number: who.idNumber });
    expect(json('credentials.json')).toEqual([expect.objectContaining({ sid: who.sid, state: 'active' })]);
    expect(json('audit.json')).toEqual({
      source: 'audit_accesses',
      entries: [
        expect.objectContaining({
          access_id,
          sid: who.sid,
          facility_id: facility.rows[0]?.facility_id,
          access_type: 'granted',
          reason: 'granted',
        }),
      ],
    });
    expect(json('staff-actions.json')).toEqual([
      { at: expect.any(String), action: 'evidence.read', staff_roles: ['usermanager'] },
    ]);
    expect(JSON.stringify(json('account.json'))).not.toMatch(/password/);
  });

  it("answers 404 for another person's account, another tenant and a made-up id", async () => {
    const who = await enrolledPerson(portal.db);
    const other = await enrolledPerson(portal.db);
    for (const path of ['profile', 'export']) {
      await problem(
        await call('GET', `/internal/accounts/${other.accountId}/${path}`, ownerOf(who)),
        404,
        'not_found',
      );
      await problem(
        await call('GET', `/internal/accounts/not-a-uuid/${path}`, ownerOf(who)),
        404,
        'not_found',
      );
    }
    const demo = await enrolledPerson(portal.db, 'demo');
    // A demo token on a gambling call is refused before any lookup (the fake auth: 401, the real one: 403).
    expect(
      (await call('GET', `/internal/accounts/${demo.accountId}/export`, ownerOf(demo), undefined, 'gambling'))
        .status,
    ).toBeGreaterThanOrEqual(401);
    // Without get_all_data_me there is no export.
    await problem(
      await call('GET', `/internal/accounts/${who.accountId}/export`, ownerOf(who, ['get_users_me'])),
      403,
      'forbidden',
    );
  });
});

describe('DELETE /internal/accounts/{id}', () => {
  let who: Enrolled;
  beforeEach(async () => {
    who = await enrolledPerson(portal.db);
  });
  const del = (body?: unknown, as: Person = ownerOf(who), id = who.accountId) =>
    call('DELETE', `/internal/accounts/${id}`, as, body);

  it('refuses a wrong DNI/NIE with 422 and a detail, a missing or malformed one with 400', async () => {
    const mismatch = await problem(await del({ id_number: '12345678Z' }), 422, 'id_mismatch');
    expect(mismatch.detail).toMatch(/DNI\/NIE does not match/);
    const spanish = await portal.app.request(`/api/internal/accounts/${who.accountId}`, {
      method: 'DELETE',
      headers: { ...headersOf(ownerOf(who)), 'content-type': 'application/json', 'accept-language': 'es' },
      body: JSON.stringify({ id_number: '12345678Z' }),
    });
    expect((await problem(spanish, 422, 'id_mismatch')).detail).toBe(
      'El DNI/NIE indicado no es el que consta en esta cuenta.',
    );
    await problem(await del({}), 400, 'bad_request');
    await problem(await del(undefined), 400, 'bad_request');
    await problem(await del({ id_number: '1234' }), 400, 'bad_request');
    await problem(await del('{not json'), 400, 'bad_request');
    await problem(await del({ id_number: 42 }), 400, 'bad_request');
    expect((await call('GET', `/internal/accounts/${who.accountId}/profile`, ownerOf(who))).status).toBe(200);
  });

  it('refuses while a visit is in progress: checked in, or accepted within its window', async () => {
    const facility = await portal.db.query<{ facility_id: string }>(
      "select facility_id from facilities where tenant = 'gambling' limit 1",
    );
    const visit = (status: string, fromMinutes: number, toMinutes: number) =>
      portal.db.query(
        `insert into visits (tenant, title, expected_at, leaving_at, host_email, facility_id, visitor_account_id, status)
         values ('gambling', 'Reunión', now() + make_interval(mins => $1), now() + make_interval(mins => $2),
           'host@gambling.example', $3, $4, $5)`,
        [fromMinutes, toMinutes, facility.rows[0]?.facility_id, who.accountId, status],
      );
    // Neither a future accepted visit nor a finished one holds the deletion back.
    await visit('accepted', 60, 120);
    await visit('checked_out', -120, -60);
    await visit('accepted', -30, 30);
    await problem(await del({ id_number: who.idNumber }), 409, 'visit_in_progress');
    await portal.db.query(
      "update visits set status = 'checked_in', leaving_at = now() - interval '1 minute' where visitor_account_id = $1 and status = 'accepted' and expected_at < now()",
      [who.accountId],
    );
    await problem(await del({ id_number: who.idNumber }), 409, 'visit_in_progress');
    await portal.db.query(
      "update visits set status = 'checked_out' where visitor_account_id = $1 and status = 'checked_in'",
      [who.accountId],
    );
    expect((await del({ id_number: who.idNumber })).status).toBe(204);
  });

  it('accepts exactly the stored value when it is not a valid DNI/NIE: its owner is never locked in', async () => {
    // A record whose id_number an engine misread (the J of 31638100J as 5), or a staff typo.
    await portal.db.query('update users set id_number = $3 where tenant = $1 and account_id = $2', [
      who.tenant,
      who.accountId,
      '316381005',
    ]);
    // The real DNI is not what the record holds; another malformed value is still malformed.
    await problem(await del({ id_number: '31638100J' }), 422, 'id_mismatch');
    await problem(await del({ id_number: '316381006' }), 400, 'bad_request');
    // Normalised as the portal normalises it (spaces, dashes): the stored value is the way out.
    expect((await del({ id_number: '3163-8100 5' })).status).toBe(204);
    expect((await call('GET', `/internal/accounts/${who.accountId}/profile`, ownerOf(who))).status).toBe(200);
  });

  it("answers 404 for another person's account unless staff, and for another tenant's", async () => {
    const other = await enrolledPerson(portal.db);
    await problem(await del({ id_number: other.idNumber }, ownerOf(who), other.accountId), 404, 'not_found');
    const demo = await enrolledPerson(portal.db, 'demo');
    const staff = person('staff-2', 'gambling', ['delete_accounts_one']);
    await problem(await del({}, staff, demo.accountId), 404, 'not_found');
    // Staff may delete a person of their tenant with that person's DNI/NIE (AssistantAccountCancellation).
    await problem(await del({}, staff, other.accountId), 400, 'bad_request');
    await problem(await del({ id_number: '12345678Z' }, staff, other.accountId), 422, 'id_mismatch');
    expect((await del({ id_number: other.idNumber }, staff, other.accountId)).status).toBe(204);
  });

  it('removes images, personal data, credentials, onboarding and sessions, keeping an unenrolled account', async () => {
    await portal.db.query(
      `insert into oidc_payloads (tenant, model, id, payload, grant_id) values ('gambling', 'Grant', $1, $2, $1),
         ('gambling', 'Session', $3, $2, null)`,
      [`grant-${who.accountId}`, JSON.stringify({ accountId: who.accountId }), `session-${who.accountId}`],
    );
    const onboarding = await portal.db.query<{ onboarding_id: string }>(
      `insert into onboardings (tenant, mode, account_id, created_by, register_mode, identity_proofing, life_proofing,
         biometric_qr, supported_docs) values ('gambling', 'auto', $1, $1, 'auto', false, false, true, '[]')
       returning onboarding_id::text as onboarding_id`,
      [who.accountId],
    );
    const portrayal = await portal.db.query<{ portrayal_id: string }>(
      `insert into portrayals (tenant, onboarding_id, owner_id, portrayal_type) values ('gambling', $1, $2, 'selfie')
       returning portrayal_id::text as portrayal_id`,
      [onboarding.rows[0]?.onboarding_id, who.accountId],
    );
    await portal.db.query(
      `insert into portrayal_images (tenant, portrayal_id, kind, content_type, bytes) values ('gambling', $1, 'selfie', 'image/jpeg', $2)`,
      [portrayal.rows[0]?.portrayal_id, Buffer.from('x')],
    );
    const someoneElse = await enrolledPerson(portal.db);
    // Their rows, and someone else's, in a staff member's "add users from photos" results.
    await portal.db.query(
      `with job as (insert into bulk_imports (tenant, created_by, total, status) values ('gambling', 'staff', 2, 'done')
         returning job_id)
       insert into bulk_import_rows (tenant, job_id, row_number, email, outcome, user_id)
         select 'gambling', job_id, 1, upper($1), 'rejected', null from job
         union all select 'gambling', job_id, 2, $2, 'accepted', $3 from job`,
      [who.email, someoneElse.email, someoneElse.userId],
    );

    expect((await del({ id_number: who.idNumber.toLowerCase() })).status).toBe(204);

    const count = async (sql: string, params: unknown[]) =>
      (await portal.db.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params)).rows[0]?.n;
    expect(await count("users where tenant = 'gambling' and account_id = $1", [who.accountId])).toBe(0);
    expect(await count("user_evidences where tenant = 'gambling' and user_id = $1", [who.userId])).toBe(0);
    expect(await count("credentials where tenant = 'gambling' and user_id = $1", [who.userId])).toBe(0);
    expect(await count("onboardings where tenant = 'gambling' and account_id = $1", [who.accountId])).toBe(0);
    expect(
      await count("portrayal_images where tenant = 'gambling' and portrayal_id = $1", [
        portrayal.rows[0]?.portrayal_id,
      ]),
    ).toBe(0);
    expect(
      await count("oidc_payloads where tenant = 'gambling' and payload->>'accountId' = $1", [who.accountId]),
    ).toBe(0);
    const account = await portal.db.query(
      "select first_name, last_name, enrolled, acs_id, onboarding_status, email from accounts where tenant = 'gambling' and id = $1",
      [who.accountId],
    );
    expect(account.rows[0]).toEqual({
      first_name: null,
      last_name: null,
      enrolled: false,
      acs_id: null,
      onboarding_status: 'none',
      email: who.email,
    });
    const bulkRows = await portal.db.query(
      "select row_number, email, user_id, outcome from bulk_import_rows where tenant = 'gambling' order by row_number",
    );
    expect(bulkRows.rows).toEqual([
      { row_number: 1, email: '', user_id: null, outcome: 'rejected' },
      { row_number: 2, email: someoneElse.email, user_id: someoneElse.userId, outcome: 'accepted' },
    ]);
    // Nobody else lost anything.
    expect(
      await count("user_evidences where tenant = 'gambling' and user_id = $1", [someoneElse.userId]),
    ).toBe(1);
    expect(await count("credentials where tenant = 'gambling' and user_id = $1", [someoneElse.userId])).toBe(
      1,
    );
  });

  it('is refused without a deletion right', async () => {
    await problem(await del({ id_number: who.idNumber }, ownerOf(who, ['get_users_me'])), 403, 'forbidden');
  });
});
