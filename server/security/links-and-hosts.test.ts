import { decodeJwt, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTenantKeys } from '../auth/keys';
import { API_RESOURCE, GRANT_ID_CLAIM } from '../auth/provider';
import { type RunningServer, type StartServerOptions, startServer } from '../main';
import { createKnownOrigins, defaultOrigins } from '../origins';
import { createSiteFixture, type SiteFixture, testServerOptions } from '../testing/fixtures';
import { send, signIn } from '../testing/oidc';

// An issuer, redirect URIs and the password-reset link in mail must never come from whatever Host header a request
// carries (the identity provider once made them so): it answers only at the known origins (PUBLIC_URL, or localhost
// and <tenant>.localhost on the port) and the API accepts only the issuers of those origins.

const DISCOVERY = '/.well-known/openid-configuration';

let site: SiteFixture;

beforeAll(() => {
  site = createSiteFixture();
});

afterAll(() => {
  site.remove();
});

function options(extra: StartServerOptions = {}): StartServerOptions {
  // The shipped tenants: their themes for the pages, their seeded accounts (with e-mail) for the resets.
  return testServerOptions({ distDir: site.distDir }, extra);
}

async function outboxLinks(server: RunningServer): Promise<string[]> {
  const { rows } = await server.db.query<{ link: string }>('select link from outbox order by link');
  return rows.map((row) => row.link);
}

describe('known origins', () => {
  it('are localhost and <tenant>.localhost on the port by default, each serving the tenant its host names', () => {
    expect(defaultOrigins(['demo', 'gambling'], 8080)).toEqual([
      'http://localhost:8080',
      'http://demo.localhost:8080',
      'http://gambling.localhost:8080',
    ]);
    const known = createKnownOrigins({ tenants: ['demo', 'gambling'], port: () => 8080 });
    expect(known.tenantOf('http://localhost:8080')).toBe('gambling');
    expect(known.tenantOf('http://demo.localhost:8080')).toBe('demo');
    expect(known.tenantOf('http://127.0.0.1:8080')).toBeUndefined();
    expect(known.tenantOf('http://localhost:8081')).toBeUndefined();
    expect(known.tenantOf('https://localhost:8080')).toBeUndefined();
  });

  it('come from PUBLIC_URL when it is set, and an origin of no shipped tenant is a start-up error', () => {
    const known = createKnownOrigins({
      publicUrls: ['https://app.example.com', 'https://demo.example.com'],
      tenants: ['demo', 'gambling'],
      port: () => 8080,
    });
    expect([...known.all()]).toEqual([
      ['https://app.example.com', 'gambling'],
      ['https://demo.example.com', 'demo'],
    ]);
    expect(known.tenantOf('http://localhost:8080')).toBeUndefined();
    expect(() =>
      createKnownOrigins({
        publicUrls: ['https://portal.example.com'],
        tenants: ['demo', 'gambling'],
        port: () => 8080,
      }),
    ).toThrow(/portal/);
  });
});

