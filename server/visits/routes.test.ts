import { beforeAll, describe, expect, it } from 'vitest';
import type { AccessTokenClaims } from '../../contract/api/access-token';
import type { Visit, VisitPage } from '../../contract/api/visits';
import { dateIn, zonedInstant } from '../../contract/domain/visits';
import type { App } from '../app';
import { movableClock } from '../clock';
import { credentialPayload } from '../credentials/rules';
import { CLAIMS_HEADER } from '../onboarding/testing/harness';
import { createKnownOrigins } from '../origins';
import { signedInAppForFile } from '../testing/signed-in-app';

// The visits API through the real app with the fake auth of the onboarding harness, on the seeded database
// (a week of visits of `visitor` in each tenant). A second app with a clock of its own shows the token expiring.

const clock = { now: new Date() };
const origins = createKnownOrigins({
  publicUrls: ['http://localhost:8080', 'http://demo.localhost:8080'],
  tenants: ['gambling', 'demo'],
  port: () => 8080,
});
const portal = signedInAppForFile({ origins });
let clockedApp: App;

beforeAll(() => {
  clockedApp = portal.another({ origins, deps: { visits: { now: () => clock.now, tokenTtlMs: 60_000 } } });
});

interface Account {
  id: string;
  email: string;
  name: string;
  tenant: string;
  username: string;
}

async function account(username: string, tenant = 'gambling'): Promise<Account> {
  const { rows } = await portal.db.query<Account>(
    `select id::text as id, email, trim(first_name || ' ' || last_name) as name, tenant, username
       from accounts where tenant = $1 and username = $2`,
    [tenant, username],
  );
  if (!rows[0]) throw new Error(`no ${username}`);
  return rows[0];
}

const ROLE: Record<string, string[]> = {
  visitor: ['post_visits_me', 'get_users_me', 'can_view_accreditations'],
  receptionist: ['post_visits_all'],
  user: ['get_users_me'],
};

function headersFor(who: Account | undefined, role = 'visitor', tenant = who?.tenant ?? 'gambling') {
  const headers: Record<string, string> = { 'tenant-id': tenant, 'content-type': 'application/json' };
  if (who) {
    const claims: AccessTokenClaims = {
      iss: `http://localhost/auth/realms/${who.tenant}`,
      sub: who.id,
      exp: 4_000_000_000,
      tenant: who.tenant,
      roles: ROLE[role] ?? [],
      enrolled: role === 'visitor',
      email: who.email,
      name: who.name,
      preferred_username: who.username,
    };
    headers[CLAIMS_HEADER] = JSON.stringify(claims);
  }
  return headers;
}

function call(
  method: string,
  path: string,
  who: Account | undefined,
  options: {
    role?: string;
    body?: unknown;
    tenant?: string;
    headers?: Record<string, string>;
    on?: 'clocked';
  } = {},
) {
  const init = {
    method,
    headers: { ...headersFor(who, options.role, options.tenant), ...options.headers },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  };
  if (options.on === 'clocked') {
    return clockedApp.request(`/api${path}`, init);
  }
  return portal.app.request(`/api${path}`, init);
}

async function json<T>(res: Response, status: number): Promise<T> {
  const body = (await res.json()) as T;
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body;
}

async function facility(tenant = 'gambling', alias = 'Sala Bilbao') {
  const { rows } = await portal.db.query<{ facility_id: string; timezone: string }>(
    'select facility_id, timezone from facilities where tenant = $1 and alias = $2',
    [tenant, alias],
  );
  return rows[0] as { facility_id: string; timezone: string };
}

/** A request body for a day `days` ahead at `time` in the facility's timezone. */
async function request(
  host: Account,
  visitor: Account,
  days: number,
  time = '11:00',
  overrides: Record<string, unknown> = {},
) {
  const place = await facility(host.tenant);
  const day = dateIn(new Date(Date.now() + days * 86_400_000), place.timezone);
  const start = zonedInstant(day, time, place.timezone) as Date;
  return {
    title: 'Reunión',
    start_at: start.toISOString(),
    end_at: new Date(start.getTime() + 3600_000).toISOString(),
    host: host.email,
    visitor: { name: visitor.name, email: visitor.email },
    location: place.facility_id,
    guests: 1,
    extra_fields: { emergency_instructions: { accepted: true } },
    ...overrides,
  };
}

