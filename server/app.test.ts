import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from './app';
import type { Db } from './db/db';
import type { Logger } from './logger';
import { startServer } from './main';
import { basicEngine } from './onboarding/engine';
import { createReadiness } from './readiness';
import { SECURITY_HEADERS } from './security-headers';
import {
  createSiteFixture,
  createTestDb,
  SECRET,
  type SiteFixture,
  TEST_BEARER,
  testAuth,
  testDeps,
  testServerOptions,
} from './testing/fixtures';

let db: Db;
let site: SiteFixture;
let app: App;

beforeAll(async () => {
  db = await createTestDb();
  site = createSiteFixture();
  app = createApp(testDeps(db, site));
});

afterAll(async () => {
  await db.close();
  site.remove();
});

const api = (path: string, tenant?: string, init: RequestInit = {}) =>
  app.request(path, {
    ...init,
    headers: { ...(tenant ? { 'tenant-id': tenant } : {}), ...(init.headers as Record<string, string>) },
  });

const html = { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } };

function expectSecurityHeaders(res: Response): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    expect(res.headers.get(name), name).toBe(value);
  }
}

async function expectProblem(res: Response, status: number, code?: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/(problem\+)?json/);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
  if (code) expect(body.code).toBe(code);
}

describe('GET /health', () => {
  it('reports ok with the version and needs no tenant', async () => {
    const res = await app.request('/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', db: 'ok', version: '0.0.0-test' });
    expectSecurityHeaders(res);
  });

  it('answers 503 when the database fails', async () => {
    const broken: Db = {
      ...db,
      query: () => Promise.reject(new Error('connection lost')),
    };
    const res = await createApp(testDeps(broken, site)).request('/health');
    await expectProblem(res, 503, 'db_unavailable');
    expectSecurityHeaders(res);
  });

  it('answers 503 not_ready while the engine loads its models, then 200', async () => {
    const readiness = createReadiness();
    let loaded: () => void = () => {};
    readiness.track('biometric engine', new Promise<void>((resolve) => (loaded = resolve)));
    const starting = createApp({ ...testDeps(db, site), readiness });
    const before = await starting.request('/health');
    await expectProblem(before, 503, 'not_ready');
    expect(before.headers.get('cache-control')).toBe('no-store');
    const ready = readiness.ready();
    loaded();
    await ready;
    expect((await starting.request('/health')).status).toBe(200);
  });

  it('is ready after a warm-up that failed (each engine call then fails into a portrayal error)', async () => {
    const readiness = createReadiness();
    readiness.track('biometric engine', Promise.reject(new Error('no models')));
    await readiness.ready();
    expect((await createApp({ ...testDeps(db, site), readiness }).request('/health')).status).toBe(200);
  });
});

describe('start-up with the reference engine', () => {
  it('answers /health 503 until the engine has warmed up, and logs the warm-up time', async () => {
    const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
    let warm: () => void = () => {};
    const engine = {
      ...basicEngine,
      name: 'slow',
      warmUp: () => new Promise<string>((resolve) => (warm = () => resolve('slow engine ready'))),
    };
    const server = await startServer(
      testServerOptions(site, {
        onboarding: { engine },
        logger: { log: (_level, msg, fields) => lines.push({ msg, fields }) } satisfies Logger,
      }),
    );
    try {
      const before = await fetch(`${server.url.replace('localhost', '127.0.0.1')}/health`);
      expect(before.status).toBe(503);
      expect(await before.json()).toMatchObject({ code: 'not_ready', loading: ['biometric engine'] });
      warm();
      await server.ready;
      expect((await fetch(`${server.url.replace('localhost', '127.0.0.1')}/health`)).status).toBe(200);
      expect(lines.find((line) => line.msg === 'slow engine ready')?.fields).toMatchObject({
        engine: 'slow',
        warmUpMs: expect.any(Number),
      });
    } finally {
      await server.close();
    }
  });
});

describe('tenancy', () => {
  it('rejects an API call without tenant-id', async () => {
    await expectProblem(await api('/api/internal/facilities'), 400, 'tenant_missing');
  });

  it('rejects an unknown tenant, including a folder without settings.json', async () => {
    await expectProblem(await api('/api/internal/facilities', 'acme'), 400, 'tenant_unknown');
    await expectProblem(await api('/api/internal/facilities', 'not-a-tenant'), 400, 'tenant_unknown');
    await expectProblem(await api('/api/internal/facilities', "demo' or '1'='1"), 400, 'tenant_unknown');
  });
});

