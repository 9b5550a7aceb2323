import { describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS } from '../../contract/api/audit';
import { parseCsv } from '../../contract/domain/csv';
import { person } from '../onboarding/testing/harness';
import { signedInAppForFile } from '../testing/signed-in-app';

// Doors, the audit, the csv export, interdiction checks and watchlist uploads through the real app, with the fake
// auth of the onboarding harness and the seeded enrolled `user` of each tenant.

const faults = { enforcement: false };
const portal = signedInAppForFile({ onboarding: { faults } });

const admin = (tenant = 'demo') => person('admin-1', tenant, ['post_watchlists', 'post_audit_accesses_all']);
const auditor = (tenant = 'demo') => person('auditor-1', tenant, ['post_audit_accesses_all']);
const scoped = (tenant = 'demo') => person('assistant-1', tenant, ['post_accesses_myscope']);
const checker = (tenant = 'gambling') => person('assistant-2', tenant, ['post_external_enforcements']);

const call = portal.call;

interface Holder {
  userId: string;
  sid: string;
  idNumber: string;
  birthDate: string;
  documentNumber: string;
}

async function seededUser(tenant: string, username = 'user'): Promise<Holder> {
  const { rows } = await portal.db.query<Holder>(
    `select u.user_id::text as "userId", c.sid::text as sid, u.id_number as "idNumber",
            to_char(u.birth_date, 'YYYY-MM-DD') as "birthDate", u.document_number as "documentNumber"
       from users u join credentials c on c.tenant = u.tenant and c.user_id = u.user_id and c.credential_type = 'qr'
                     and c.ends_at > now() and c.state = 'active'
      where u.tenant = $1 and u.username = $2 order by c.created_at limit 1`,
    [tenant, username],
  );
  if (!rows[0]) throw new Error(`no seeded ${username} in ${tenant}`);
  return rows[0];
}

async function facilities(tenant: string): Promise<{ facility_id: string; alias: string }[]> {
  const { rows } = await portal.db.query<{ facility_id: string; alias: string }>(
    'select facility_id, alias from facilities where tenant = $1 order by alias',
    [tenant],
  );
  return rows;
}

function csvForm(domain: string, csv: string, name = 'list.csv'): FormData {
  const form = new FormData();
  form.set('domain', domain);
  form.set('watch_type', 'interdicted');
  form.set('upload', new File([csv], name, { type: 'text/csv' }));
  return form;
}

describe('watchlist upload', () => {
  it('stores a valid list as the current one, keeping the previous version', async () => {
    const res = await call(
      'POST',
      '/public/watchlists',
      admin(),
      csvForm('es-demo', 'id_number;birth_date\n11111111H;1960-05-05\n'),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ legal_domain: 'es-demo', row_count: 1 });
    const lists = await portal.db.query<{ current: boolean; row_count: number }>(
      "select current, row_count from watchlists where tenant = 'demo' and legal_domain = 'es-demo' order by created_at",
    );
    expect(lists.rows.map((row) => row.current)).toEqual([false, true]);
    // The seeded entry was in the previous version only: no longer on the list.
    const seeded = await portal.db.query(
      `select 1 from watchlist_entries e join watchlists w using (tenant, watchlist_id)
        where e.tenant = 'demo' and w.current and e.document_number = 'PROHIB001'`,
    );
    expect(seeded.rows).toHaveLength(0);
  });

  it('stores nothing when a row is bad, reporting the rows', async () => {
    const before = await portal.db.query<{ watchlist_id: string }>(
      "select watchlist_id from watchlists where tenant = 'demo' and current",
    );
    const res = await call(
      'POST',
      '/watchlists',
      admin(),
      csvForm('es-demo', 'id_number,birth_date\n22222222J,1970-01-01\n,1970-01-01\n33333333P,31/02/1970\n'),
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'invalid_rows',
      invalid: 2,
      valid: 1,
      errors: [{ row: 3 }, { row: 4 }],
    });
    const after = await portal.db.query<{ watchlist_id: string }>(
      "select watchlist_id from watchlists where tenant = 'demo' and current",
    );
    expect(after.rows).toEqual(before.rows);
  });

  it('refuses a domain of another tenant, a non-csv file, and a caller without post_watchlists', async () => {
    const other = await call(
      'POST',
      '/public/watchlists',
      admin(),
      csvForm('es-an', 'id_number,birth_date\n1,2\n'),
    );
    expect(other.status).toBe(422);
    const binary = new FormData();
    binary.set('domain', 'es-demo');
    binary.set('upload', new File([new Uint8Array([0xff, 0xfe, 0x00, 0x89, 0x50])], 'x.png'));
    const notCsv = await call('POST', '/public/watchlists', admin(), binary);
    expect(notCsv.status).toBe(422);
    expect(await notCsv.json()).toMatchObject({ code: 'not_csv' });
    expect((await call('POST', '/public/watchlists', auditor(), csvForm('es-demo', 'a\n'))).status).toBe(403);
  });

  it('stores a list larger than the 64 kB JSON limit (a few thousand rows)', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `X${String(i).padStart(7, '0')}T;1970-01-01`).join(
      '\n',
    );
    const res = await call(
      'POST',
      '/public/watchlists',
      admin(),
      csvForm('es-demo', `id_number;birth_date\n${rows}\n`),
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ row_count: 5000 });
  });

  it('refuses a file over 10 MB while reading it', async () => {
    const big = `id_number,birth_date\n${'12345678Z,1980-01-01\n'.repeat(Math.ceil((10.2 * 1024 * 1024) / 21))}`;
    const res = await call('POST', '/public/watchlists', admin(), csvForm('es-demo', big));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'file_too_large' });
  });
});