async function lastMailTo(email: string) {
  const { rows } = await portal.db.query<{ link: string; subject: string; body: string; tenant: string }>(
    'select link, subject, body, tenant from outbox where recipient = $1 order by created_at desc limit 1',
    [email],
  );
  return rows[0];
}

const tokenOf = (link: string) => {
  const match = /\/confirmation\/([^/]+)\/([^/]+)$/.exec(link);
  return { token: match?.[1] ?? '', visitId: match?.[2] ?? '' };
};

describe('GET /public/visits', () => {
  it('gives a visitor their own seeded week, and reception every visit of the tenant', async () => {
    const visitor = await account('visitor');
    const mine = await json<VisitPage>(await call('GET', '/public/visits?pageSize=50', visitor), 200);
    expect(mine.totalItems).toBeGreaterThanOrEqual(7);
    expect(mine.items.every((v) => v.visitor === visitor.id)).toBe(true);
    expect(new Set(mine.items.map((v) => v.status))).toEqual(
      new Set(['requested', 'accepted', 'checked_out', 'cancelled']),
    );
    const seeded = mine.items.find((v) => v.status === 'checked_out') as Visit;
    expect(seeded.history.map((h) => h.action)).toEqual([
      'requested',
      'approved',
      'checked_in',
      'checked_out',
    ]);
    expect(seeded.history[2]?.actor).toBe('kiosk');

    const reception = await account('receptionist');
    const all = await json<VisitPage>(
      await call('GET', '/public/visits?pageSize=2&pageIndex=1', reception, { role: 'receptionist' }),
      200,
    );
    expect(all.items).toHaveLength(2);
    expect(all.totalItems).toBeGreaterThanOrEqual(7);
  });

  it('filters by dates, pending, visitor and host, and orders', async () => {
    const reception = await account('receptionist');
    const now = Date.now();
    const from = new Date(now - 86_400_000 * 10).toISOString();
    const byHost = await json<VisitPage>(
      await call('GET', `/public/visits?user=usermanager&fromDate=${from}`, reception, {
        role: 'receptionist',
      }),
      200,
    );
    expect(byHost.items.length).toBeGreaterThan(0);
    expect(byHost.items.every((v) => v.host.email.startsWith('usermanager@'))).toBe(true);
    const pending = await json<VisitPage>(
      await call(
        'GET',
        '/public/visits?status=pending&pageSize=100&orderby=expected_at&sorted=desc',
        reception,
        {
          role: 'receptionist',
        },
      ),
      200,
    );
    expect(pending.items.every((v) => v.status === 'requested' || v.status === 'accepted')).toBe(true);
    const times = pending.items.map((v) => v.expected_at);
    expect(times).toEqual([...times].sort().reverse());
    const nobody = await json<VisitPage>(
      await call('GET', '/public/visits?visitor=zzz-nobody', reception, { role: 'receptionist' }),
      200,
    );
    expect(nobody).toMatchObject({ items: [], totalItems: 0 });
    await json(
      await call('GET', '/public/visits?fromDate=yesterday', reception, { role: 'receptionist' }),
      400,
    );
    await json(await call('GET', '/public/visits?orderby=secret', reception, { role: 'receptionist' }), 400);
    // Found by the limits fuzzer: year 0 and expanded years are refused, not a 500 from the database.
    for (const odd of ['toDate=0000-01-01', 'fromDate=-000001-01-01', 'fromDate=%2B010000-01-01']) {
      await json(await call('GET', `/public/visits?${odd}`, reception, { role: 'receptionist' }), 400);
    }
  });

  it('refuses anyone without post_visits_me or post_visits_all, and hides other people and tenants (404)', async () => {
    const user = await account('user');
    await json(await call('GET', '/public/visits', user, { role: 'user' }), 403);
    await json(await call('GET', '/public/visits', undefined), 401);
    const visitor = await account('visitor');
    const theirs = (await json<VisitPage>(await call('GET', '/public/visits', visitor), 200))
      .items[0] as Visit;
    // `user` given the visitor right still sees nothing of the visitor's.
    await json(await call('GET', `/public/visits/${theirs.id}`, user), 404);
    await json(await call('POST', `/public/visits/${theirs.id}/cancellation`, user), 404);
    // The demo receptionist does not see a gambling visit.
    const demoReception = await account('receptionist', 'demo');
    await json(
      await call('GET', `/public/visits/${theirs.id}`, demoReception, { role: 'receptionist' }),
      404,
    );
    await json(await call('GET', '/public/visits/not-a-uuid', visitor), 404);
  });
});

