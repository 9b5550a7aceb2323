import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app';
import { fakeAuth, headersOf, PUBLIC_DIR, paddedJpeg, person } from '../onboarding/testing/harness';
import { testDeps } from '../testing/fixtures';
import { signedInAppForFile } from '../testing/signed-in-app';
import { singlesRoutes } from './routes';

// POST /public/singles through the real app with the fake auth of the onboarding harness (spec §5, §7, §8).

const portal = signedInAppForFile({ origins: 'default' });
// The same API on a copy of the tenants where demo's access-control ids are Wiegand numbers.
let wiegandApp: App;

beforeAll(() => {
  writeFileSync(
    join(portal.site.publicDir, 'tenants', 'demo', 'settings.json'),
    JSON.stringify({
      tenant: 'demo',
      acsIdSchema: 'wiegand',
      biometricQR: false,
      locales: ['es', 'en', 'eu'],
    }),
  );
  wiegandApp = portal.another({ origins: 'default', publicDir: 'site' });
});

const manager = person('singles-manager', 'gambling', ['get_users_all', 'post_singles']);
const demoManager = person('singles-manager-demo', 'demo', ['post_singles']);
let serial = 0;
const next = () => {
  serial += 1;
  return serial;
};

/** A real JPEG of the given size, in base64 (images are decoded: onboarding/image-checks.ts). */
function jpeg(size = 6000): string {
  return paddedJpeg(size).toString('base64');
}

function fieldsBody(n: number, extra: Record<string, unknown> = {}) {
  return {
    mode: 'fields',
    email: `single-${n}@example.test`,
    first_name: 'Nerea',
    last_name: 'Etxeberria',
    birth_date: '1988-04-12',
    document_type: 'id_card',
    document_number: `SGL${n}X`,
    ...extra,
  };
}

