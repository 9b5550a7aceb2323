// Who a visit request is for and who approves it, on a real server through the real sign-in. A person who may
// not manage all visits (post_visits_me) requests for themself: the visit is theirs, under their account's name
// and email whatever the body says, and their host is somebody else, whose answer approves it. Reception
// (post_visits_all) names the visitor, but the host still cannot be that visitor, and only the host's own request
// is accepted without the host's answer.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Visit } from '../../contract/api/visits';
import { dateIn, zonedInstant } from '../../contract/domain/visits';
import { apiCall, signIn } from '../testing/oidc';
import { startedServerForFile } from '../testing/signed-in-app';

const started = startedServerForFile({}, 120_000);
let visitorToken: string;
let receptionToken: string;
let place: { facility_id: string; timezone: string };

beforeAll(async () => {
  visitorToken = (await signIn(started.base, 'gambling', 'visitor')).access_token;
  receptionToken = (await signIn(started.base, 'gambling', 'receptionist')).access_token;
  const facilities = (await (
    await apiCall(started.base, '/internal/facilities', 'gambling', visitorToken)
  ).json()) as {
    facility_id: string;
    alias: string;
    timezone: string;
  }[];
  place = facilities.find((f) => f.alias === 'Sala Bilbao') as typeof place;
}, 120_000);

const VISITOR = { name: 'Vera Visitante', email: 'visitor@gambling.example' };

/** A request body for `days` ahead at `time` in the facility's timezone; far from the seeded week. */
function body(host: string, days: number, time: string, overrides: Record<string, unknown> = {}) {
  const day = dateIn(new Date(Date.now() + days * 86_400_000), place.timezone);
  const start = zonedInstant(day, time, place.timezone) as Date;
  return {
    title: 'Reunión',
    start_at: start.toISOString(),
    end_at: new Date(start.getTime() + 3600_000).toISOString(),
    host,
    visitor: VISITOR,
    location: place.facility_id,
    extra_fields: { emergency_instructions: { accepted: true } },
    ...overrides,
  };
}

const post = (token: string, request: unknown) =>
  apiCall(started.base, '/public/visits', 'gambling', token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** The development mailbox's mails to `recipient` (newest first), as the page shows them. */
async function mailsTo(recipient: string): Promise<string[]> {
  const page = await (await fetch(`${started.base}/dev/mailbox`)).text();
  return [...page.matchAll(/<article>[\s\S]*?<\/article>/g)]
    .map((match) => match[0])
    .filter((mail) => mail.includes(`<strong>${recipient}</strong>`));
}

/** The visitor's own visits (GET as them). */
async function ownVisits(): Promise<Visit[]> {
  const res = await apiCall(
    started.base,
    '/public/visits?pageSize=100&fromDate=2000-01-01',
    'gambling',
    visitorToken,
  );
  return (await json<{ items: Visit[] }>(res, 200)).items;
}

describe('POST /public/visits: the visitor cannot be their own host', () => {
  it('a visitor naming themself as host is a 422 on host (host_is_visitor): nothing stored, nothing approved', async () => {
    const before = (await ownVisits()).length;
    for (const host of ['visitor@gambling.example', 'Visitor@GAMBLING.example']) {
      const refused = await json<{ code: string; errors: { field: string; code: string }[] }>(
        await post(visitorToken, body(host, 40, '10:00')),
        422,
      );
      expect(refused.code).toBe('validation');
      expect(refused.errors).toContainEqual({ field: 'host', code: 'host_is_visitor' });
    }
    expect((await ownVisits()).length).toBe(before);
    expect(await mailsTo('visitor@gambling.example')).toEqual([]);
  });

  it('reception cannot book a visitor as their own host either', async () => {
    const refused = await json<{ errors: { field: string; code: string }[] }>(
      await post(
        receptionToken,
        body('auditor@gambling.example', 41, '10:00', {
          visitor: { name: 'Aitor Auditor', email: 'AUDITOR@gambling.example' },
        }),
      ),
      422,
    );
    expect(refused.errors).toContainEqual({ field: 'host', code: 'host_is_visitor' });
  });
});

describe('POST /public/visits: a visitor requests in their own name', () => {
  it("stores the account's name and email, not the body's, and the host's mail names the real visitor", async () => {
    const created = await json<Visit>(
      await post(
        visitorToken,
        body('assistant@gambling.example', 42, '10:00', {
          visitor: { name: 'Alex Admin (CEO)', email: 'admin@gambling.example' },
        }),
      ),
      201,
    );
    const { sub } = JSON.parse(Buffer.from(visitorToken.split('.')[1] ?? '', 'base64url').toString()) as {
      sub: string;
    };
    expect(created.visitor).toBe(sub);
    expect(created.visitorData).toEqual(VISITOR);
    expect(created.status).toBe('requested');
    expect(created.history.map((h) => [h.action, h.actor])).toEqual([['requested', VISITOR.name]]);

    const [mail] = await mailsTo('assistant@gambling.example');
    expect(mail).toContain(VISITOR.name);
    expect(mail).not.toContain('Alex Admin');
    // The forged identity got no mail and sees no visit.
    expect(await mailsTo('admin@gambling.example')).toEqual([]);
  });

  it("a body naming the host as the visitor is the signed-in visitor's request all the same: it waits for the host", async () => {
    const created = await json<Visit>(
      await post(
        visitorToken,
        body('usermanager@gambling.example', 43, '10:00', {
          visitor: { name: 'Uxue Gestora', email: 'usermanager@gambling.example' },
        }),
      ),
      201,
    );
    expect(created.visitorData).toEqual(VISITOR);
    expect(created.status).toBe('requested');
    expect(created.history.map((h) => h.action)).toEqual(['requested']);
    expect((await mailsTo('usermanager@gambling.example'))[0]).toContain(VISITOR.name);
  });

  it('reception still names the visitor, and the visit waits for the host, who gets the mail', async () => {
    const created = await json<Visit>(
      await post(
        receptionToken,
        body('accountmanager@gambling.example', 44, '10:00', {
          visitor: { name: 'Otra Persona', email: 'otra@example.org' },
        }),
      ),
      201,
    );
    expect(created.visitorData).toEqual({ name: 'Otra Persona', email: 'otra@example.org' });
    expect(created.visitor).toBeNull();
    expect(created.status).toBe('requested');
    expect(created.history.map((h) => [h.action, h.actor])).toEqual([['requested', 'Rosa Recepción']]);
    expect((await mailsTo('accountmanager@gambling.example')).some((m) => m.includes('Otra Persona'))).toBe(
      true,
    );
  });
});
