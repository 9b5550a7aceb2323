import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../app';
import type { Db } from '../db/db';
import { basicEngine as referenceEngine } from '../onboarding/engine';
import { fakeAuth, headersOf, type Person, PUBLIC_DIR, person } from '../onboarding/testing/harness';
import { qrDataUrl, qrPng } from '../qr';
import { createSiteFixture, createTestDb, type SiteFixture, testDeps } from '../testing/fixtures';
import { credentialPayload, isValidCredential } from './credentials';

// The credentials API through the real app (app.ts mounts it when deps.auth is given), with the fake auth of
// the onboarding harness (claims from the x-test-claims header) and the seeded enrolled accounts.

let db: Db;
let site: SiteFixture;
let app: App;

beforeAll(async () => {
  db = await createTestDb();
  site = createSiteFixture();
  app = createApp({
    ...testDeps(db, site, { publicDir: PUBLIC_DIR }),
    auth: fakeAuth,
    onboarding: { engine: referenceEngine, production: false },
  });
});

afterAll(async () => {
  await db.close();
  site.remove();
});

interface Enrolled {
  accountId: string;
  userId: string;
  sid: string;
  acsId: string;
  tenant: string;
}

/** The seeded account, its user record and its QR credential. */
async function enrolled(username: string, tenant = 'gambling'): Promise<Enrolled> {
  const { rows } = await db.query<Enrolled>(
    `select a.id::text as "accountId", u.user_id::text as "userId", c.sid::text as sid, u.acs_id as "acsId",
            a.tenant as tenant
       from accounts a
       join users u on u.tenant = a.tenant and u.account_id = a.id::text
       join credentials c on c.tenant = u.tenant and c.user_id = u.user_id and c.credential_type = 'qr'
      where a.tenant = $1 and a.username = $2
      order by c.created_at limit 1`,
    [tenant, username],
  );
  const row = rows[0];
  if (!row) throw new Error(`no seeded enrolled account ${username} in ${tenant}`);
  return row;
}

const ownerOf = (
  who: Enrolled,
  roles = ['get_users_me', 'can_view_accreditations', 'post_onboardings_auto'],
) => person(who.accountId, who.tenant, roles);
const staff = (tenant = 'gambling') => person('staff-usermanager', tenant, ['get_users_all']);

function get(path: string, who: Person | undefined, init: { tenant?: string; accept?: string } = {}) {
  const headers = headersOf(who, init.tenant);
  if (init.accept) headers.accept = init.accept;
  return app.request(`/api${path}`, { headers });
}

const credentialPath = (who: Enrolled, sid = who.sid) => `/public/credentials/${who.userId}/sids/${sid}`;

async function expectNotFound(res: Response) {
  const body = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(body)).toBe(404);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(body).toMatchObject({ status: 404, code: 'not_found' });
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Walks the chunks (checking each CRC-free length), reads IHDR and inflates IDAT to the expected size. */
function decodePng(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  let width = 0;
  let height = 0;
  let bitDepth = 0;
  let colorType = -1;
  const data: Uint8Array[] = [];
  let ended = false;
  while (offset + 8 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    expect(body.length).toBe(length);
    if (type === 'IHDR') {
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      bitDepth = body[8] ?? 0;
      colorType = body[9] ?? -1;
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      ended = true;
      break;
    }
    offset += 12 + length;
  }
  expect(ended).toBe(true);
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
  if (channels === undefined) throw new Error(`unexpected PNG colour type ${colorType}`);
  const rowBytes = Math.ceil((width * channels * bitDepth) / 8);
  const raw = inflateSync(Buffer.concat(data));
  expect(raw.length).toBe(height * (rowBytes + 1));
  return { width, height };
}