describe('GET /api/internal/facilities', () => {
  type Facility = { facility_id: string; alias: string; timezone: string };
  let signedIn: App;
  beforeAll(() => {
    signedIn = createApp({ ...testDeps(db, site), auth: testAuth });
  });
  const facilities = (tenant: string, authorization = TEST_BEARER) =>
    signedIn.request('/api/internal/facilities', { headers: { 'tenant-id': tenant, authorization } });
  const list = async (tenant: string) => {
    const res = await facilities(tenant);
    expect(res.status).toBe(200);
    return (await res.json()) as Facility[];
  };

  it('lists the seeded facilities of each tenant with the spec fields only', async () => {
    const gambling = await list('gambling');
    expect(gambling.map((f) => [f.alias, f.timezone])).toEqual([
      ['Casino Gran Vía', 'Europe/Madrid'],
      ['Sala Bilbao', 'Europe/Madrid'],
      ['Sala Las Palmas', 'Atlantic/Canary'],
    ]);
    for (const f of gambling) expect(Object.keys(f).sort()).toEqual(['alias', 'facility_id', 'timezone']);
    const demo = await list('demo');
    expect(demo.map((f) => f.alias)).toEqual(['Demo HQ', 'Demo Lab', 'Demo Warehouse']);
  });

  it('needs a token of the tenant, like every other API call', async () => {
    await expectProblem(await facilities('demo', ''), 401, 'unauthorized');
    await expectProblem(await facilities('demo', 'Bearer forged'), 401, 'unauthorized');
    // Without a token verifier the app mounts no authenticated API at all.
    expect((await api('/api/internal/facilities', 'demo')).status).toBe(404);
  });

  it('is not cacheable', async () => {
    const res = await facilities('demo');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expectSecurityHeaders(res);
  });

  it('never leaks rows across tenants', async () => {
    await db.query(
      "insert into facilities (tenant, facility_id, alias, timezone) values ($1, 'shared-id', $2, 'UTC')",
      ['demo', 'Demo Only'],
    );
    const demo = await list('demo');
    const gambling = await list('gambling');
    expect(demo.map((f) => f.alias)).toContain('Demo Only');
    expect(gambling.map((f) => f.alias)).not.toContain('Demo Only');
    const demoIds = new Set(demo.map((f) => f.facility_id));
    expect(gambling.some((f) => demoIds.has(f.facility_id))).toBe(false);
    // Same id in another tenant is a different row, not a conflict.
    await db.query(
      "insert into facilities (tenant, facility_id, alias, timezone) values ('gambling', 'shared-id', 'G', 'UTC')",
    );
    expect((await list('demo')).find((f) => f.facility_id === 'shared-id')?.alias).toBe('Demo Only');
    expect((await list('gambling')).find((f) => f.facility_id === 'shared-id')?.alias).toBe('G');
  });
});

describe('unknown API paths', () => {
  it('answer 404 JSON, even for a browser asking for HTML', async () => {
    await expectProblem(await api('/api/nope', 'demo'), 404, 'not_found');
    const res = await api('/api/nope', 'demo', html);
    await expectProblem(res, 404);
    expectSecurityHeaders(res);
  });

  it('answer 404 JSON outside the API when HTML is not accepted', async () => {
    const res = await app.request('/nope.json', { headers: { Accept: 'application/json' } });
    await expectProblem(res, 404);
    expectSecurityHeaders(res);
  });

  it.each(['/auth/realms/demo/whatever', '/dev/mailbox', '/health/deep'])(
    'does not hand reserved path %s to the SPA',
    async (path) => {
      const res = await app.request(path, html);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('json');
    },
  );
});

