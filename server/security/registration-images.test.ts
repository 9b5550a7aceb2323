// Every way an image enters the server is held to the enrolment's checks (server/onboarding/image-checks.ts): a
// staff member's single registration, a delegated onboarding and a bulk import used to look only at the first
// bytes, so a 30000×30000 PNG, a PNG cut in half and a JPEG of garbage became people's selfies (and staff
// browsers were then served them), while the selfie route refused all three. On a real server, through the real
// sign-in: the same codes and the same words as the selfie route, on the field, and nothing registered.
import { constants, deflateRawSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { corruptScanJpeg, truncated } from '../onboarding/testing/broken-images';
import { fixture } from '../onboarding/testing/harness';
import { pngChunk, pngHeader } from '../onboarding/testing/make-fixtures';
import { apiCall, signIn } from '../testing/oidc';
import { startedServerForFile } from '../testing/signed-in-app';

const started = startedServerForFile({}, 120_000);
let staff: string;
let newcomer: string;

beforeAll(async () => {
  staff = (await signIn(started.base, 'gambling', 'usermanager')).access_token;
  newcomer = (await signIn(started.base, 'gambling', 'newcomer')).access_token;
}, 120_000);

/**
 * A whole, valid PNG of side × side black grey pixels (30000 makes the finding's 900-megapixel file of about a
 * megabyte). Each row is deflated on its own with a full flush, so the rows' blocks laid end to end are one
 * deflate stream, without ever holding the 900 MB of pixels; the Adler-32 of n zero bytes is (n mod 65521) << 16 | 1.
 */
function blackPng(side: number): Buffer {
  const row = deflateRawSync(Buffer.alloc(side + 1), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const raw = Buffer.concat([...Array.from({ length: side }, () => row), Buffer.from([0x03, 0x00])]);
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((((side + 1) * side) % 65521) * 65536 + 1) >>> 0);
  const idat = Buffer.concat([Buffer.from([0x78, 0xda]), raw, adler]);
  return Buffer.concat([
    pngHeader(side, side, 0),
    pngChunk('IDAT', idat),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/** A JPEG by its first bytes, and garbage after them. */
function garbageJpeg(): Buffer {
  const bytes = Buffer.alloc(20_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return bytes;
}

const BAD: [string, Buffer, string][] = [
  ['a 30000×30000 PNG', blackPng(30_000), 'image_too_many_pixels'],
  ['a truncated PNG', fixture('selfie.png').subarray(0, 16_000), 'image_unreadable'],
  ['a JPEG of garbage', garbageJpeg(), 'image_unreadable'],
  // A whole header over broken pixel data: only decoding every pixel finds these.
  [
    'a JPEG whose scan data is garbage',
    Buffer.from(corruptScanJpeg(fixture('selfie.jpg'))),
    'image_unreadable',
  ],
  ['a truncated JPEG', Buffer.from(truncated(fixture('selfie.jpg'), 0.6)), 'image_unreadable'],
];

interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: { field: string; code: string }[];
}

let serial = 0;
const nextId = () => {
  serial += 1;
  return `${Date.now().toString(36)}${serial}`;
};

const json = (token: string, method: string, path: string, body?: unknown) =>
  apiCall(started.base, path, 'gambling', token, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

function single(image: Buffer, delegated = false) {
  const n = nextId();
  return json(staff, 'POST', '/public/singles', {
    mode: 'image',
    username: `photo.${n}`,
    acs_id: `IMG-${n}`,
    email: `photo-${n}@example.test`,
    image: image.toString('base64'),
    ...(delegated ? { delegated: true } : {}),
  });
}

/** A portrayal of the newcomer's enrolment: where the enrolment's own check answers. */
async function portrayal(type: 'selfie' | 'document'): Promise<string> {
  const created = await json(newcomer, 'POST', '/internal/onboardings', { mode: 'auto' });
  expect(created.status, await created.clone().text()).toBe(201);
  const { onboarding_id } = (await created.json()) as { onboarding_id: string };
  expect((await json(newcomer, 'PUT', `/internal/onboardings/${onboarding_id}/legal_terms`)).status).toBe(
    200,
  );
  const made = await json(newcomer, 'POST', '/internal/portrayals', {
    onboarding_id,
    portrayal_type: type,
    document_type: type === 'document' ? 'passport' : null,
    document_country: type === 'document' ? 'ES' : null,
  });
  expect(made.status, await made.clone().text()).toBe(201);
  return ((await made.json()) as { portrayal_id: string }).portrayal_id;
}

function upload(portrayalId: string, kind: 'selfie' | 'obverse', image: Buffer, type: string) {
  return apiCall(started.base, `/internal/portrayals/${portrayalId}/${kind}`, 'gambling', newcomer, {
    method: 'PUT',
    headers: { 'content-type': type },
    body: new Uint8Array(image),
  });
}

describe('images of single, delegated and bulk registrations', () => {
  it('refuses what the selfie route refuses, with its code and its words on the image field', async () => {
    const selfieId = await portrayal('selfie');
    const documentId = await portrayal('document');
    for (const [what, bytes, code] of BAD) {
      const type = bytes[0] === 0x89 ? 'image/png' : 'image/jpeg';
      const fromSelfie = (await (await upload(selfieId, 'selfie', bytes, type)).json()) as Problem;
      expect(fromSelfie, what).toMatchObject({ status: 422, code });
      const fromDocument = (await (await upload(documentId, 'obverse', bytes, type)).json()) as Problem;
      expect(fromDocument, `${what} (document)`).toMatchObject({
        status: 422,
        code,
        detail: fromSelfie.detail,
      });
      for (const delegated of [false, true]) {
        const res = await single(bytes, delegated);
        const answer = (await res.json()) as Problem;
        expect(res.status, `${what}${delegated ? ' (delegated)' : ''}`).toBe(422);
        expect(answer).toMatchObject({
          code,
          detail: fromSelfie.detail,
          errors: [{ field: 'image', code }],
        });
      }
    }
  });

  it('still registers a real picture, and serves it back as the selfie', async () => {
    const picture = fixture('selfie.png');
    const res = await single(picture);
    expect(res.status, await res.clone().text()).toBe(201);
    const { result } = (await res.json()) as { result: { user_id: string; qr_sid: string } };
    expect(result.qr_sid).toBeTruthy();
    const served = await apiCall(started.base, `/public/users/${result.user_id}/selfie`, 'gambling', staff);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(picture)).toBe(true);
  });

  it('rejects the bulk rows whose pictures the selfie route refuses, by the same codes, and registers the good one', async () => {
    const n = nextId();
    const names = [...BAD.map(([, bytes], i) => `bad-${i}.${bytes[0] === 0x89 ? 'png' : 'jpg'}`), 'good.jpg'];
    const pictures = [...BAD.map(([, bytes]) => bytes), fixture('selfie.jpg')];
    const csv = `email,first_name,last_name,acs_id,image\r\n${names
      .map((name, i) => `bulk-${n}-${i}@example.test,Ane,Argazki,BULK-${n}-${i},${name}\r\n`)
      .join('')}`;
    const form = new FormData();
    form.append('metadata', new Blob([csv]), 'people.csv');
    const zip = zipSync(
      Object.fromEntries(names.map((name, i) => [name, new Uint8Array(pictures[i] ?? [])])),
    );
    form.append(
      'media',
      new Blob([zip as Uint8Array<ArrayBuffer>], { type: 'application/zip' }),
      'photos.zip',
    );
    const posted = await apiCall(started.base, '/public/singles/bulk', 'gambling', staff, {
      method: 'POST',
      body: form,
    });
    expect(posted.status, await posted.clone().text()).toBe(202);
    const { job_id } = (await posted.json()) as { job_id: string };
    let job: {
      status: string;
      rows: { row: number; outcome: string; reason: string | null; field: string | null; code: number }[];
    };
    for (;;) {
      const res = await apiCall(started.base, `/public/singles/bulk/${job_id}`, 'gambling', staff);
      job = (await res.json()) as typeof job;
      if (job.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(job.status).toBe('done');
    expect(job.rows.map((r) => [r.row, r.outcome, r.reason, r.field, r.code])).toEqual([
      [1, 'rejected', 'image_too_many_pixels', 'image', 1],
      [2, 'rejected', 'image_unreadable', 'image', 1],
      [3, 'rejected', 'image_unreadable', 'image', 1],
      [4, 'rejected', 'image_unreadable', 'image', 1],
      [5, 'rejected', 'image_unreadable', 'image', 1],
      [6, 'accepted', null, null, 0],
    ]);
  });
});
