// Transport and cross-origin headers, Secure cookies, the bearer scheme and the facilities list, on a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, type StartServerOptions, startServer } from '../main';
import { createSiteFixture, type SiteFixture, testServerOptions } from '../testing/fixtures';
import { authorizePath, send, signIn } from '../testing/oidc';

let site: SiteFixture;
beforeAll(() => {
  site = createSiteFixture();
});
afterAll(() => site.remove());

function options(extra: StartServerOptions = {}): StartServerOptions {
  return testServerOptions(site, extra);
}

const paths = ['/', '/health', '/auth/realms/gambling/.well-known/openid-configuration'];

describe('Strict-Transport-Security', { timeout: 60_000 }, () => {
  describe('behind a trusted proxy (TRUST_PROXY)', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer(options({ trustProxy: true }));
    }, 60_000);
    afterAll(() => server.close());

    it('is sent when the browser came over https', async () => {
      for (const path of paths) {
        const res = await fetch(`${server.url}${path}`, { headers: { 'x-forwarded-proto': 'https' } });
        expect(res.headers.get('strict-transport-security'), path).toBe('max-age=31536000');
      }
    });

    it('is not sent over plain http', async () => {
      for (const path of paths) {
        const res = await fetch(`${server.url}${path}`, { headers: { 'x-forwarded-proto': 'http' } });
        expect(res.headers.get('strict-transport-security'), path).toBeNull();
      }
    });
  });

  it('ignores a forged X-Forwarded-Proto when no proxy is trusted', async () => {
    const server = await startServer(options());
    try {
      const res = await fetch(`${server.url}/health`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(res.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await server.close();
    }
  });
});

describe('cross-origin calls to the identity provider', { timeout: 120_000 }, () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(options());
  }, 120_000);
  afterAll(() => server.close());

  const preflight = (origin: string) =>
    fetch(`${server.url}/auth/realms/gambling/token`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });

  it('a preflight of the token endpoint from another origin gets no CORS permission', async () => {
    for (const origin of ['https://evil.example', 'http://demo.localhost:1', 'null']) {
      const res = await preflight(origin);
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(res.headers.get('access-control-allow-methods'), origin).toBeNull();
    }
  });

  it('the portal’s own origin may still call it', async () => {
    const res = await preflight(server.url);
    expect(res.headers.get('access-control-allow-origin')).toBe(server.url);
  });

  it('a token request from another origin is refused without a CORS permission', async () => {
    const res = await fetch(`${server.url}/auth/realms/gambling/token`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'portal' }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('identity provider cookies', { timeout: 120_000 }, () => {
  // The portal as a tenant deploys it: one public origin, reached over https or http through a proxy.
  const origins = ['https://app.example.com', 'http://app.example.com'];
  const authorize = (server: RunningServer, origin: string, headers: Record<string, string>) =>
    send(server.port, authorizePath(origin), { host: 'app.example.com', ...headers });
  const cookiesOf = (answer: { setCookies: string[] }) => {
    expect(answer.setCookies.length).toBeGreaterThan(0);
    return answer.setCookies;
  };

  it('are Secure when the browser came over https through a trusted proxy, and not over http', async () => {
    const server = await startServer(options({ trustProxy: true, publicUrls: origins }));
    try {
      const https = await authorize(server, 'https://app.example.com', { 'x-forwarded-proto': 'https' });
      expect(https.status).toBe(303);
      for (const cookie of cookiesOf(https)) expect(cookie).toMatch(/;\s*secure/i);
      const http = await authorize(server, 'http://app.example.com', { 'x-forwarded-proto': 'http' });
      expect(http.status).toBe(303);
      for (const cookie of cookiesOf(http)) expect(cookie).not.toMatch(/;\s*secure/i);
    } finally {
      await server.close();
    }
  });

  it('ignore a forged X-Forwarded-Proto when no proxy is trusted', async () => {
    const server = await startServer(options({ publicUrls: origins }));
    try {
      const res = await authorize(server, 'http://app.example.com', { 'x-forwarded-proto': 'https' });
      expect(res.status).toBe(303);
      for (const cookie of cookiesOf(res)) expect(cookie).not.toMatch(/;\s*secure/i);
    } finally {
      await server.close();
    }
  });
});

describe('bearer tokens on the API', { timeout: 120_000 }, () => {
  let server: RunningServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer(options());
    token = (await signIn(server.url, 'gambling', 'user')).access_token;
  }, 120_000);
  afterAll(() => server.close());

  const facilities = (authorization?: string) =>
    fetch(`${server.url}/api/internal/facilities`, {
      headers: { 'tenant-id': 'gambling', ...(authorization ? { authorization } : {}) },
    });

  it('the scheme is case-insensitive (RFC 6750)', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      expect((await facilities(`${scheme} ${token}`)).status, scheme).toBe(200);
    }
    expect((await facilities(`Basic ${token}`)).status).toBe(401);
  });

  it('GET /api/internal/facilities needs a token of the tenant', async () => {
    const anonymous = await facilities();
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain('timezone');
    const res = await facilities(`Bearer ${token}`);
    expect(((await res.json()) as unknown[]).length).toBe(3);
    const otherTenant = await fetch(`${server.url}/api/internal/facilities`, {
      headers: { 'tenant-id': 'demo', authorization: `Bearer ${token}` },
    });
    expect(otherTenant.status).toBe(403);
  });
});