describe("an upload's outcome by id (UploadWatchlistResult after a reload)", () => {
  it('reads back a stored version and a kept refusal; another tenant, a bad id and a caller without the right get nothing', async () => {
    const stored = await call(
      'POST',
      '/public/watchlists',
      admin(),
      csvForm('es-demo', 'id_number;birth_date\n44444444A;1961-06-06\n', 'lista.csv'),
    );
    const { watchlist_id } = (await stored.json()) as { watchlist_id: string };
    const read = await call('GET', `/public/watchlists/uploads/${watchlist_id}`, admin());
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({
      success: true,
      stored: { watchlist_id, legal_domain: 'es-demo', row_count: 1, file_name: 'lista.csv', current: true },
    });
    // An auditor opens it too: it is the enforcement source of a refusal.
    expect((await call('GET', `/public/watchlists/uploads/${watchlist_id}`, auditor())).status).toBe(200);

    const refused = await call(
      'POST',
      '/public/watchlists',
      admin(),
      csvForm('es-demo', 'id_number,birth_date\n,1970-01-01\n', 'mala.csv'),
    );
    expect(refused.status).toBe(422);
    const problem = (await refused.json()) as { code: string; upload_id: string };
    expect(problem.code).toBe('invalid_rows');
    const again = await call('GET', `/public/watchlists/uploads/${problem.upload_id}`, admin());
    expect(await again.json()).toMatchObject({
      success: false,
      upload_id: problem.upload_id,
      legal_domain: 'es-demo',
      file_name: 'mala.csv',
      code: 'invalid_rows',
      invalid: 1,
    });
    const domain = await call(
      'POST',
      '/public/watchlists',
      admin(),
      csvForm('es-an', 'id_number,birth_date\n'),
    );
    expect(await domain.json()).toMatchObject({ code: 'unknown_domain', upload_id: expect.any(String) });

    expect((await call('GET', `/public/watchlists/uploads/${watchlist_id}`, admin('gambling'))).status).toBe(
      404,
    );
    expect((await call('GET', '/public/watchlists/uploads/not-a-uuid', admin())).status).toBe(404);
    const nobody = person('user-9', 'demo', ['get_users_me']);
    expect((await call('GET', `/public/watchlists/uploads/${watchlist_id}`, nobody)).status).toBe(403);
  });
});

