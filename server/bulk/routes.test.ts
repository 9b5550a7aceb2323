import { randomBytes } from 'node:crypto';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { App } from '../app';
import {
  fakeAuth,
  fixture,
  headersOf,
  type Person,
  PUBLIC_DIR,
  paddedJpeg,
  person,
} from '../onboarding/testing/harness';
import { testDeps } from '../testing/fixtures';
import { signedInAppForFile } from '../testing/signed-in-app';
import { bulkRoutes } from './routes';

// POST /public/singles/bulk and GET /public/singles/bulk/{jobId} through the real app ("Add users from photos";
// spec §5 1000 elements, metadata, zip; §8 user registration codes).

const portal = signedInAppForFile({ origins: 'default' });

const manager = person('bulk-manager', 'gambling', ['get_users_all', 'post_singles']);
const otherManager = person('bulk-manager-2', 'gambling', ['post_singles']);
const demoManager = person('bulk-manager-demo', 'demo', ['post_singles']);
const userManagerOnly = person('bulk-reader', 'gambling', ['get_users_all']);

/** A real JPEG of the given size (pictures are decoded: onboarding/image-checks.ts), its padding filled with `fill`. */
function jpeg(size = 20_000, fill = 7): Uint8Array {
  return new Uint8Array(paddedJpeg(size, fill));
}

const HEADER = 'email,first_name,last_name,acs_id,image\r\n';

function form(metadata: string | null, media: Uint8Array | null, metadataName = 'people.csv'): FormData {
  const body = new FormData();
  if (metadata !== null) body.append('metadata', new Blob([metadata]), metadataName);
  if (media !== null)
    body.append(
      'media',
      new Blob([media as Uint8Array<ArrayBuffer>], { type: 'application/zip' }),
      'photos.zip',
    );
  return body;
}

function post(body: FormData, who: Person = manager, target: App = portal.app) {
  return target.request('/api/public/singles/bulk', { method: 'POST', headers: headersOf(who), body });
}

interface Job {
  job_id: string;
  status: string;
  total: number;
  done: number;
  accepted: number;
  rejected: number;
  rows: {
    row: number;
    email: string;
    outcome: string;
    reason: string | null;
    field?: string | null;
    code: number;
  }[];
}