describe('GET /public/credentials/{userId}/sids/{sid}', () => {
  it('gives the owner their QR credential as JSON, valid for 15 days, not cached', async () => {
    const user = await enrolled('user');
    const res = await get(credentialPath(user), ownerOf(user));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      sid: user.sid,
      user_id: user.userId,
      credential_type: 'qr',
      state: 'active',
      starts_at: expect.any(String),
      ends_at: expect.any(String),
      valid: true,
    });
    const days = (Date.parse(body.ends_at as string) - Date.parse(body.starts_at as string)) / 86_400_000;
    expect(days).toBeCloseTo(15, 3);
  });

  it('gives the owner a PNG QR of acs:{tenant}:{acs_id}:{sid}, by ?format=png or by Accept', async () => {
    const user = await enrolled('user');
    const expected = await qrPng(credentialPayload('gambling', user.acsId, user.sid));
    for (const res of [
      await get(`${credentialPath(user)}?format=png`, ownerOf(user)),
      await get(credentialPath(user), ownerOf(user), { accept: 'image/png' }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const png = new Uint8Array(await res.arrayBuffer());
      expect(png.length).toBeGreaterThan(1000);
      const { width, height } = decodePng(png);
      expect(width).toBe(320);
      expect(height).toBe(320);
      // The same bytes as the QR of the expected payload: the image encodes exactly that text.
      expect(Buffer.from(png).equals(expected)).toBe(true);
    }
    expect(credentialPayload('gambling', user.acsId, user.sid)).toBe(
      `acs:gambling:${user.acsId}:${user.sid}`,
    );
  });

  it('lets staff with get_users_all read anyone’s credential, JSON and PNG', async () => {
    for (const username of ['user', 'visitor']) {
      const who = await enrolled(username);
      const json = await get(credentialPath(who), staff());
      expect(json.status).toBe(200);
      expect(await json.json()).toMatchObject({ sid: who.sid, user_id: who.userId, valid: true });
      const png = await get(`${credentialPath(who)}?format=png&size=200`, staff());
      expect(png.status).toBe(200);
      expect(decodePng(new Uint8Array(await png.arrayBuffer()))).toEqual({ width: 200, height: 200 });
    }
  });

  it('answers 404 to another person, even one who may view their own accreditations', async () => {
    const user = await enrolled('user');
    const visitor = await enrolled('visitor');
    await expectNotFound(await get(credentialPath(user), ownerOf(visitor)));
    await expectNotFound(await get(`${credentialPath(user)}?format=png`, ownerOf(visitor)));
    await expectNotFound(await get(`/public/credentials/${user.userId}`, ownerOf(visitor)));
    // The owner's sid under another user's id is no way in either.
    await expectNotFound(await get(credentialPath(user, visitor.sid), ownerOf(user)));
  });

  it('needs a token and one of the reading permissions; the owner without them is refused', async () => {
    const user = await enrolled('user');
    expect((await get(credentialPath(user), undefined)).status).toBe(401);
    expect((await get(credentialPath(user), ownerOf(user, ['post_visits_all']))).status).toBe(403);
    // get_users_me alone is enough for one's own credential; it does not open anyone else's.
    expect((await get(credentialPath(user), ownerOf(user, ['get_users_me']))).status).toBe(200);
    const visitor = await enrolled('visitor');
    await expectNotFound(await get(credentialPath(visitor), ownerOf(user, ['get_users_me'])));
  });

  it('keeps tenants apart: staff of another tenant, and the owner under another tenant header, get 404', async () => {
    const user = await enrolled('user');
    await expectNotFound(await get(credentialPath(user), staff('demo')));
    await expectNotFound(await get(`/public/credentials/${user.userId}`, staff('demo')));
    // The same account id presented as a demo account, with a demo token and header.
    await expectNotFound(await get(credentialPath(user), person(user.accountId, 'demo', ['get_users_me'])));
    const demoUser = await enrolled('user', 'demo');
    await expectNotFound(await get(credentialPath(demoUser), staff('gambling')));
    expect((await get(credentialPath(demoUser), staff('demo'))).status).toBe(200);
  });

  it('answers 404 for ids that are not UUIDs, and for unknown ones', async () => {
    const user = await enrolled('user');
    const me = ownerOf(user);
    await expectNotFound(await get(`/public/credentials/not-a-uuid/sids/${user.sid}`, me));
    await expectNotFound(await get(`/public/credentials/${user.userId}/sids/not-a-uuid`, me));
    await expectNotFound(await get(`/public/credentials/${user.userId}/sids/${user.sid}x`, me));
    await expectNotFound(await get("/public/credentials/1' or '1'='1", staff()));
    await expectNotFound(
      await get(`/public/credentials/${user.userId}/sids/00000000-0000-4000-8000-000000000000`, staff()),
    );
    await expectNotFound(await get('/public/credentials/00000000-0000-4000-8000-000000000000', staff()));
  });

  it('answers 406 to format=pdf (not available yet) and to an unknown format', async () => {
    const user = await enrolled('user');
    for (const query of ['?format=pdf', '?format=xml']) {
      const res = await get(`${credentialPath(user)}${query}`, ownerOf(user));
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status).toBe(406);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(body).toMatchObject({ status: 406, code: 'not_acceptable' });
      if (query === '?format=pdf') expect(body.detail).toMatch(/PDF.*not available yet/);
    }
    expect((await get(credentialPath(user), ownerOf(user), { accept: 'application/pdf' })).status).toBe(406);
    // Existence is checked first: a stranger asking for the PDF still gets a 404.
    await expectNotFound(await get(`${credentialPath(user)}?format=pdf`, ownerOf(await enrolled('visitor'))));
  });

  it('says valid: false for a revoked or expired QR, and has no image for a non-QR credential', async () => {
    const visitor = await enrolled('visitor');
    const insert = async (type: string, state: string, endsAt: string | null) => {
      const { rows } = await db.query<{ sid: string }>(
        `insert into credentials (tenant, user_id, credential_type, state, starts_at, ends_at)
         values ('gambling', $1, $2, $3, now() - interval '20 days', $4::timestamptz) returning sid::text as sid`,
        [visitor.userId, type, state, endsAt],
      );
      return rows[0]?.sid as string;
    };
    const revoked = await insert('qr', 'revoked', new Date(Date.now() + 86_400_000).toISOString());
    const expired = await insert('qr', 'active', new Date(Date.now() - 1000).toISOString());
    const embedding = await insert('embedding', 'active', null);
    const read = async (sid: string) =>
      (await (await get(credentialPath(visitor, sid), ownerOf(visitor))).json()) as Record<string, unknown>;
    expect(await read(revoked)).toMatchObject({ state: 'revoked', valid: false });
    expect(await read(expired)).toMatchObject({ state: 'active', valid: false });
    expect(await read(embedding)).toMatchObject({ credential_type: 'embedding', ends_at: null, valid: true });
    expect((await get(`${credentialPath(visitor, embedding)}?format=png`, ownerOf(visitor))).status).toBe(
      406,
    );

    const list = await get(`/public/credentials/${visitor.userId}`, ownerOf(visitor));
    const { credentials } = (await list.json()) as { credentials: Record<string, Record<string, unknown>> };
    expect(Object.keys(credentials).sort()).toEqual([visitor.sid, revoked, expired, embedding].sort());
    expect(credentials[revoked]).toMatchObject({ credential_type: 'qr', state: 'revoked' });
    expect(credentials[embedding]).toMatchObject({ credential_type: 'embedding', ends_at: null });
  });
});