describe('doors and the audit', () => {
  it('grants a valid QR, denies it once the person is on a list of the domain, and records both', async () => {
    const holder = await seededUser('demo');
    const [facility] = await facilities('demo');
    if (!facility) throw new Error('no facility');
    const qr = `acs:demo:whatever:${holder.sid}`;
    const first = await call('POST', '/internal/accesses', auditor(), {
      facility_id: facility.facility_id,
      credential: qr,
    });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ granted: true, reason: 'granted' });

    const list = `id_number,birth_date,document_number\n${holder.idNumber ?? 'X0000000T'},${holder.birthDate},${holder.documentNumber}\n`;
    expect((await call('POST', '/public/watchlists', admin(), csvForm('es-demo', list))).status).toBe(201);
    const second = await call('POST', '/internal/accesses', auditor(), {
      facility_id: facility.facility_id,
      credential: qr,
    });
    expect(await second.json()).toMatchObject({ granted: false, reason: 'user_interdicted' });
    const unknown = await call('POST', '/internal/accesses', auditor(), {
      facility_id: facility.facility_id,
      credential: 'not-a-sid',
    });
    expect(await unknown.json()).toMatchObject({ granted: false, reason: 'credential_not_found' });

    const page = await call(
      'GET',
      `/public/audit_accesses?pageSize=10&facility_id=${facility.facility_id}`,
      auditor(),
    );
    const body = (await page.json()) as {
      items: {
        access_type: string;
        reason: string;
        entity: unknown;
        enforcement_source_url: string | null;
      }[];
      total: number;
    };
    expect(body.items.slice(0, 3).map((item) => item.reason)).toEqual([
      'credential_not_found',
      'user_interdicted',
      'granted',
    ]);
    expect(body.items[1]?.entity).toMatchObject({
      document_number: holder.documentNumber,
      watchlists_checked: ['es-demo'],
    });
    // The refusal links to the list version that held the person, a same-origin path of the portal; the others
    // were not decided by a list.
    const current = await portal.db.query<{ watchlist_id: string }>(
      "select watchlist_id::text as watchlist_id from watchlists where tenant = 'demo' and legal_domain = 'es-demo' and current",
    );
    const sources = body.items
      .slice(0, 3)
      .map((item) => (item as { enforcement_source_url: unknown }).enforcement_source_url);
    expect(sources).toEqual([null, `/upload-watchlist-result/true/${current.rows[0]?.watchlist_id}`, null]);

    const denied = await call(
      'GET',
      `/public/audit_accesses?pageSize=100&result=denied&facility_id=${facility.facility_id}`,
      auditor(),
    );
    const deniedBody = (await denied.json()) as {
      items: { access_id: string; access_type: string; created_at: string }[];
      total: number;
    };
    expect(deniedBody.items.every((item) => item.access_type === 'denied')).toBe(true);

    // The csv export holds exactly the filtered rows, in the same order, after a BOM and the header.
    const csv = await call('POST', '/public/audit_accesses', auditor(), {
      result: 'denied',
      facility_id: facility.facility_id,
    });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await csv.arrayBuffer());
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([...AUDIT_CSV_COLUMNS]);
    expect(rows).toHaveLength(deniedBody.total);
    expect(rows.slice(0, 100).map((row) => row[0])).toEqual(deniedBody.items.map((item) => item.created_at));
    expect(rows.every((row) => row[4] === 'denied')).toBe(true);
  });

  it('a caller with post_accesses_myscope sees and uses only their facilities; another tenant’s facility is 404', async () => {
    const [mine, other] = await facilities('demo');
    if (!mine || !other) throw new Error('two facilities needed');
    await portal.db.query(
      "insert into account_facilities (tenant, account_id, facility_id) values ('demo', 'assistant-1', $1)",
      [mine.facility_id],
    );
    const holder = await seededUser('demo', 'visitor');
    for (const facility of [mine, other]) {
      await call('POST', '/internal/accesses', auditor(), {
        facility_id: facility.facility_id,
        credential: holder.sid,
      });
    }
    const outside = await call('POST', '/internal/accesses', scoped(), {
      facility_id: other.facility_id,
      credential: holder.sid,
    });
    expect(outside.status).toBe(404);
    const res = await call('GET', '/public/audit_accesses?pageSize=100', scoped());
    const body = (await res.json()) as { items: { facility: { facility_id: string } }[]; total: number };
    expect(body.total).toBeGreaterThan(0);
    expect(new Set(body.items.map((item) => item.facility.facility_id))).toEqual(new Set([mine.facility_id]));
    // The facility filter of AuditAccesses offers only theirs.
    const offered = (await (await call('GET', '/internal/facilities?mine=1', scoped())).json()) as {
      facility_id: string;
    }[];
    expect(offered.map((f) => f.facility_id)).toEqual([mine.facility_id]);
    const all = (await (await call('GET', '/internal/facilities', scoped())).json()) as unknown[];
    expect(all.length).toBeGreaterThan(1);
    const [gamblingFacility] = await facilities('gambling');
    const cross = await call('POST', '/internal/accesses', auditor(), {
      facility_id: gamblingFacility?.facility_id,
      credential: holder.sid,
    });
    expect(cross.status).toBe(404);
  });

  it('counts matches exactly up to 10,000, then says the total is a lower bound', async () => {
    const [facility] = await facilities('gambling');
    await portal.db.query(
      `insert into audit_accesses (tenant, created_at, facility_id, doc_type, granted, reason)
       select 'gambling', timestamptz '2000-01-01T00:00:00Z' + g * interval '1 minute', $1, 'denied', false,
              'credential_not_found'
         from generate_series(0, 10049) g`,
      [facility?.facility_id],
    );
    const page = async (to: string) =>
      (await (
        await call(
          'GET',
          `/public/audit_accesses?from=2000-01-01T00:00:00.000Z&to=${to}&pageSize=10`,
          auditor('gambling'),
        )
      ).json()) as { total: number; totalIsLowerBound: boolean; items: unknown[] };
    expect(await page('2001-01-01T00:00:00.000Z')).toMatchObject({ total: 10_000, totalIsLowerBound: true });
    expect(await page('2000-01-01T01:00:00.000Z')).toMatchObject({ total: 60, totalIsLowerBound: false });
  });

  it('refuses bad filters and page sizes', async () => {
    expect((await call('GET', '/public/audit_accesses?pageSize=7', auditor())).status).toBe(422);
    expect((await call('GET', '/public/audit_accesses?from=yesterday', auditor())).status).toBe(422);
    expect((await call('GET', '/public/audit_accesses', checker('demo'))).status).toBe(403);
  });
});