async function finished(jobId: string, who: Person = manager, target: App = portal.app): Promise<Job> {
  for (let i = 0; i < 400; i++) {
    const res = await target.request(`/api/public/singles/bulk/${jobId}`, { headers: headersOf(who) });
    expect(res.status).toBe(200);
    const job = (await res.json()) as Job;
    if (job.status !== 'running') return job;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the import did not finish');
}

async function accepted(res: Response): Promise<string> {
  expect(res.status).toBe(202);
  const body = (await res.json()) as { job_id: string; total: number };
  return body.job_id;
}

const count = async (sql: string, params: unknown[]) => (await portal.db.query(sql, params)).rows.length;

describe('POST /public/singles/bulk', () => {
  it('registers the good rows, each with its picture and QR, and reports the bad ones per row', async () => {
    // A person already registered: their email and their acs_id are taken.
    const first = await accepted(
      await post(
        form(
          `${HEADER}taken@bulk.test,Iker,Goikoetxea,BULK-TAKEN,taken.jpg\r\n`,
          zipSync({ 'taken.jpg': jpeg() }),
        ),
      ),
    );
    expect((await finished(first)).accepted).toBe(1);

    const metadata =
      HEADER +
      'ane@bulk.test,Ane,Etxeberria,BULK-1,photos/ane.jpg\r\n' +
      'taken@bulk.test,Jon,Ruiz,BULK-2,jon.jpg\r\n' +
      'miren@bulk.test,Miren,Aranburu,BULK-TAKEN,miren.jpg\r\n' +
      'absent@bulk.test,Koldo,Mitxelena,BULK-4,nowhere.jpg\r\n' +
      'notapicture@bulk.test,Nerea,Zubizarreta,BULK-5,text.png\r\n' +
      'ANE@bulk.test,Ane,Bis,BULK-6,jon.jpg\r\n' +
      'bad-email,Xabier,Lete,BULK-7,jon.jpg\r\n' +
      'leire@bulk.test,Leire,Urrutia,BULK-8,leire.png\r\n';
    const png = new Uint8Array(fixture('selfie.png'));
    const media = zipSync({
      'photos/ane.jpg': jpeg(),
      'jon.jpg': jpeg(30_000, 3),
      'miren.jpg': jpeg(),
      'text.png': new Uint8Array(10_000).fill(65),
      'leire.png': png,
    });
    const jobId = await accepted(await post(form(metadata, media)));
    const job = await finished(jobId);
    expect(job).toMatchObject({ status: 'done', total: 8, done: 8, accepted: 2, rejected: 6 });
    expect(job.rows.map((r) => [r.row, r.outcome, r.reason, r.field ?? null, r.code])).toEqual([
      [1, 'accepted', null, null, 0],
      [2, 'rejected', 'email_already_in_use', 'email', 0],
      [3, 'rejected', 'acs_id_already_in_use', 'acs_id', 2],
      [4, 'rejected', 'image_not_found', 'image', 0],
      [5, 'rejected', 'embedding_generation_failed', 'image', 1],
      [6, 'rejected', 'duplicate_row', 'email', 0],
      [7, 'rejected', 'wrong_format', 'email', 0],
      [8, 'accepted', null, null, 0],
    ]);

    const ane = await portal.db.query<{ register_mode: string; assisted_by: string; user_id: string }>(
      "select register_mode, assisted_by, user_id::text as user_id from users where tenant = 'gambling' and email = $1",
      ['ane@bulk.test'],
    );
    expect(ane.rows[0]).toMatchObject({ register_mode: 'administrative', assisted_by: 'bulk-manager' });
    const userId = ane.rows[0]?.user_id;
    expect(
      await count(
        "select 1 from user_evidences where tenant = 'gambling' and user_id = $1 and kind = 'selfie'",
        [userId],
      ),
    ).toBe(1);
    expect(
      await count(
        "select 1 from credentials where tenant = 'gambling' and user_id = $1 and credential_type = 'qr'",
        [userId],
      ),
    ).toBe(1);
    // Nothing of a rejected row: no account, no user for Miren (acs_id taken) nor for Koldo (no picture).
    for (const email of ['miren@bulk.test', 'absent@bulk.test', 'notapicture@bulk.test']) {
      expect(await count("select 1 from accounts where tenant = 'gambling' and email = $1", [email])).toBe(0);
      expect(await count("select 1 from users where tenant = 'gambling' and email = $1", [email])).toBe(0);
    }
  });

  it('refuses the row whose picture has a flipped byte in the zip (image_corrupt) and registers the others', async () => {
    const pictures = {
      'crc-a.jpg': jpeg(20_000, 11),
      'crc-b.jpg': jpeg(20_000, 12),
      'crc-c.jpg': jpeg(20_000, 13),
    };
    const media = zipSync(pictures, { level: 0 });
    // One byte inside the stored data of crc-b.jpg: still a JPEG by its first bytes, of the same size, but its CRC-32
    // is not the one the zip declares.
    const v = new DataView(media.buffer);
    let at = 0;
    for (;;) {
      const nameLength = v.getUint16(at + 26, true);
      const start = at + 30 + nameLength + v.getUint16(at + 28, true);
      if (new TextDecoder().decode(media.subarray(at + 30, at + 30 + nameLength)) === 'crc-b.jpg') {
        media[start + 10_000] = (media[start + 10_000] as number) ^ 0x80;
        break;
      }
      at = start + v.getUint32(at + 18, true);
    }
    const metadata =
      HEADER +
      'crc-a@bulk.test,Amaia,Lasa,BULK-CRC-1,crc-a.jpg\r\n' +
      'crc-b@bulk.test,Beñat,Lasa,BULK-CRC-2,crc-b.jpg\r\n' +
      'crc-c@bulk.test,Garazi,Lasa,BULK-CRC-3,crc-c.jpg\r\n';
    const job = await finished(await accepted(await post(form(metadata, media))));
    expect(job.rows.map((r) => [r.row, r.outcome, r.reason, r.field ?? null])).toEqual([
      [1, 'accepted', null, null],
      [2, 'rejected', 'image_corrupt', 'image'],
      [3, 'accepted', null, null],
    ]);
    // Nothing of the refused row; the others are there with their picture, byte for byte.
    expect(
      await count("select 1 from accounts where tenant = 'gambling' and email = $1", ['crc-b@bulk.test']),
    ).toBe(0);
    expect(
      await count("select 1 from users where tenant = 'gambling' and email = $1", ['crc-b@bulk.test']),
    ).toBe(0);
    const { rows } = await portal.db.query<{ bytes: Uint8Array }>(
      `select e.bytes from user_evidences e join users u on u.tenant = e.tenant and u.user_id = e.user_id
        where u.tenant = 'gambling' and u.email = 'crc-c@bulk.test' and e.kind = 'selfie'`,
    );
    expect(Buffer.from(rows[0]?.bytes ?? []).equals(Buffer.from(pictures['crc-c.jpg']))).toBe(true);
  });

  it('reads JSON metadata too', async () => {
    const metadata = JSON.stringify([
      { email: 'json@bulk.test', first_name: 'Amaia', last_name: 'Olano', acs_id: 'BULK-J1', image: 'a.jpg' },
    ]);
    const jobId = await accepted(await post(form(metadata, zipSync({ 'a.jpg': jpeg() }), 'people.json')));
    expect((await finished(jobId)).rows[0]).toMatchObject({ outcome: 'accepted', email: 'json@bulk.test' });
  });

  it('refuses a picture larger than 6,990,508 bytes, by its header or by what it inflates to', async () => {
    const big = jpeg(6_990_509, 0);
    const jobId = await accepted(
      await post(
        form(
          `${HEADER}big@bulk.test,Gorka,Arrieta,BULK-BIG,big.jpg\r\nsmall@bulk.test,Gorka,Txiki,BULK-SMALL,small.jpg\r\n`,
          zipSync({ 'big.jpg': big, 'small.jpg': jpeg(6_827) }),
        ),
      ),
    );
    const job = await finished(jobId);
    expect(job.rows.map((r) => r.reason)).toEqual(['delegated_image_too_large', 'delegated_image_too_small']);
    expect(
      await count("select 1 from accounts where tenant = 'gambling' and email = 'big@bulk.test'", []),
    ).toBe(0);
  });

  it('refuses more than 1000 elements as a whole', async () => {
    const rows = Array.from({ length: 1001 }, (_, i) => `p${i}@bulk.test,A,B,TM-${i},p.jpg\r\n`).join('');
    const res = await post(form(HEADER + rows, zipSync({ 'p.jpg': jpeg() })));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'too_many_elements', count: 1001 });
    expect(
      await count("select 1 from accounts where tenant = 'gambling' and email = 'p0@bulk.test'", []),
    ).toBe(0);
  });

  it('refuses a corrupt zip, something that is not a zip, and a missing one', async () => {
    // Pictures of noise do not compress: half the zip ends inside the second one.
    const noise = () => {
      const bytes = new Uint8Array(randomBytes(20_000));
      bytes.set([0xff, 0xd8, 0xff, 0xe0]);
      return bytes;
    };
    const good = zipSync({ 'a.jpg': noise(), 'b.jpg': noise() });
    const metadata = `${HEADER}c@bulk.test,A,B,BULK-C,a.jpg\r\n`;
    for (const media of [good.subarray(0, good.length / 2), new Uint8Array(5000).fill(42), null]) {
      const res = await post(form(metadata, media));
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ code: 'media_corrupt' });
    }
  });

  it('refuses metadata that is neither JSON nor CSV', async () => {
    for (const [text, name] of [
      ['{"users": [', 'people.json'],
      ['email,image\na@b.es,a.jpg\n', 'people.csv'],
    ] as const) {
      const res = await post(form(text, zipSync({ 'a.jpg': jpeg() }), name));
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ code: 'metadata_invalid' });
    }
  });

  it('refuses an upload that says it is larger than the limit before reading it', async () => {
    const res = await portal.app.request('/api/public/singles/bulk', {
      method: 'POST',
      headers: {
        ...headersOf(manager),
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(300 * 1024 * 1024),
      },
      body: '--x--\r\n',
    });
    expect(res.status).toBe(413);
  });

  it('needs post_singles, and shows a job only to who started it, in its tenant', async () => {
    expect((await post(form(`${HEADER}`, zipSync({})), userManagerOnly)).status).toBe(403);
    const jobId = await accepted(
      await post(
        form(`${HEADER}iso@bulk.test,Itziar,Ibarra,BULK-ISO,a.jpg\r\n`, zipSync({ 'a.jpg': jpeg() })),
      ),
    );
    await finished(jobId);
    for (const who of [otherManager, demoManager]) {
      const res = await portal.app.request(`/api/public/singles/bulk/${jobId}`, { headers: headersOf(who) });
      expect(res.status).toBe(404);
    }
    expect(
      (await portal.app.request('/api/public/singles/bulk/not-a-uuid', { headers: headersOf(manager) }))
        .status,
    ).toBe(404);
    // Another tenant: the same email and acs_id are free there, and the row lands in demo only.
    const demoJob = await accepted(
      await post(
        form(`${HEADER}iso@bulk.test,Itziar,Ibarra,BULK-ISO,a.jpg\r\n`, zipSync({ 'a.jpg': jpeg() })),
        demoManager,
      ),
    );
    expect((await finished(demoJob, demoManager)).accepted).toBe(1);
    expect(await count("select 1 from users where email = 'iso@bulk.test'", [])).toBe(2);
  });

  it('reports a job that stopped moving (its process restarted) as failed, with the rows it had done', async () => {
    const { rows } = await portal.db.query<{ job_id: string }>(
      `insert into bulk_imports (tenant, created_by, total, updated_at)
       values ('gambling', 'bulk-manager', 5, now() - interval '10 minutes') returning job_id::text as job_id`,
      [],
    );
    const jobId = rows[0]?.job_id as string;
    await portal.db.query(
      `insert into bulk_import_rows (tenant, job_id, row_number, email, outcome, code) values ('gambling', $1, 1, 'x@bulk.test', 'accepted', 0)`,
      [jobId],
    );
    const job = await finished(jobId);
    expect(job).toMatchObject({ status: 'failed', total: 5, done: 1, accepted: 1 });
  });

  it('undoes a row whose QR cannot be made (qr_generation_failed, code 3)', async () => {
    const { Hono } = await import('hono');
    const bare = new Hono();
    bare.use('/api/*', async (c, nextHandler) => {
      c.set('tenant' as never, 'gambling' as never);
      await nextHandler();
    });
    bare.route(
      '/api',
      bulkRoutes(testDeps(portal.db, portal.site, { publicDir: PUBLIC_DIR }), fakeAuth, {
        qr: () => Promise.reject(new Error('no qr')),
      }),
    );
    const res = await bare.request('/api/public/singles/bulk', {
      method: 'POST',
      headers: headersOf(manager),
      body: form(`${HEADER}noqr@bulk.test,Ainhoa,Lasa,BULK-NOQR,a.jpg\r\n`, zipSync({ 'a.jpg': jpeg() })),
    });
    const jobId = await accepted(res);
    const job = await finished(jobId, manager, bare as unknown as App);
    expect(job.rows[0]).toMatchObject({ outcome: 'rejected', reason: 'qr_generation_failed', code: 3 });
    expect(
      await count("select 1 from accounts where tenant = 'gambling' and email = 'noqr@bulk.test'", []),
    ).toBe(0);
    expect(
      await count("select 1 from users where tenant = 'gambling' and email = 'noqr@bulk.test'", []),
    ).toBe(0);
  });
});