describe('POST /public/visits and the host confirmation by link', () => {
  it('a visitor request waits for the host, who gets a mail with a link on a known origin and accepts it once', async () => {
    const visitor = await account('visitor');
    const host = await account('assistant');
    const res = await call('POST', '/public/visits', visitor, {
      body: await request(host, visitor, 5, '09:00'),
      headers: { host: 'attacker.example', origin: 'http://evil.example' },
    });
    const created = await json<Visit>(res, 201);
    expect(created).toMatchObject({ status: 'requested', visitor: visitor.id, host: { email: host.email } });
    expect(created.history.map((h) => [h.action, h.actor])).toEqual([['requested', visitor.name]]);

    const mail = await lastMailTo(host.email);
    expect(mail?.link).toMatch(new RegExp(`^http://localhost:8080/confirmation/[\\w.-]+/${created.id}$`));
    expect(mail?.subject).toContain(visitor.name);
    const { token, visitId } = tokenOf(mail?.link ?? '');

    // A wrong or tampered token is refused without touching the visit.
    const tampered = `${token.slice(0, -2)}AA`;
    await json(
      await call('POST', `/public/visits/${visitId}/confirmation`, undefined, {
        body: { outcome: 'accept' },
        headers: { authorization: `Bearer ${tampered}` },
      }),
      400,
    );
    const accepted = await json<{ status: string }>(
      await call('POST', `/public/visits/${visitId}/confirmation`, undefined, {
        body: { outcome: 'accept' },
        headers: { authorization: `Bearer ${token}` },
      }),
      200,
    );
    expect(accepted.status).toBe('accepted');
    const again = await json<{ code: string }>(
      await call('POST', `/public/visits/${visitId}/confirmation`, undefined, {
        body: { outcome: 'reject' },
        headers: { authorization: `Bearer ${token}` },
      }),
      409,
    );
    expect(again.code).toBe('visit_already_accepted');
    const visit = await json<Visit>(await call('GET', `/public/visits/${visitId}`, visitor), 200);
    expect(visit.history.map((h) => [h.action, h.actor])).toEqual([
      ['requested', visitor.name],
      ['approved', host.name],
    ]);
  });

  it('a rejected request ends cancelled with a "rejected" event; a second answer is visit_already_rejected', async () => {
    const visitor = await account('visitor');
    const host = await account('auditor');
    await json(
      await call('POST', '/public/visits', visitor, { body: await request(host, visitor, 6, '12:00') }),
      201,
    );
    const { token, visitId } = tokenOf((await lastMailTo(host.email))?.link ?? '');
    const confirm = (outcome: string) =>
      call('POST', `/public/visits/${visitId}/confirmation`, undefined, {
        body: { outcome },
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await json<{ status: string }>(await confirm('reject'), 200)).status).toBe('cancelled');
    expect((await json<{ code: string }>(await confirm('accept'), 409)).code).toBe('visit_already_rejected');
    const visit = await json<Visit>(await call('GET', `/public/visits/${visitId}`, visitor), 200);
    expect(visit.status).toBe('cancelled');
    expect(visit.history.at(-1)).toMatchObject({ action: 'rejected', actor: host.name });
  });

  it('a token past its time is token_expired (VISIT_TOKEN_TTL shortens it)', async () => {
    const visitor = await account('visitor');
    const host = await account('usermanager');
    clock.now = new Date();
    await json(
      await call('POST', '/public/visits', visitor, { body: await request(host, visitor, 9), on: 'clocked' }),
      201,
    );
    const { token, visitId } = tokenOf((await lastMailTo(host.email))?.link ?? '');
    clock.now = new Date(clock.now.getTime() + 61_000);
    const expired = await json<{ code: string }>(
      await call('POST', `/public/visits/${visitId}/confirmation`, undefined, {
        body: { outcome: 'accept' },
        headers: { authorization: `Bearer ${token}` },
        on: 'clocked',
      }),
      410,
    );
    expect(expired.code).toBe('token_expired');
  });

  it('reception booking for a host waits for the host, who gets the mail; the host booking their own is accepted at once', async () => {
    const reception = await account('receptionist');
    const visitor = await account('visitor');
    const host = await account('accountmanager');
    const before = await lastMailTo(host.email);
    const booked = await json<Visit>(
      await call('POST', '/public/visits', reception, {
        role: 'receptionist',
        body: await request(host, visitor, 7, '16:00'),
      }),
      201,
    );
    expect(booked.status).toBe('requested');
    expect(booked.visitor).toBe(visitor.id);
    expect(booked.history.map((h) => [h.action, h.actor])).toEqual([['requested', reception.name]]);
    const mail = await lastMailTo(host.email);
    expect(mail).not.toEqual(before);
    expect(tokenOf(mail?.link ?? '').visitId).toBe(booked.id);

    // The receptionist hosting a visit of their own: the requester is the host, "approved by automatic", no mail.
    const mine = await lastMailTo(reception.email);
    const own = await json<Visit>(
      await call('POST', '/public/visits', reception, {
        role: 'receptionist',
        body: await request(reception, visitor, 7, '18:00'),
      }),
      201,
    );
    expect(own.status).toBe('accepted');
    expect(own.history.map((h) => [h.action, h.actor])).toEqual([
      ['requested', reception.name],
      ['approved', 'automatic'],
    ]);
    expect(await lastMailTo(reception.email)).toEqual(mine);
  });

  it('enforces every rule of spec §5 with its own code, on the field it belongs to', async () => {
    const visitor = await account('visitor');
    const host = await account('admin');
    const errorsOf = async (body: unknown) =>
      (
        await json<{ errors: { field: string; code: string }[] }>(
          await call('POST', '/public/visits', visitor, { body }),
          422,
        )
      ).errors;
    const base = await request(host, visitor, 8, '10:00');
    expect(await errorsOf(await request(host, visitor, -2))).toContainEqual({
      field: 'date',
      code: 'visit_date_past',
    });
    expect(await errorsOf({ ...base, host: 'nobody@gambling.example' })).toContainEqual({
      field: 'host',
      code: 'host_not_found',
    });
    expect(await errorsOf({ ...base, start_at: 'tomorrow' })).toContainEqual({
      field: 'startAt',
      code: 'visit_start_invalid',
    });
    const past = new Date(Date.now() - 60_000);
    expect(
      await errorsOf({
        ...base,
        start_at: past.toISOString(),
        end_at: new Date(Date.now() + 3600_000).toISOString(),
      }),
    ).toContainEqual({
      field: expect.stringMatching(/^(startAt|date)$/),
      code: expect.stringMatching(/visit_start_past|visit_date_past/),
    });
    expect(await errorsOf({ ...base, location: 'nowhere' })).toContainEqual({
      field: 'location',
      code: 'visit_location_invalid',
    });
    expect(await errorsOf({ ...base, title: 'x'.repeat(201) })).toContainEqual({
      field: 'title',
      code: 'visit_title_invalid',
    });
    expect(await errorsOf({ ...base, end_at: base.start_at })).toContainEqual({
      field: 'endAt',
      code: 'visit_end_before_arrival',
    });
    // gambling's settings.json says visits.mustAcceptPlan.
    expect(await errorsOf({ ...base, extra_fields: {} })).toContainEqual({
      field: 'planRead',
      code: 'emergency_plan_not_read',
    });
    // The host already has a visit then (seeded day +2 at 10:00 is another host; book one, then clash).
    await json(await call('POST', '/public/visits', visitor, { body: base }), 201);
    expect(await errorsOf(await request(host, visitor, 8, '10:30'))).toContainEqual({
      field: 'startAt',
      code: 'host_busy',
    });
  });

  it('refuses more guests than NewVisit allows (found by the limits fuzzer: a huge number was a 500)', async () => {
    const reception = await account('receptionist');
    const visitor = await account('visitor');
    const res = await call('POST', '/public/visits', reception, {
      role: 'receptionist',
      body: await request(reception, visitor, 14, '11:00', { guests: 2_147_483_648 }),
    });
    const body = await json<{ errors: { field: string }[] }>(res, 422);
    expect(body.errors.map((e) => e.field)).toContain('guests');
  });

  it('refuses a visitor who is not enrolled', async () => {
    const user = await account('user');
    const headers = headersFor(user, 'visitor');
    const claims = JSON.parse(headers[CLAIMS_HEADER] as string) as AccessTokenClaims;
    headers[CLAIMS_HEADER] = JSON.stringify({ ...claims, enrolled: false });
    const res = await portal.app.request('/api/public/visits', {
      method: 'POST',
      headers,
      body: JSON.stringify(await request(await account('admin'), user, 3)),
    });
    expect(res.status).toBe(403);
  });
});