describe('GET /public/credentials/{userId}', () => {
  it('lists the user’s credentials keyed by sid, with activated, locations and metadata', async () => {
    const user = await enrolled('user');
    for (const who of [ownerOf(user), staff()]) {
      const res = await get(`/public/credentials/${user.userId}`, who);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({
        user_id: user.userId,
        activated: true,
        locations: [],
        metadata: { acs_id: user.acsId },
        credentials: {
          [user.sid]: {
            created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
            credential_type: 'qr',
            state: 'active',
            starts_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
            ends_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
          },
        },
      });
    }
  });

  it('shows a deactivated user as activated: false', async () => {
    const demoVisitor = await enrolled('visitor', 'demo');
    await db.query('update users set active = false where tenant = $1 and user_id = $2', [
      'demo',
      demoVisitor.userId,
    ]);
    const res = await get(`/public/credentials/${demoVisitor.userId}`, ownerOf(demoVisitor));
    expect(await res.json()).toMatchObject({ user_id: demoVisitor.userId, activated: false });
  });
});

describe('qr helpers', () => {
  it('renders PNG bytes at the asked size and a PNG data URL', async () => {
    expect(decodePng(await qrPng('hello', { size: 128 }))).toEqual({ width: 128, height: 128 });
    const url = await qrDataUrl('hello');
    expect(url).toMatch(/^data:image\/png;base64,/);
    const bytes = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
    expect(decodePng(bytes)).toEqual({ width: 320, height: 320 });
  });

  it('judges validity as spec §3 says: a QR while active and before its end, others while active', () => {
    const now = new Date('2025-06-01T00:00:00Z');
    const later = new Date('2025-06-02T00:00:00Z');
    const earlier = new Date('2025-05-31T00:00:00Z');
    expect(isValidCredential({ credential_type: 'qr', state: 'active', ends_at: later }, now)).toBe(true);
    expect(isValidCredential({ credential_type: 'qr', state: 'active', ends_at: earlier }, now)).toBe(false);
    expect(isValidCredential({ credential_type: 'qr', state: 'active', ends_at: now }, now)).toBe(false);
    expect(isValidCredential({ credential_type: 'qr', state: 'active', ends_at: null }, now)).toBe(false);
    expect(isValidCredential({ credential_type: 'qr', state: 'revoked', ends_at: later }, now)).toBe(false);
    expect(isValidCredential({ credential_type: 'embedding', state: 'active', ends_at: null }, now)).toBe(
      true,
    );
  });
});