function post(body: unknown, who = manager, target: App = portal.app, headers: Record<string, string> = {}) {
  return target.request('/api/public/singles', {
    method: 'POST',
    headers: { ...headersOf(who), 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('POST /public/singles', () => {
  it('registers a person from their fields: user, account, QR credential, register mode administrative', async () => {
    const n = next();
    const res = await post(fieldsBody(n, { acs_id: `ACS-SGL-${n}` }));
    expect(res.status).toBe(201);
    const { result } = (await res.json()) as { result: Record<string, unknown> };
    expect(result).toMatchObject({ outcome: 'accepted', reason: null, code: 0, qr_emailed: false });
    const { rows } = await portal.db.query<Record<string, unknown>>(
      `select u.register_mode, u.assisted_by, u.acs_id, u.document_number, a.enrolled,
              (select count(*)::int from credentials c where c.tenant = u.tenant and c.user_id = u.user_id) as qrs
         from users u join accounts a on a.tenant = u.tenant and a.id::text = u.account_id
        where u.tenant = 'gambling' and u.user_id = $1`,
      [result.user_id],
    );
    expect(rows[0]).toEqual({
      register_mode: 'administrative',
      assisted_by: 'singles-manager',
      acs_id: `ACS-SGL-${n}`,
      document_number: `SGL${n}X`,
      enrolled: true,
      qrs: 1,
    });
  });

  it('registers from username, acs_id, email and an image, keeping the image as the selfie evidence', async () => {
    const n = next();
    const res = await post({
      mode: 'image',
      username: `single.user.${n}`,
      acs_id: `ACS-IMG-${n}`,
      email: `single-img-${n}@example.test`,
      image: jpeg(),
    });
    expect(res.status).toBe(201);
    const { result } = (await res.json()) as { result: { user_id: string } };
    const { rows } = await portal.db.query<{ kind: string; content_type: string; size: number }>(
      `select kind, content_type, length(bytes) as size from user_evidences where tenant = 'gambling' and user_id = $1`,
      [result.user_id],
    );
    expect(rows).toEqual([{ kind: 'selfie', content_type: 'image/jpeg', size: 6000 }]);
  });

  it('answers 409 email_already_in_use on the email field for a taken email, and creates nothing', async () => {
    const n = next();
    expect((await post(fieldsBody(n))).status).toBe(201);
    const again = await post(fieldsBody(n, { document_number: `OTHER${n}` }));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      code: 'email_already_in_use',
      errors: [{ field: 'email', code: 'email_already_in_use' }],
    });
    const { rows } = await portal.db.query(
      "select 1 from users where tenant = 'gambling' and document_number = $1",
      [`OTHER${n}`],
    );
    expect(rows).toHaveLength(0);
  });

  it('rejects a taken acs_id with acs_id_already_in_use, code 2, leaving no account behind', async () => {
    const n = next();
    expect((await post(fieldsBody(n, { acs_id: `TAKEN-${n}` }))).status).toBe(201);
    const m = next();
    const res = await post(fieldsBody(m, { acs_id: `TAKEN-${n}` }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      result: { outcome: 'rejected', reason: 'acs_id_already_in_use', code: 2 },
    });
    const { rows } = await portal.db.query(
      "select 1 from accounts where tenant = 'gambling' and email = $1",
      [`single-${m}@example.test`],
    );
    expect(rows).toHaveLength(0);
  });

  it('rejects an image mode without an image (selfie_not_provided, code 1) and an image that is no jpg/png', async () => {
    const n = next();
    const base = { mode: 'image', username: `u${n}`, acs_id: `A-${n}`, email: `img-${n}@example.test` };
    expect(await (await post(base)).json()).toEqual({
      result: { outcome: 'rejected', reason: 'selfie_not_provided', code: 1 },
    });
    const gif = Buffer.alloc(6000, 1);
    gif.set([0x47, 0x49, 0x46]);
    expect(await (await post({ ...base, image: gif.toString('base64') })).json()).toEqual({
      result: { outcome: 'rejected', reason: 'embedding_generation_failed', code: 1 },
    });
  });

  it('rejects with qr_generation_failed (code 3) and undoes the user when the QR cannot be made', async () => {
    // The route alone, with a QR maker that fails, on an app that sets the tenant the way requireTenant does.
    const { Hono } = await import('hono');
    const bare = new Hono();
    bare.use('/api/*', async (c, nextHandler) => {
      c.set('tenant' as never, 'gambling' as never);
      await nextHandler();
    });
    bare.route(
      '/api',
      singlesRoutes(testDeps(portal.db, portal.site, { publicDir: PUBLIC_DIR }), fakeAuth, {
        qr: () => Promise.reject(new Error('no qr')),
      }),
    );
    const n = next();
    const res = await bare.request('/api/public/singles', {
      method: 'POST',
      headers: { ...headersOf(manager), 'content-type': 'application/json' },
      body: JSON.stringify(fieldsBody(n)),
    });
    expect(await res.json()).toEqual({
      result: { outcome: 'rejected', reason: 'qr_generation_failed', code: 3 },
    });
    const { rows } = await portal.db.query(
      "select 1 from users where tenant = 'gambling' and document_number = $1",
      [`SGL${n}X`],
    );
    expect(rows).toHaveLength(0);
  });

  it('answers 422 per field for a mode without its fields', async () => {
    const res = await post({ mode: 'fields', email: 'nobody@example.test' });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: { field: string; code: string }[] };
    expect(body.errors.map((e) => e.field)).toEqual([
      'first_name',
      'last_name',
      'birth_date',
      'document_type',
      'document_number',
    ]);
    const tiny = Buffer.alloc(100, 7);
    tiny.set([0xff, 0xd8, 0xff, 0xe0]);
    const image = await post({
      mode: 'image',
      email: 'nobody2@example.test',
      image: tiny.toString('base64'),
    });
    expect(((await image.json()) as { errors: unknown[] }).errors).toEqual([
      { field: 'username', code: 'required' },
      { field: 'acs_id', code: 'required' },
      { field: 'image', code: 'image_too_small' },
    ]);
  });

  it('refuses email delivery of the QR where the QR is biometric (gambling), and mails it elsewhere', async () => {
    const n = next();
    const refused = await post(fieldsBody(n, { send_qr_by_email: true }));
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      errors: [{ field: 'send_qr_by_email', code: 'email_delivery_not_allowed' }],
    });
    const sent = await post(fieldsBody(n, { send_qr_by_email: true, acs_id: '77' }), demoManager, wiegandApp);
    expect(sent.status).toBe(201);
    expect(((await sent.json()) as { result: { qr_emailed: boolean } }).result.qr_emailed).toBe(true);
    const { rows } = await portal.db.query<{ subject: string; body: string; link: string }>(
      "select subject, body, link from outbox where tenant = 'demo' and recipient = $1",
      [`single-${n}@example.test`],
    );
    expect(rows).toHaveLength(1);
    // In the tenant's first language when the request names none of its languages, in one language only.
    expect(rows[0]?.subject).toBe('Su QR de acceso');
    expect(rows[0]?.body).toBe(
      `Su credencial de acceso está lista. Inicie sesión para ver su QR: ${rows[0]?.link}`,
    );
    expect(rows[0]?.link).toMatch(/^https?:\/\/[^/]+\/accreditations$/);
  });

  it('mails the QR in the language the portal asks in, among the tenant’s', async () => {
    const sentIn = async (acceptLanguage: string) => {
      const n = next();
      const res = await post(
        fieldsBody(n, { send_qr_by_email: true, acs_id: String(200 + n) }),
        demoManager,
        wiegandApp,
        {
          'accept-language': acceptLanguage,
        },
      );
      expect(res.status).toBe(201);
      const { rows } = await portal.db.query<{ subject: string; body: string }>(
        "select subject, body from outbox where tenant = 'demo' and recipient = $1",
        [`single-${n}@example.test`],
      );
      return rows[0];
    };
    expect(await sentIn('eu')).toMatchObject({
      subject: 'Zure sarbide-QRa',
      body: expect.stringMatching(
        /^Zure sarbide-kredentziala prest dago\. Hasi saioa zure QRa ikusteko: http/,
      ),
    });
    expect((await sentIn('en-GB,en;q=0.9'))?.subject).toBe('Your access QR');
    expect((await sentIn('fr, de'))?.subject).toBe('Su QR de acceso');
  });

  it('checks acs_id against a Wiegand schema: 1–65535 only', async () => {
    for (const bad of ['0', '65536', 'ABC', '-4']) {
      const res = await post(fieldsBody(next(), { acs_id: bad }), demoManager, wiegandApp);
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ errors: [{ field: 'acs_id', code: 'wiegand_range' }] });
    }
    const ok = await post(fieldsBody(next(), { acs_id: '65535' }), demoManager, wiegandApp);
    expect(ok.status).toBe(201);
  });

  it('holds a delegated onboarding image to 6,828–6,990,508 bytes (spec §5)', async () => {
    const body = (n: number, size: number) => ({
      mode: 'image',
      delegated: true,
      username: `delegated.${n}`,
      acs_id: `DLG-${n}`,
      email: `delegated-${n}@example.test`,
      image: jpeg(size),
    });
    const small = await post(body(next(), 6_827));
    expect(await small.json()).toMatchObject({
      errors: [{ field: 'image', code: 'delegated_image_too_small' }],
    });
    const large = await post(body(next(), 6_990_509));
    expect(await large.json()).toMatchObject({
      errors: [{ field: 'image', code: 'delegated_image_too_large' }],
    });
    expect((await post(body(next(), 6_828))).status).toBe(201);
    expect((await post(body(next(), 6_990_508))).status).toBe(201);
    // The same 6,000 bytes a single registration takes are too few for a delegated one.
    expect((await post(body(next(), 6_000))).status).toBe(422);
  });

  it('needs post_singles: another right answers 403, no token 401', async () => {
    const other = person('singles-nobody', 'gambling', ['get_users_me']);
    expect((await post(fieldsBody(next()), other)).status).toBe(403);
    const anonymous = await portal.app.request('/api/public/singles', {
      method: 'POST',
      headers: { 'tenant-id': 'gambling', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
  });
});