describe('check-in, check-out, cancellation and reception arrival', () => {
  it('reception checks in by kiosk and out by terminal; cancelling after check-in is refused with the reason', async () => {
    const reception = await account('receptionist');
    const visitor = await account('visitor');
    const host = await account('receptionist');
    const visit = await json<Visit>(
      await call('POST', '/public/visits', reception, {
        role: 'receptionist',
        body: await request(host, visitor, 10),
      }),
      201,
    );
    // A visitor may not check themself in.
    await json(await call('PUT', `/public/visits/${visit.id}/checkin`, visitor, { body: {} }), 403);
    // Check-in is for today's visits only (today in the facility's timezone): ten days early it is refused.
    const early = await json<{ code: string; detail: string }>(
      await call('PUT', `/public/visits/${visit.id}/checkin`, reception, {
        role: 'receptionist',
        body: { via: 'kiosk' },
      }),
      409,
    );
    expect(early.code).toBe('visit_not_today');
    const tz = visit.location.timezone;
    const day = dateIn(new Date(visit.expected_at), tz).split('-').reverse().join('/');
    expect(early.detail).toContain(day);
    // On the day (the clocked app's clock), half an hour before it starts.
    clock.now = new Date(Date.parse(visit.expected_at) - 30 * 60_000);
    const inside = await json<Visit>(
      await call('PUT', `/public/visits/${visit.id}/checkin`, reception, {
        role: 'receptionist',
        body: { via: 'kiosk' },
        on: 'clocked',
      }),
      200,
    );
    expect(inside.status).toBe('checked_in');
    const twice = await json<{ code: string }>(
      await call('PUT', `/public/visits/${visit.id}/checkin`, reception, { role: 'receptionist', body: {} }),
      409,
    );
    expect(twice.code).toBe('visit_already_checked_in');
    const refused = await json<{ code: string; detail: string }>(
      await call('POST', `/public/visits/${visit.id}/cancellation`, visitor),
      409,
    );
    expect(refused).toMatchObject({ code: 'visit_already_has_checkins' });
    expect(refused.detail).toMatch(/check-ins/);
    const out = await json<Visit>(
      await call('PUT', `/public/visits/${visit.id}/checkout`, reception, {
        role: 'receptionist',
        body: { via: 'kiosk' },
      }),
      200,
    );
    expect(out.status).toBe('checked_out');
    expect(out.history.map((h) => [h.action, h.actor])).toEqual([
      ['requested', reception.name],
      ['approved', 'automatic'],
      ['checked_in', 'kiosk'],
      ['checked_out', 'terminal'],
    ]);
    const notIn = await json<{ code: string }>(
      await call('PUT', `/public/visits/${visit.id}/checkout`, reception, { role: 'receptionist', body: {} }),
      409,
    );
    expect(notIn.code).toBe('visit_not_checked_in');
  });

  it('a visitor cancels a visit still to come; one already started is visit_already_started', async () => {
    const visitor = await account('visitor');
    const reception = await account('receptionist');
    const host = await account('assistant');
    const visit = await json<Visit>(
      await call('POST', '/public/visits', visitor, { body: await request(host, visitor, 11) }),
      201,
    );
    const cancelled = await json<Visit>(
      await call('POST', `/public/visits/${visit.id}/cancellation`, visitor),
      200,
    );
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.history.at(-1)).toMatchObject({ action: 'cancelled', actor: visitor.name });
    const started = await json<Visit>(
      await call('POST', '/public/visits', reception, {
        role: 'receptionist',
        body: await request(host, visitor, 12),
      }),
      201,
    );
    await portal.db.query(
      `update visits set expected_at = now() - interval '5 minutes' where visit_id = $1`,
      [started.id],
    );
    const refused = await json<{ code: string }>(
      await call('POST', `/public/visits/${started.id}/cancellation`, reception, { role: 'receptionist' }),
      409,
    );
    expect(refused.code).toBe('visit_already_started');
  });

  it("finds today's visit from the person's QR; no visit today and a revoked QR each have their code", async () => {
    const reception = await account('receptionist');
    const { rows } = await portal.db.query<{ acs_id: string; sid: string; user_id: string }>(
      `select u.acs_id, c.sid::text as sid, u.user_id::text as user_id from users u
         join credentials c on c.tenant = u.tenant and c.user_id = u.user_id
        where u.tenant = 'gambling' and u.username = $1 and c.credential_type = 'qr'`,
      ['visitor'],
    );
    const qr = rows[0] as { acs_id: string; sid: string; user_id: string };
    const arrival = (code: string) =>
      call('GET', `/public/visits/arrival?code=${encodeURIComponent(code)}`, reception, {
        role: 'receptionist',
      });
    const found = await json<{ visit: Visit; person: { name: string } }>(
      await arrival(credentialPayload('gambling', qr.acs_id, qr.sid)),
      200,
    );
    expect(found.person.name).toBe('Vera Visitante');
    expect(dateIn(new Date(found.visit.expected_at), found.visit.location.timezone)).toBe(
      dateIn(new Date(), found.visit.location.timezone),
    );
    // Typed: the access id alone.
    expect((await json<{ visit: Visit }>(await arrival(qr.acs_id), 200)).visit.id).toBe(found.visit.id);

    const { rows: users } = await portal.db.query<{ acs_id: string; sid: string }>(
      `select u.acs_id, c.sid::text as sid from users u join credentials c on c.tenant = u.tenant and c.user_id = u.user_id
        where u.tenant = 'gambling' and u.username = 'user'`,
    );
    const user = users[0] as { acs_id: string; sid: string };
    expect(
      (await json<{ code: string }>(await arrival(credentialPayload('gambling', user.acs_id, user.sid)), 404))
        .code,
    ).toBe('no_visit_today');
    expect(
      (await json<{ code: string }>(await arrival(credentialPayload('demo', qr.acs_id, qr.sid)), 409)).code,
    ).toBe('credential_not_valid');
    await portal.db.query(`update credentials set state = 'revoked' where sid = $1`, [qr.sid]);
    try {
      expect(
        (await json<{ code: string }>(await arrival(credentialPayload('gambling', qr.acs_id, qr.sid)), 409))
          .code,
      ).toBe('credential_not_valid');
    } finally {
      await portal.db.query(`update credentials set state = 'active' where sid = $1`, [qr.sid]);
    }
    const visitor = await account('visitor');
    await json(await call('GET', `/public/visits/arrival?code=${qr.acs_id}`, visitor), 403);
  });
  it('check-in is today in the facility timezone: 23:59 the day before and 00:00 the day after are refused', async () => {
    const reception = await account('receptionist');
    const visitor = await account('visitor');
    const place = await facility();
    const visit = await json<Visit>(
      await call('POST', '/public/visits', reception, {
        role: 'receptionist',
        body: await request(reception, visitor, 13, '00:30'),
      }),
      201,
    );
    const day = dateIn(new Date(visit.expected_at), place.timezone);
    const at = (date: string, time: string) => zonedInstant(date, time, place.timezone) as Date;
    const dayBefore = dateIn(new Date(at(day, '00:30').getTime() - 86_400_000), place.timezone);
    const dayAfter = dateIn(new Date(at(day, '00:30').getTime() + 86_400_000), place.timezone);
    const checkIn = () =>
      call('PUT', `/public/visits/${visit.id}/checkin`, reception, {
        role: 'receptionist',
        body: { via: 'reception' },
        on: 'clocked',
      });
    clock.now = at(dayBefore, '23:59');
    expect((await json<{ code: string }>(await checkIn(), 409)).code).toBe('visit_not_today');
    clock.now = at(dayAfter, '00:00');
    expect((await json<{ code: string }>(await checkIn(), 409)).code).toBe('visit_not_today');
    clock.now = at(day, '23:59');
    expect((await json<Visit>(await checkIn(), 200)).status).toBe('checked_in');
  });
});

