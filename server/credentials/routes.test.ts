import { randomUUID } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { headersOf, type Person, person } from '../onboarding/testing/harness';
import { qrDataUrl, qrPng } from '../qr';
import { signedInAppForFile } from '../testing/signed-in-app';
import { credentialPayload, isValidCredential } from './rules';

// The credentials API through the real app (app.ts mounts it when deps.auth is given), with the fake auth of
// the onboarding harness (claims from the x-test-claims header) and the seeded enrolled accounts.

const portal = signedInAppForFile();

interface Enrolled {
  accountId: string;
  userId: string;
  sid: string;
  acsId: string;
  tenant: string;
}

/** The seeded account, its user record and its QR credential. */
async function enrolled(username: string, tenant = 'gambling'): Promise<Enrolled> {
  const { rows } = await portal.db.query<Enrolled>(
    `select a.id::text as "accountId", u.user_id::text as "userId", c.sid::text as sid, u.acs_id as "acsId",
            a.tenant as tenant
       from accounts a
       join users u on u.tenant = a.tenant and u.account_id = a.id::text
       join credentials c on c.tenant = u.tenant and c.user_id = u.user_id and c.credential_type = 'qr'
                         and c.ends_at > now() and c.metadata->>'object' = 'portal'
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
  return portal.app.request(`/api${path}`, { headers });
}

const credentialPath = (who: Enrolled, sid = who.sid) => `/public/credentials/${who.userId}/sids/${sid}`;

async function sidOf(userId: string, type: string): Promise<string> {
  const { rows } = await portal.db.query<{ sid: string }>(
    `select sid::text as sid from credentials where user_id = $1 and credential_type = $2 and state = 'active'
      order by created_at desc limit 1`,
    [userId, type],
  );
  const sid = rows[0]?.sid;
  if (!sid) throw new Error(`no ${type} credential of ${userId}`);
  return sid;
}

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
      created_at: expect.any(String),
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

  it('answers 406 to an unknown format, and to a PDF of a credential that has no QR', async () => {
    const user = await enrolled('user');
    const res = await get(`${credentialPath(user)}?format=xml`, ownerOf(user));
    expect(res.status).toBe(406);
    expect(await res.json()).toMatchObject({ status: 406, code: 'not_acceptable' });
    const face = await sidOf(user.userId, 'embedding');
    expect((await get(`${credentialPath(user, face)}?format=pdf`, ownerOf(user))).status).toBe(406);
    // Existence is checked first: a stranger asking for the PDF still gets a 404.
    await expectNotFound(await get(`${credentialPath(user)}?format=pdf`, ownerOf(await enrolled('visitor'))));
  });

  it('says valid: false for a revoked or expired QR, and has no image for a non-QR credential', async () => {
    const visitor = await enrolled('visitor');
    const insert = async (type: string, state: string, endsAt: string | null) => {
      const { rows } = await portal.db.query<{ sid: string }>(
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
    expect(Object.keys(credentials)).toEqual(
      expect.arrayContaining([visitor.sid, revoked, expired, embedding]),
    );
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
      const body = (await res.json()) as { credentials: Record<string, Record<string, unknown>> };
      expect(body).toMatchObject({
        user_id: user.userId,
        activated: true,
        // The seed gives every user one location (server/db/seed-regions.ts): a facility id.
        locations: [expect.any(String)],
        metadata: { acs_id: user.acsId, first_name: 'Unai', last_name: 'Usuario' },
      });
      expect(body.credentials[user.sid]).toEqual({
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        credential_type: 'qr',
        state: 'active',
        starts_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        ends_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        valid: true,
      });
      // The seed: a valid qr, a face and a proof credential, and an expired qr (spec §3 Accreditation).
      const summary = Object.values(body.credentials)
        .map((c) => `${c.credential_type}:${c.valid}`)
        .sort();
      expect(summary).toEqual(['embedding:true', 'enrolment_proof:true', 'qr:false', 'qr:true']);
    }
  });

  it('finds the caller’s own record by their account id (GET /public/credentials/{id}), nobody else’s', async () => {
    const user = await enrolled('user');
    const res = await get(`/public/credentials/${user.accountId}`, ownerOf(user));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ user_id: user.userId });
    const visitor = await enrolled('visitor');
    await expectNotFound(await get(`/public/credentials/${user.accountId}`, ownerOf(visitor)));
    await expectNotFound(await get(`/public/credentials/${user.accountId}`, person(user.accountId, 'demo')));
  });

  it('shows a deactivated user as activated: false', async () => {
    const demoVisitor = await enrolled('visitor', 'demo');
    await portal.db.query('update users set active = false where tenant = $1 and user_id = $2', [
      'demo',
      demoVisitor.userId,
    ]);
    const res = await get(`/public/credentials/${demoVisitor.userId}`, ownerOf(demoVisitor));
    expect(await res.json()).toMatchObject({ user_id: demoVisitor.userId, activated: false });
  });

  it('lists several credentials oldest first, and none as an empty object (one query for both)', async () => {
    // A person of their own (one 15-day qr): the seeded ones hold several credentials, and this test deletes.
    const demoUser = await freshPerson('demo');
    const { rows } = await portal.db.query<{ sid: string }>(
      `insert into credentials (tenant, user_id, credential_type, starts_at, ends_at, created_at)
       values ($1, $2, 'embedding', now(), null, now() + interval '1 minute') returning sid::text as sid`,
      ['demo', demoUser.userId],
    );
    const later = await get(`/public/credentials/${demoUser.userId}`, ownerOf(demoUser));
    const body = (await later.json()) as { credentials: Record<string, { credential_type: string }> };
    expect(Object.keys(body.credentials)).toEqual([demoUser.sid, rows[0]?.sid]);
    expect(body.credentials[rows[0]?.sid ?? '']?.credential_type).toBe('embedding');

    await portal.db.query('delete from credentials where tenant = $1 and user_id = $2', [
      'demo',
      demoUser.userId,
    ]);
    const none = await get(`/public/credentials/${demoUser.userId}`, ownerOf(demoUser));
    expect(none.status).toBe(200);
    expect(await none.json()).toMatchObject({ user_id: demoUser.userId, activated: true, credentials: {} });
  });
});

/** A new enrolled person of their own (an account, a user record, a 15-day qr), for the tests that change state. */
async function freshPerson(tenant = 'gambling'): Promise<Enrolled> {
  const accountId = randomUUID();
  const tag = accountId.slice(0, 8);
  await portal.db.query(
    `insert into accounts (tenant, id, username, first_name, last_name, enrolled, acs_id, location)
     values ($1, $2, $3, 'Miren', 'Zubia', true, $4, 'Sala Las Palmas')`,
    [tenant, accountId, `fresh-${tag}`, `ACS-FRESH-${tag}`],
  );
  const { rows } = await portal.db.query<{ user_id: string }>(
    `insert into users (tenant, account_id, username, first_name, last_name, acs_id, birth_date, document_number,
       document_type, onboarding_state, register_mode, life_proofing_result, identity_proofing_result, ocr_integrity,
       document_validity, selfie_authenticity)
     values ($1, $2, $3, 'Miren', 'Zubia', $4, '1990-01-01', $5, 'id_card', 'completed', 'auto', 'not_computed',
       'not_computed', 'not_computed', 'not_computed', 'not_computed') returning user_id::text as user_id`,
    [tenant, accountId, `fresh-${tag}`, `ACS-FRESH-${tag}`, `FRESH${tag}`],
  );
  const userId = rows[0]?.user_id as string;
  const { rows: qr } = await portal.db.query<{ sid: string }>(
    `insert into credentials (tenant, user_id, credential_type, starts_at, ends_at)
     values ($1, $2, 'qr', now() - interval '20 days', now() - interval '5 days') returning sid::text as sid`,
    [tenant, userId],
  );
  return { accountId, userId, sid: qr[0]?.sid as string, acsId: `ACS-FRESH-${tag}`, tenant };
}

function send(method: 'PUT' | 'POST', path: string, who: Person | undefined, body?: unknown) {
  const headers: Record<string, string> = { ...headersOf(who), 'content-type': 'application/json' };
  return portal.app.request(`/api${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** The text drawn on the PDF's page: the content streams inflated, their hex strings decoded (WinAnsi). */
async function pdfPageText(bytes: Uint8Array): Promise<{ text: string; images: string[]; pages: number }> {
  const pdf = await PDFDocument.load(bytes);
  let text = '';
  const images: string[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const subtype = object.dict.get(PDFName.of('Subtype'));
    if (subtype === PDFName.of('Image')) {
      images.push(`${object.dict.get(PDFName.of('Width'))}x${object.dict.get(PDFName.of('Height'))}`);
      continue;
    }
    let content: string;
    try {
      content = inflateSync(object.contents).toString('latin1');
    } catch {
      continue;
    }
    for (const match of content.matchAll(/<([0-9A-Fa-f]+)> Tj/g)) {
      text += `${Buffer.from(match[1] ?? '', 'hex').toString('latin1')}\n`;
    }
  }
  return { text, images, pages: pdf.getPageCount() };
}

describe('GET /public/credentials/{userId}/sids/{sid} as PDF', () => {
  it('gives the printable credential: the name, the QR image and the window in the facility’s timezone', async () => {
    const who = await freshPerson();
    await portal.db.query(
      `update credentials set starts_at = '2026-03-10T08:05:00Z', ends_at = '2026-03-25T08:05:00Z' where sid = $1`,
      [who.sid],
    );
    for (const [res, title] of [
      // The tenant's title in the PDF's language (settings `titles`).
      [await get(`${credentialPath(who)}?format=pdf&lang=en`, ownerOf(who)), 'Identity portal'],
      [await get(credentialPath(who), ownerOf(who), { accept: 'application/pdf' }), 'Portal de identidad'],
    ] as const) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
      const { text, images, pages } = await pdfPageText(bytes);
      expect(pages).toBe(1);
      // The QR (600 pixels) and the tenant's logo (96 pixels high).
      expect(images).toContain('600x600');
      expect(images.some((size) => size.endsWith('x96'))).toBe(true);
      expect(text).toContain('Miren Zubia');
      expect(text).toContain(title);
      // The person's location is Sala Las Palmas: Atlantic/Canary, UTC+0 in March.
      expect(text).toContain('10/03/2026 08:05');
      expect(text).toContain('25/03/2026 08:05');
      expect(text).toContain('Atlantic/Canary');
    }
    const en = await pdfPageText(
      new Uint8Array(
        await (await get(`${credentialPath(who)}?format=pdf&lang=en`, ownerOf(who))).arrayBuffer(),
      ),
    );
    expect(en.text).toContain('Valid until 25/03/2026 08:05');
  });

  it('uses the tenant’s first facility when the person has no location', async () => {
    const user = await enrolled('user');
    const { rows } = await portal.db.query<{ ends_at: Date }>(
      'select ends_at from credentials where sid = $1',
      [user.sid],
    );
    const end = rows[0]?.ends_at as Date;
    const madrid = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Madrid',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(end);
    const part = (type: string) => madrid.find((p) => p.type === type)?.value;
    const res = await get(`${credentialPath(user)}?format=pdf&lang=es`, ownerOf(user));
    const { text } = await pdfPageText(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain(
      `Válida hasta ${part('day')}/${part('month')}/${part('year')} ${part('hour')}:${part('minute')}`,
    );
    expect(text).toContain('Casino Gran Vía');
  });
});

describe('PUT and GET /public/credentials/{userId}/sids/{sid}/state', () => {
  it('extends an expired QR by a new 15-day window from now, then revokes it; a door hears valid, then not', async () => {
    const who = await freshPerson();
    const statePath = `${credentialPath(who)}/state`;
    expect(await (await get(statePath, ownerOf(who))).json()).toEqual({
      sid: who.sid,
      state: 'active',
      valid: false,
    });
    const before = Date.now();
    const extended = await send('PUT', statePath, ownerOf(who), { state: 'active' });
    expect(extended.status).toBe(200);
    const body = (await extended.json()) as { starts_at: string; ends_at: string; valid: boolean };
    expect(body.valid).toBe(true);
    const days = (Date.parse(body.ends_at) - before) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(15);
    expect(days).toBeLessThan(15.01);
    expect(await (await get(statePath, staff())).json()).toMatchObject({ valid: true });

    const revoked = await send('PUT', statePath, ownerOf(who), { state: 'revoked' });
    expect(await revoked.json()).toMatchObject({ state: 'revoked', valid: false });
    expect(await (await get(statePath, ownerOf(who))).json()).toEqual({
      sid: who.sid,
      state: 'revoked',
      valid: false,
    });
  });

  it('refuses a bad body (422), another person (404), another tenant (404) and no right (403)', async () => {
    const who = await freshPerson();
    const statePath = `${credentialPath(who)}/state`;
    expect((await send('PUT', statePath, ownerOf(who), { state: 'expired' })).status).toBe(422);
    const other = await enrolled('visitor');
    await expectNotFound(await send('PUT', statePath, ownerOf(other), { state: 'revoked' }));
    await expectNotFound(await get(statePath, ownerOf(other)));
    await expectNotFound(
      await send('PUT', statePath, person('x', 'demo', ['put_credentials_state_one']), { state: 'revoked' }),
    );
    // Reading one's credentials (get_users_me) does not let one change them; a user manager may.
    expect((await send('PUT', statePath, ownerOf(who, ['get_users_me']), { state: 'revoked' })).status).toBe(
      403,
    );
    const manager = person('manager', 'gambling', ['put_credentials_state_one']);
    expect((await send('PUT', statePath, manager, { state: 'revoked' })).status).toBe(200);
  });

  it('makes a deactivated user’s credentials not valid at the door', async () => {
    const who = await freshPerson();
    await send('PUT', `${credentialPath(who)}/state`, ownerOf(who), { state: 'active' });
    const admin = person('admin', 'gambling', ['put_credentials_state_all']);
    expect(await (await send('PUT', `/public/credentials/${who.userId}/inactive`, admin)).json()).toEqual({
      activated: false,
      users: 1,
    });
    expect(await (await get(`${credentialPath(who)}/state`, ownerOf(who))).json()).toMatchObject({
      valid: false,
    });
    expect((await send('PUT', `/public/credentials/${who.userId}/active`, admin)).status).toBe(200);
    expect(await (await get(`${credentialPath(who)}/state`, ownerOf(who))).json()).toMatchObject({
      valid: true,
    });
    // The owner may not (de)activate themselves.
    expect((await send('PUT', `/public/credentials/${who.userId}/inactive`, ownerOf(who))).status).toBe(403);
  });
});

describe('PUT /public/credentials/active|inactive (all users)', () => {
  it('needs put_credentials_state_all and touches only the caller’s tenant', async () => {
    const one = person('one', 'demo', ['put_credentials_state_one']);
    expect((await send('PUT', '/public/credentials/inactive', one, { confirm: 'demo' })).status).toBe(403);
    const admin = person('admin', 'demo', ['put_credentials_state_all']);
    const res = await send('PUT', '/public/credentials/inactive', admin, { confirm: 'demo' });
    expect(await res.json()).toMatchObject({ activated: false });
    const after = await portal.db.query<{ tenant: string; active: boolean }>(
      "select tenant, bool_or(active) as active from users where tenant in ('gambling', 'demo') group by tenant order by tenant",
    );
    expect(after.rows).toEqual([
      { tenant: 'demo', active: false },
      { tenant: 'gambling', active: true },
    ]);
    expect(
      await (await send('PUT', '/public/credentials/active', admin, { confirm: 'demo' })).json(),
    ).toMatchObject({
      activated: true,
    });
    const again = await portal.db.query<{ active: boolean }>(
      "select bool_and(active) as active from users where tenant = 'demo'",
    );
    expect(again.rows[0]?.active).toBe(true);
  });
});

describe('GET /public/credentials?acs_id=', () => {
  it('answers 200 when the id is taken and 404 when free, to staff of the tenant only', async () => {
    const user = await enrolled('user');
    const assistant = person('assistant', 'gambling', ['post_onboardings_assisted']);
    const taken = await get(`/public/credentials?acs_id=${encodeURIComponent(user.acsId)}`, assistant);
    expect(taken.status).toBe(200);
    expect(await taken.json()).toEqual({ user_id: user.userId, acs_id: user.acsId });
    await expectNotFound(await get('/public/credentials?acs_id=FREE-0001', assistant));
    await expectNotFound(
      await get(
        `/public/credentials?acs_id=${encodeURIComponent(user.acsId)}`,
        person('s', 'demo', ['post_singles']),
      ),
    );
    expect((await get(`/public/credentials?acs_id=${user.acsId}`, ownerOf(user))).status).toBe(403);
  });
});

describe('POST /internal/rights', () => {
  const right = (who: Enrolled, action: string, claims?: Record<string, unknown>) => ({
    subject: who.userId,
    object: 'portal',
    action,
    ...(claims ? { claims } : {}),
  });

  it('makes a face credential once; the second time answers credential-already-exists with the first', async () => {
    const who = await freshPerson();
    const first = await send('POST', '/internal/rights', ownerOf(who), right(who, 'access_face'));
    expect(first.status).toBe(201);
    const made = (await first.json()) as Record<string, unknown>;
    expect(made).toMatchObject({ credential_type: 'embedding', state: 'active', ends_at: null, valid: true });
    const second = await send('POST', '/internal/rights', ownerOf(who), right(who, 'access_face'));
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({
      code: 'accreditation-request/credential-already-exists',
      credential: { sid: made.sid, credential_type: 'embedding' },
    });
    const proof = await send('POST', '/internal/rights', ownerOf(who), right(who, 'access_proof'));
    expect(await proof.json()).toMatchObject({ credential_type: 'enrolment_proof', valid: true });
  });

  it('makes a new 15-day QR when the person’s only one has expired', async () => {
    const who = await freshPerson();
    const res = await send('POST', '/internal/rights', ownerOf(who), right(who, 'access_qr'));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { starts_at: string; ends_at: string };
    expect((Date.parse(body.ends_at) - Date.parse(body.starts_at)) / 86_400_000).toBeCloseTo(15, 5);
    expect((await send('POST', '/internal/rights', ownerOf(who), right(who, 'access_qr'))).status).toBe(409);
  });

  it('refreshes the face credential from a new selfie portrayal of the person, and keeps the selfie', async () => {
    const who = await freshPerson();
    await send('POST', '/internal/rights', ownerOf(who), right(who, 'access_face'));
    const portrayalId = randomUUID();
    await portal.db.query(
      `insert into portrayals (tenant, portrayal_id, owner_id, user_id, portrayal_type, process)
       values ('gambling', $1, $2, $2, 'selfie', 'renew_selfie')`,
      [portrayalId, who.accountId],
    );
    // No picture yet: refused.
    const early = await send(
      'POST',
      '/internal/rights',
      ownerOf(who),
      right(who, 'access_face', { portrayal_id: portrayalId }),
    );
    expect(early.status).toBe(422);
    await portal.db.query(
      `insert into portrayal_images (tenant, portrayal_id, kind, content_type, bytes)
       values ('gambling', $1, 'selfie', 'image/jpeg', $2)`,
      [portrayalId, Buffer.from('new selfie bytes')],
    );
    const res = await send(
      'POST',
      '/internal/rights',
      ownerOf(who),
      right(who, 'access_face', { portrayal_id: portrayalId }),
    );
    expect(res.status).toBe(201);
    const { rows } = await portal.db.query<{ state: string; portrayal: string | null }>(
      `select state, metadata->>'portrayal_id' as portrayal from credentials
        where user_id = $1 and credential_type = 'embedding' order by created_at`,
      [who.userId],
    );
    expect(rows).toEqual([
      { state: 'revoked', portrayal: null },
      { state: 'active', portrayal: portrayalId },
    ]);
    const evidence = await portal.db.query<{ bytes: Uint8Array }>(
      "select bytes from user_evidences where user_id = $1 and kind = 'selfie'",
      [who.userId],
    );
    expect(Buffer.from(evidence.rows[0]?.bytes ?? []).toString()).toBe('new selfie bytes');
    // Another person's portrayal is no way to change this face.
    const other = await freshPerson();
    expect(
      (
        await send(
          'POST',
          '/internal/rights',
          ownerOf(other),
          right(other, 'access_face', { portrayal_id: portrayalId }),
        )
      ).status,
    ).toBe(422);
  });

  it('keeps people and tenants apart, and validates the body', async () => {
    const who = await freshPerson();
    const visitor = await enrolled('visitor');
    await expectNotFound(await send('POST', '/internal/rights', ownerOf(visitor), right(who, 'access_face')));
    await expectNotFound(
      await send(
        'POST',
        '/internal/rights',
        person(who.accountId, 'demo', ['can_view_accreditations']),
        right(who, 'access_face'),
      ),
    );
    expect((await send('POST', '/internal/rights', ownerOf(who), right(who, 'access_door'))).status).toBe(
      422,
    );
    expect(
      (
        await send(
          'POST',
          '/internal/rights',
          ownerOf(who),
          right(who, 'access_qr', { portrayal_id: randomUUID() }),
        )
      ).status,
    ).toBe(422);
    expect((await send('POST', '/internal/rights', undefined, right(who, 'access_qr'))).status).toBe(401);
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
