// Issue #9 row 10: transport and cross-origin headers, on a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, type StartServerOptions, startServer } from '../main';
import { createSiteFixture, type SiteFixture } from '../testing/fixtures';

let site: SiteFixture;
beforeAll(() => {
  site = createSiteFixture();
});
afterAll(() => site.remove());

function options(extra: StartServerOptions = {}): StartServerOptions {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: 'memory://',
    nodeEnv: 'test',
    logLevel: 'silent',
    publicDir: site.publicDir,
    distDir: site.distDir,
    ...extra,
  };
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