describe('interdiction check', () => {
  it('answers each of the five results', async () => {
    const holder = await seededUser('gambling');
    const check = async (body: Record<string, unknown>) =>
      ((await (await call('POST', '/internal/enforcements', checker(), body)).json()) as { result: string })
        .result;
    expect(await check({ id_number: 'Z9999999H', birth_date: '1980-01-01' })).toBe('user_not_found');
    expect(await check({ id_number: holder.idNumber, birth_date: '2015-01-01' })).toBe('underaged');
    expect(await check({ id_number: holder.idNumber, birth_date: '1950-01-01' })).toBe('indeterminate');
    expect(await check({ id_number: holder.idNumber, birth_date: holder.birthDate })).toBe('granted');
    faults.enforcement = true;
    try {
      expect(await check({ id_number: holder.idNumber, birth_date: holder.birthDate })).toBe('indeterminate');
    } finally {
      faults.enforcement = false;
    }
    const form = csvForm('es-an', `id_number,birth_date\n${holder.idNumber},${holder.birthDate}\n`);
    const upload = await call(
      'POST',
      '/public/watchlists',
      person('admin', 'gambling', ['post_watchlists']),
      form,
    );
    expect(upload.status).toBe(201);
    expect(await check({ id_number: holder.idNumber, birth_date: holder.birthDate })).toBe('denied');
    const alternate = await call('POST', '/enforcements', checker(), {
      id_number: holder.idNumber,
      birth_date: holder.birthDate,
    });
    expect(await alternate.json()).toMatchObject({ result: 'denied' });
  });

  it('requires the id number and the birth date', async () => {
    expect((await call('POST', '/internal/enforcements', checker(), { id_number: '12345678Z' })).status).toBe(
      422,
    );
    expect(
      (await call('POST', '/internal/enforcements', checker(), { birth_date: '1980-01-01' })).status,
    ).toBe(422);
  });
});

describe('seed', () => {
  it('seeds a month of accesses per tenant and the assistant’s facility', async () => {
    const { rows } = await portal.db.query<{ tenant: string; n: number; denied: number; days: number }>(
      `select tenant, count(*)::int as n, count(*) filter (where not granted)::int as denied,
              extract(day from max(created_at) - min(created_at))::int as days
         from audit_accesses where sid is not null and created_at < now() - interval '1 minute' group by tenant order by tenant`,
    );
    expect(rows.map((row) => row.tenant)).toEqual(['demo', 'gambling']);
    for (const row of rows) {
      expect(row.n).toBeGreaterThanOrEqual(2900);
      expect(row.denied).toBeGreaterThan(200);
      expect(row.days).toBeGreaterThanOrEqual(28);
    }
    const scope = await portal.db.query(
      "select 1 from account_facilities f join accounts a on a.id::text = f.account_id and a.tenant = f.tenant where a.username = 'assistant'",
    );
    expect(scope.rows).toHaveLength(2);
    // Seeded refusals by a list link to the tenant's seeded list; nothing else links.
    const links = await portal.db.query<{ reason: string; linked: number; total: number }>(
      `select reason, count(enforcement_watchlist_id)::int as linked, count(*)::int as total from audit_accesses
        where sid is not null and created_at < now() - interval '1 minute' group by reason`,
    );
    for (const row of links.rows) expect(row.linked).toBe(row.reason === 'user_interdicted' ? row.total : 0);
  });
});