describe('GET /public/visits/visitors/{userId} (NewVisit for a person)', () => {
  it('gives reception the name and email of a person of the tenant by account or user id; 404 otherwise', async () => {
    const reception = await account('receptionist');
    const visitor = await account('visitor');
    const { rows } = await portal.db.query<{ user_id: string }>(
      "select user_id::text as user_id from users where tenant = 'gambling' and account_id = $1",
      [visitor.id],
    );
    const get = (id: string, who = reception, role = 'receptionist', tenant?: string) =>
      call('GET', `/public/visits/visitors/${id}`, who, { role, ...(tenant ? { tenant } : {}) });
    const expected = { id: visitor.id, name: 'Vera Visitante', email: visitor.email };
    expect(await json(await get(visitor.id), 200)).toEqual(expected);
    expect(await json(await get(rows[0]?.user_id ?? ''), 200)).toEqual(expected);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      expect((await json<{ code: string }>(await get(id), 404)).code).toBe('visitor_not_found');
    }
    // Another tenant's person is nobody here.
    const demoReception = await account('receptionist', 'demo');
    expect(
      (await json<{ code: string }>(await get(visitor.id, demoReception, 'receptionist'), 404)).code,
    ).toBe('visitor_not_found');
    // A visitor may not look people up.
    await json(await get(visitor.id, visitor, 'visitor'), 403);
  });
});