describe('the identity provider with the default origins', { timeout: 120_000 }, () => {
  let server: RunningServer;
  let demo: string;

  beforeAll(async () => {
    server = await startServer(options());
    demo = `demo.localhost:${server.port}`;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('mails no link for a reset posted with a made-up Host: 400, no mail', async () => {
    for (const host of ['attacker.example', `attacker.example:${server.port}`, 'demo.attacker.example']) {
      const res = await send(
        server.port,
        '/auth/realms/demo/reset?lang=en',
        { host },
        { login: 'usermanager' },
      );
      expect(res.status, host).toBe(400);
      expect(res.contentType).toBe('application/problem+json');
      expect(JSON.parse(res.body)).toMatchObject({ status: 400, code: 'unknown_host' });
      expect(res.body).not.toContain('attacker');
    }
    const links = await outboxLinks(server);
    expect(links.filter((link) => link.includes('attacker'))).toEqual([]);
  });

  it('mails the reset link on the known origin the reset was asked at', async () => {
    const res = await send(
      server.port,
      '/auth/realms/demo/reset?lang=en',
      { host: demo },
      { login: 'usermanager' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toContain(`href="http://${demo}/"`);
    const links = await outboxLinks(server);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(link).toMatch(
        new RegExp(`^http://${demo.replace(/\./g, '\\.')}/auth/realms/demo/reset/[\\w-]+\\?lang=en$`),
      );
    }
  });

  it('refuses discovery and the login pages for a Host that is not a known origin', async () => {
    for (const host of [
      'attacker.example',
      `127.0.0.1:${server.port}`,
      `demo.localhost:${server.port + 1}`,
    ]) {
      const discovery = await send(server.port, `/auth/realms/demo${DISCOVERY}`, { host });
      expect(discovery.status, host).toBe(400);
      expect(discovery.body).not.toContain('issuer');
      expect((await send(server.port, '/auth/realms/demo/reset', { host })).status, host).toBe(400);
    }
  });

  it('names each known origin its issuer', async () => {
    const ofDemo = await send(server.port, `/auth/realms/demo${DISCOVERY}`, { host: demo });
    expect(ofDemo.status).toBe(200);
    expect(JSON.parse(ofDemo.body)).toMatchObject({
      issuer: `http://${demo}/auth/realms/demo`,
      authorization_endpoint: `http://${demo}/auth/realms/demo/auth`,
    });
    const host = `localhost:${server.port}`;
    const ofGambling = await send(server.port, `/auth/realms/gambling${DISCOVERY}`, { host });
    expect(JSON.parse(ofGambling.body)).toMatchObject({ issuer: `http://${host}/auth/realms/gambling` });
    // Like Keycloak's host, a known origin answers for every realm.
    const demoAtLocalhost = await send(server.port, `/auth/realms/demo${DISCOVERY}`, { host });
    expect(JSON.parse(demoAtLocalhost.body)).toMatchObject({ issuer: `http://${host}/auth/realms/demo` });
  });

  it('refuses, at the API, a token whose issuer is not a known origin, even signed with the tenant key', async () => {
    const { jwks } = await loadTenantKeys(server.db, 'demo');
    const jwk = jwks.keys[0];
    if (!jwk) throw new Error('no signing key');
    const key = await importJWK(jwk, 'RS256');
    // A live grant of a real sign-in, so that only the issuer differs between the tokens below (the API also
    // refuses a token whose grant has ended).
    const real = await signIn(server.url, 'demo', 'accountmanager');
    const grantId = decodeJwt(real.access_token)[GRANT_ID_CLAIM];
    const token = (issuer: string) =>
      new SignJWT({ tenant: 'demo', roles: ['get_accounts_all'], enrolled: false, [GRANT_ID_CLAIM]: grantId })
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid ?? '' })
        .setIssuer(issuer)
        .setSubject('someone')
        .setAudience(API_RESOURCE)
        .setIssuedAt()
        .setExpirationTime('2m')
        .sign(key);
    const accounts = async (issuer: string) =>
      (
        await fetch(`${server.url}/api/public/accounts`, {
          headers: { 'tenant-id': 'demo', authorization: `Bearer ${await token(issuer)}` },
        })
      ).status;
    expect(await accounts(`http://${demo}/auth/realms/demo`)).toBe(200);
    expect(await accounts('http://attacker.example/auth/realms/demo')).toBe(401);
    expect(await accounts(`http://127.0.0.1:${server.port}/auth/realms/demo`)).toBe(401);
    expect(await accounts(`http://localhost:${server.port + 1}/auth/realms/demo`)).toBe(401);
    expect(await accounts(`https://localhost:${server.port}/auth/realms/demo`)).toBe(401);
  });
});

describe('the identity provider with PUBLIC_URL', { timeout: 120_000 }, () => {
  let server: RunningServer;
  const https = { 'x-forwarded-proto': 'https' };

  beforeAll(async () => {
    server = await startServer(
      options({ publicUrls: ['https://app.example.com', 'https://demo.example.com'], trustProxy: true }),
    );
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('mails the reset link on the PUBLIC_URL origin and names it the issuer', async () => {
    const res = await send(
      server.port,
      '/auth/realms/demo/reset?lang=en',
      { host: 'demo.example.com', ...https },
      { login: 'usermanager' },
    );
    expect(res.status).toBe(200);
    const links = await outboxLinks(server);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatch(/^https:\/\/demo\.example\.com\/auth\/realms\/demo\/reset\/[\w-]+\?lang=en$/);
    const discovery = await send(server.port, `/auth/realms/gambling${DISCOVERY}`, {
      host: 'app.example.com',
      ...https,
    });
    expect(JSON.parse(discovery.body)).toMatchObject({
      issuer: 'https://app.example.com/auth/realms/gambling',
    });
  });

  it('refuses the localhost defaults, and the right host over the wrong scheme', async () => {
    const refused: Record<string, string>[] = [
      { host: `localhost:${server.port}` },
      { host: `demo.localhost:${server.port}` },
      { host: 'demo.example.com' },
      { host: 'demo.example.com', 'x-forwarded-proto': 'http' },
    ];
    for (const headers of refused) {
      const res = await send(server.port, '/auth/realms/demo/reset?lang=en', headers, {
        login: 'usermanager',
      });
      expect(res.status, JSON.stringify(headers)).toBe(400);
    }
    expect(await outboxLinks(server)).toHaveLength(1);
  });
});
