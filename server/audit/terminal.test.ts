import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db';
import { PUBLIC_DIR } from '../onboarding/testing/harness';
import { createSiteFixture, createTestDb, type SiteFixture, testDeps } from '../testing/fixtures';
import { terminalRoutes } from './terminal';

// /dev/terminal through HTTP: the page (no script), a QR and a face presented at a facility, decided and audited like
// POST /internal/accesses, a person on the prohibited list refused, a post from another site refused.

let db: Db;
let site: SiteFixture;
let app: ReturnType<typeof terminalRoutes>;
const faults = { enforcement: false };

beforeAll(async () => {
  db = await createTestDb();
  site = createSiteFixture();
  app = terminalRoutes({
    ...testDeps(db, site, { publicDir: PUBLIC_DIR }),
    onboarding: { faults } as never,
  });
});

afterAll(async () => {
  await db.close();
  site.remove();
});

async function holder(tenant: string, username: string, type: 'qr' | 'embedding') {
  const { rows } = await db.query<{ sid: string; acs_id: string; id_number: string; user_id: string }>(
    `select c.sid::text as sid, u.acs_id, u.id_number, u.user_id::text as user_id
       from users u join credentials c on c.tenant = u.tenant and c.user_id = u.user_id
      where u.tenant = $1 and u.username = $2 and c.credential_type = $3 and c.state = 'active'
        and (c.ends_at is null or c.ends_at > now()) order by c.created_at limit 1`,
    [tenant, username, type],
  );
  if (!rows[0]) throw new Error(`no ${type} of ${username}`);
  return rows[0];
}

async function facilityOf(tenant: string) {
  const { rows } = await db.query<{ facility_id: string; alias: string }>(
    'select facility_id, alias from facilities where tenant = $1 and legal_domain is null order by alias limit 1',
    [tenant],
  );
  if (!rows[0]) throw new Error('no facility');
  return rows[0];
}

const present = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  app.request('/dev/terminal', {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'same-origin',
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });

const decisionOf = (html: string) =>
  /data-granted="(true|false)" data-reason="([a-z_]+)"/.exec(html)?.slice(1) ?? [];

describe('/dev/terminal', () => {
  it('shows the tenant’s facilities and faces, and no script', async () => {
    const res = await app.request('/dev/terminal?tenant=demo');
    expect(res.status).toBe(200);
    const html = await res.text();
    const facility = await facilityOf('demo');
    expect(html).toContain(`value="${facility.facility_id}"`);
    expect(html).toContain((await holder('demo', 'user', 'embedding')).sid);
    expect(html).not.toMatch(/<script/i);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('decides a QR text and a face like a door, and stores each decision in the audit', async () => {
    const facility = await facilityOf('demo');
    const qr = await holder('demo', 'user', 'qr');
    const res = await present({
      tenant: 'demo',
      facility_id: facility.facility_id,
      credential: `acs:demo:${qr.acs_id}:${qr.sid}`,
    });
    expect(res.status).toBe(200);
    expect(decisionOf(await res.text())).toEqual(['true', 'granted']);
    const face = await holder('demo', 'user', 'embedding');
    const byFace = await present({
      tenant: 'demo',
      facility_id: facility.facility_id,
      credential: '',
      face: face.sid,
    });
    expect(decisionOf(await byFace.text())).toEqual(['true', 'granted']);
    const unknown = await present({ tenant: 'demo', facility_id: facility.facility_id, credential: 'nope' });
    expect(decisionOf(await unknown.text())).toEqual(['false', 'credential_not_found']);
    const { rows } = await db.query<{ sid: string | null; reason: string }>(
      `select sid, reason from audit_accesses where tenant = 'demo' and facility_id = $1 order by created_at desc limit 3`,
      [facility.facility_id],
    );
    expect(rows.map((row) => row.reason).sort()).toEqual(['credential_not_found', 'granted', 'granted']);
  });

  it('denies a person on the prohibited list, and says when the lists cannot be read', async () => {
    const facility = await facilityOf('gambling');
    const qr = await holder('gambling', 'visitor', 'qr');
    const list = await db.query<{ watchlist_id: string }>(
      "insert into watchlists (tenant, legal_domain, row_count, current) values ('gambling', 'es-ri', 1, true) returning watchlist_id::text as watchlist_id",
    );
    await db.query(
      `insert into watchlist_entries (tenant, watchlist_id, id_number, birth_date)
         select 'gambling', $1, id_number, birth_date from users where tenant = 'gambling' and user_id = $2`,
      [list.rows[0]?.watchlist_id, qr.user_id],
    );
    const denied = await present({
      tenant: 'gambling',
      facility_id: facility.facility_id,
      credential: qr.sid,
    });
    expect(decisionOf(await denied.text())).toEqual(['false', 'user_interdicted']);
    faults.enforcement = true;
    try {
      const down = await present({
        tenant: 'gambling',
        facility_id: facility.facility_id,
        credential: qr.sid,
      });
      expect(decisionOf(await down.text())).toEqual(['false', 'enforcement_source_unavailable']);
    } finally {
      faults.enforcement = false;
    }
  });

  it('refuses a post from another site, another tenant’s facility and an empty credential', async () => {
    const facility = await facilityOf('demo');
    const cross = await present(
      { tenant: 'demo', facility_id: facility.facility_id, credential: 'x' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(cross.status).toBe(403);
    const other = await present({ tenant: 'gambling', facility_id: facility.facility_id, credential: 'x' });
    expect(other.status).toBe(422);
    const empty = await present({ tenant: 'demo', facility_id: facility.facility_id, credential: '' });
    expect(empty.status).toBe(422);
    // A NUL in any field is an unreadable form (PostgreSQL's text cannot hold it), not a 500.
    for (const fields of [
      { tenant: 'demo', facility_id: `${facility.facility_id}\u0000`, credential: 'x' },
      { tenant: 'demo', facility_id: facility.facility_id, credential: 'x\u0000' },
      { tenant: 'de\u0000mo', facility_id: facility.facility_id, credential: 'x' },
    ]) {
      expect((await present(fields)).status).toBe(400);
    }
  });
});