describe('static files and the SPA', () => {
  it('serves tenant assets and browsers.json from public/ without caching', async () => {
    const settings = await app.request('/tenants/demo/settings.json');
    expect(settings.status).toBe(200);
    expect(settings.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(settings.headers.get('cache-control')).toBe('no-cache');
    expect(await settings.json()).toEqual({ tenant: 'demo' });
    expectSecurityHeaders(settings);

    const logo = await app.request('/tenants/gambling/logo.svg');
    expect(logo.headers.get('content-type')).toBe('image/svg+xml');
    const tos = await app.request('/tenants/gambling/tos-es.md');
    expect(tos.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await tos.text()).toBe('# Términos');

    const browsers = await app.request('/browsers.json');
    expect(browsers.status).toBe(200);
    expect(browsers.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves hashed assets as immutable and other dist files with revalidation', async () => {
    const js = await app.request('/assets/index-abc123.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // A script is no document: nosniff only (server/security/asset-headers.test.ts has every kind).
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    expect(js.headers.get('content-security-policy')).toBeNull();
    const css = await app.request('/assets/index-abc123.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const index = await app.request('/index.html');
    expect(index.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 304 to a matching If-None-Match and HEAD without a body', async () => {
    const first = await app.request('/assets/index-abc123.js');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await app.request('/assets/index-abc123.js', { headers: { 'If-None-Match': etag ?? '' } });
    expect(again.status).toBe(304);
    const head = await app.request('/assets/index-abc123.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('15');
    expect(await head.text()).toBe('');
  });

  it('answers 404 for missing tenant files and assets instead of the SPA', async () => {
    await expectProblem(await app.request('/tenants/demo/nope.json', html), 404);
    await expectProblem(await app.request('/assets/missing.js', html), 404);
  });

  it('falls back to index.html for history routes that accept HTML', async () => {
    for (const path of ['/', '/some/deep/route', '/visits/42?tab=history']) {
      const res = await app.request(path, html);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
      expectSecurityHeaders(res);
    }
  });

  it('serves index.html to curl and uptime probes (Accept: */* or none), but not for a missing file', async () => {
    for (const accept of ['*/*', '']) {
      for (const path of ['/', '/my-accreditations', '/finish-register/u1/q1']) {
        const res = await app.request(path, accept ? { headers: { Accept: accept } } : {});
        expect(res.status, `${path} ${accept}`).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(await res.text()).toContain('<div id="root">');
      }
    }
    await expectProblem(await app.request('/robots.txt', { headers: { Accept: '*/*' } }), 404);
    await expectProblem(await api('/api/nope', 'demo', { headers: { Accept: '*/*' } }), 404, 'not_found');
    const realm = await app.request('/auth/realms/demo/whatever', { headers: { Accept: '*/*' } });
    expect(realm.headers.get('content-type')).toContain('json');
  });

  it('serves the SPA for a route whose parameter holds an encoded slash, but no file under it', async () => {
    const res = await app.request(`/error/${encodeURIComponent('https://evil.example/x')}/forbidden`, html);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
    await expectProblem(await app.request('/tenants/a%2Fb/settings.json', html), 400);
    await expectProblem(await app.request('/assets/a%2Fb.js', html), 400);
  });

  it('answers 503 with a hint when the SPA is not built', async () => {
    const bare = createSiteFixture({ withIndex: false });
    try {
      const res = await createApp(testDeps(db, bare)).request('/some/deep/route', html);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toContain('npm run build');
      expectSecurityHeaders(res);
    } finally {
      bare.remove();
    }
  });

  it('serves nothing but the API when SERVE_SPA is off', async () => {
    const apiOnly = createApp(testDeps(db, site, { serveSpa: false }));
    await expectProblem(await apiOnly.request('/some/deep/route', html), 404);
    await expectProblem(await apiOnly.request('/tenants/demo/settings.json'), 404);
    expect((await apiOnly.request('/health')).status).toBe(200);
  });
});

describe('path traversal', () => {
  const attempts = [
    '/tenants/../../package.json',
    '/tenants/../secret.txt',
    '/tenants/%2e%2e/%2e%2e/secret.txt',
    '/tenants/%2E%2E/secret.txt',
    '/tenants/..%2f..%2fsecret.txt',
    '/tenants/..%2F..%2Fsecret.txt',
    '/tenants/demo/..%2f..%2f..%2fsecret.txt',
    '/tenants/..%5c..%5csecret.txt',
    '/tenants/%252e%252e/secret.txt',
    '/tenants/demo/settings.json%00.png',
    '/tenants/demo%00/settings.json',
    '/assets/..%2f..%2fsecret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/secret.txt',
    '/tenants/.%2e/.%2e/secret.txt',
  ];

  it.each(attempts)('%s serves nothing outside the roots', async (path) => {
    const res = await app.request(path, html);
    const body = await res.text();
    expect(body).not.toContain(SECRET);
    expect(body).not.toContain('"name": "identity-portal"');
    expect([200, 400, 404]).toContain(res.status);
    if (res.status === 200) expect(body).toContain('<div id="root">');
    expectSecurityHeaders(res);
  });

  it('refuses a symlink that points outside public/', async () => {
    symlinkSync(join(site.root, 'secret.txt'), join(site.publicDir, 'tenants', 'demo', 'link.txt'));
    const res = await app.request('/tenants/demo/link.txt');
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(SECRET);
  });

  it('hides dotfiles', async () => {
    const res = await app.request('/tenants/demo/.env');
    expect(res.status).toBe(404);
  });

  it("never serves the build's manifest (dist/.vite), which is for the server's eyes", async () => {
    mkdirSync(join(site.distDir, '.vite'), { recursive: true });
    writeFileSync(join(site.distDir, '.vite', 'manifest.json'), '{"src/main.tsx":{"file":"assets/x.js"}}');
    const res = await app.request('/.vite/manifest.json');
    expect(res.status).not.toBe(200);
    expect(await res.text()).not.toContain('src/main.tsx');
  });
});
