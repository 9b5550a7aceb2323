import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './db/pglite';
import { type RunningServer, type StartServerOptions, startServer } from './main';
import { SECURITY_HEADERS } from './security-headers';
import { createSiteFixture, SECRET, type SiteFixture, testServerOptions } from './testing/fixtures';
import { signIn } from './testing/oidc';

let site: SiteFixture;

beforeAll(() => {
  site = createSiteFixture();
});

afterAll(() => {
  site.remove();
});

function options(extra: StartServerOptions = {}): StartServerOptions {
  return testServerOptions(site, extra);
}

/** Sends the path byte for byte (fetch would normalise '..' away before it leaves the client). */
function rawGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startServer', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer(options());
  });

  afterAll(async () => {
    await server.close();
  });

  it('listens on an ephemeral port and reports its URL', async () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://localhost:${server.port}`);
    const res = await fetch(`http://127.0.0.1:${server.port}/health`);
    expect(await res.json()).toMatchObject({ status: 'ok', db: 'ok', version: '0.13.0' });
  });

  it('serves the API for a tenant over HTTP', async () => {
    const { access_token } = await signIn(server.url, 'gambling', 'user');
    const res = await fetch(`http://127.0.0.1:${server.port}/api/internal/facilities`, {
      headers: { 'tenant-id': 'gambling', authorization: `Bearer ${access_token}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(3);
  });

  it.each([
    '/tenants/../../package.json',
    '/tenants/../../secret.txt',
    '/tenants/demo/../../../secret.txt',
    '/tenants/%2e%2e/%2e%2e/secret.txt',
    '/tenants/..%2f..%2fsecret.txt',
    '/tenants/..%2f..%2f..%2fpackage.json',
    '/tenants/..\\..\\secret.txt',
    '/tenants/demo/settings.json%00',
    '/assets/../../secret.txt',
  ])('raw path %s does not leave the roots', async (path) => {
    const res = await rawGet(server.port, path, { Accept: 'text/html' });
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain('"name": "identity-portal"');
    expect([200, 400, 404]).toContain(res.status);
    if (res.status === 200) expect(res.body).toContain('<div id="root">');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      expect(res.headers[name.toLowerCase()], name).toBe(value);
    }
  });

  it('gives raw prefix handlers the first chance, with the security headers already set', async () => {
    const seen: { url?: string; originalUrl?: string } = {};
    const unmount = server.rawHandlers.mount(
      '/auth/realms/demo',
      (req, res) => {
        seen.url = req.url;
        seen.originalUrl = (req as { originalUrl?: string }).originalUrl;
        res.setHeader('Content-Type', 'application/json');
        res.end('{"issuer":"demo"}');
      },
      { stripPrefix: true },
    );
    try {
      const res = await fetch(
        `http://127.0.0.1:${server.port}/auth/realms/demo/.well-known/openid-configuration?x=1`,
      );
      expect(await res.json()).toEqual({ issuer: 'demo' });
      expect(seen).toEqual({
        url: '/.well-known/openid-configuration?x=1',
        originalUrl: '/auth/realms/demo/.well-known/openid-configuration?x=1',
      });
      expect(res.headers.get('content-security-policy')).toBe(SECURITY_HEADERS['Content-Security-Policy']);

      // A sibling prefix is not the mount's: it falls through to Hono.
      const other = await fetch(`http://127.0.0.1:${server.port}/auth/realms/demox/token`);
      expect(other.status).toBe(404);
      expect(other.headers.get('content-type')).toBe('application/problem+json');
    } finally {
      unmount();
    }
    // At localhost, the known origin of the default tenant: the identity provider answers only at those.
    expect((await fetch(`http://localhost:${server.port}/auth/realms/gambling/x`)).status).toBe(404);
  });

  it('turns a failing raw handler into a 500 problem', async () => {
    const unmount = server.rawHandlers.mount('/dev/boom', async () => {
      throw new Error('boom');
    });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/dev/boom`);
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ status: 500, title: 'Internal Server Error' });
    } finally {
      unmount();
    }
  });

  it('does not seed in production', async () => {
    const prod = await startServer(options({ nodeEnv: 'production' }));
    try {
      const { rows } = await prod.db.query('select count(*)::int as n from facilities');
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await prod.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight write finish and answer, then closes the database with the row on disk', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-data-'));
    try {
      let started!: () => void;
      const handlerStarted = new Promise<void>((resolve) => (started = resolve));
      const server = await startServer(
        options({
          dataDir,
          configureApp: (app, deps) => {
            app.post('/api/test/slow-write', async (c) => {
              started();
              await deps.db.transaction(async (tx) => {
                await tx.query('select pg_sleep(0.5)');
                await tx.query(
                  "insert into facilities (tenant, alias, timezone) values ($1, 'Written during shutdown', 'UTC')",
                  [c.get('tenant')],
                );
              });
              return c.json({ written: true });
            });
          },
        }),
      );

      const response = fetch(`http://127.0.0.1:${server.port}/api/test/slow-write`, {
        method: 'POST',
        headers: { 'tenant-id': 'demo' },
      });
      await handlerStarted;
      const closed = server.close();

      // New connections are refused as soon as closing starts.
      await expect(fetch(`http://127.0.0.1:${server.port}/health`)).rejects.toThrow();

      const res = await response;
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ written: true });
      await closed;

      const reopened = await openPglite(dataDir);
      try {
        const { rows } = await reopened.query<{ alias: string }>(
          "select alias from facilities where tenant = 'demo' and alias = 'Written during shutdown'",
        );
        expect(rows).toHaveLength(1);
      } finally {
        await reopened.close();
      }

      // A restart on the same folder is not a new database: nothing is seeded again.
      const restarted = await startServer(options({ dataDir, nodeEnv: 'development' }));
      try {
        // The seeded visits at Demo Lab go first (visits refer to their facility).
        await restarted.db.query(
          "delete from visits where tenant = 'demo' and facility_id = (select facility_id from facilities where tenant = 'demo' and alias = 'Demo Lab')",
        );
        await restarted.db.query("delete from facilities where tenant = 'demo' and alias = 'Demo Lab'");
        await restarted.close();
        const again = await startServer(options({ dataDir, nodeEnv: 'development' }));
        const { rows } = await again.db.query<{ alias: string }>(
          "select alias from facilities where tenant = 'demo' order by alias",
        );
        await again.close();
        expect(rows.map((r) => r.alias)).toEqual(['Demo HQ', 'Demo Warehouse', 'Written during shutdown']);
      } finally {
        await restarted.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('cuts requests that outlive the shutdown timeout and still closes', async () => {
    const server = await startServer(
      options({
        shutdownTimeoutMs: 200,
        configureApp: (app) => {
          app.get('/api/test/hang', () => new Promise<Response>(() => {}));
        },
      }),
    );
    const hanging = fetch(`http://127.0.0.1:${server.port}/api/test/hang`, {
      headers: { 'tenant-id': 'demo' },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const startedAt = Date.now();
    await server.close();
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    await expect(hanging).rejects.toThrow();
    await expect(server.db.query('select 1')).rejects.toThrow(/closed/);
  });

  it('closes idle keep-alive connections promptly', async () => {
    const server = await startServer(options());
    await (await fetch(`http://127.0.0.1:${server.port}/health`)).text();
    const startedAt = Date.now();
    await server.close();
    expect(Date.now() - startedAt).toBeLessThan(2_000);
  });
});