describe('GET and PUT /dev/clock (development only)', () => {
  it('moves the clock of the visit rules for an administrator, and back to the system time', async () => {
    const movable = portal.another({ origins, deps: { visits: { clock: movableClock() } } });
    const admin = await account('admin');
    const as = (method: string, body?: unknown, role = 'admin') => {
      const headers = headersFor(admin, 'visitor');
      const claims = JSON.parse(headers[CLAIMS_HEADER] as string) as AccessTokenClaims;
      headers[CLAIMS_HEADER] = JSON.stringify({
        ...claims,
        roles: role === 'admin' ? ['delete_users_all', 'post_visits_all'] : ['post_visits_all'],
      });
      return movable.request('/api/dev/clock', {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    };
    await json(await as('PUT', { at: '2031-05-05T21:30:00Z' }, 'receptionist'), 403);
    const moved = await json<{ now: string }>(await as('PUT', { at: '2031-05-05T21:30:00Z' }), 200);
    expect(Date.parse(moved.now) - Date.parse('2031-05-05T21:30:00Z')).toBeLessThan(5_000);
    const read = await json<{ now: string }>(await as('GET'), 200);
    expect(Date.parse(read.now)).toBeGreaterThanOrEqual(Date.parse(moved.now));
    expect(
      (await json<{ errors: { code: string }[] }>(await as('PUT', { at: 'tomorrow' }), 422)).errors,
    ).toEqual([{ field: 'at', code: 'wrong_format' }]);
    const back = await json<{ now: string }>(await as('PUT', { at: null }), 200);
    expect(Math.abs(Date.parse(back.now) - Date.now())).toBeLessThan(5_000);
    // An app with a fixed clock (or production's system clock) has no such route.
    await json(
      await clockedApp.request('/api/dev/clock', { method: 'GET', headers: headersFor(admin, 'visitor') }),
      404,
    );
  });
});
