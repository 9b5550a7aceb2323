// Which security headers each kind of response carries, on a real server (the raw node listener and Hono both set
// them). Documents, workers, API answers and misses get the full set; a found hashed script or stylesheet gets
// nosniff only, keeping its caching, Vary and ETag.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../main';
import {
  isSubresourceAsset,
  SECURITY_HEADERS,
  SUBRESOURCE_HEADERS,
  securityHeadersFor,
} from '../security-headers';
import { createSiteFixture, type SiteFixture, testServerOptions } from '../testing/fixtures';

const DOCUMENT_ONLY = Object.keys(SECURITY_HEADERS).filter((name) => !(name in SUBRESOURCE_HEADERS));

describe('isSubresourceAsset', () => {
  it.each(['/assets/index-DjXORJCX.js', '/assets/raise-effbee0c.esm-Bv3z_wvy.js', '/assets/index-B1x2.css'])(
    '%s is a subresource',
    (path) => {
      expect(isSubresourceAsset(path)).toBe(true);
    },
  );

  it.each([
    '/',
    '/index.html',
    '/assets/frame-score.worker-CDSyxCd4.js',
    '/assets/prepare-image.worker-Bsr2zwkQ.js',
    '/assets/logo-abc123.svg',
    '/assets/zxing_reader-abc.wasm',
    '/tenants/demo/settings.json',
    '/api/me',
    '/assets/sub/dir-abc.js',
    '/scripts/app.js',
  ])('%s is not', (path) => {
    expect(isSubresourceAsset(path)).toBe(false);
  });

  it('keeps nosniff on subresources and drops the document-only headers', () => {
    expect(securityHeadersFor(true)).toEqual({ 'X-Content-Type-Options': 'nosniff' });
    expect(DOCUMENT_ONLY).toEqual(
      expect.arrayContaining([
        'Content-Security-Policy',
        'Permissions-Policy',
        'Referrer-Policy',
        'Cross-Origin-Opener-Policy',
      ]),
    );
  });
});

describe('headers per kind of response', { timeout: 60_000 }, () => {
  let site: SiteFixture;
  let server: RunningServer;
  const script = 'export const x = 1;\n'.repeat(200);

  beforeAll(async () => {
    site = createSiteFixture();
    writeFileSync(join(site.distDir, 'assets', 'app-abc123.js'), script);
    writeFileSync(join(site.distDir, 'assets', 'app-abc123.css'), 'body{color:red}\n'.repeat(200));
    writeFileSync(join(site.distDir, 'assets', 'frame-score.worker-abc123.js'), script);
    writeFileSync(
      join(site.distDir, 'assets', 'logo-abc123.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
    );
    server = await startServer(testServerOptions(site));
  }, 60_000);
  afterAll(async () => {
    await server.close();
    site.remove();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { headers: { 'Accept-Encoding': 'br, gzip', ...headers } });

  function expectFullSet(res: Response, what: string): void {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      expect(res.headers.get(name), `${what}: ${name}`).toBe(value);
    }
  }

  function expectSubresourceSet(res: Response, what: string): void {
    expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
    for (const name of DOCUMENT_ONLY) expect(res.headers.get(name), `${what}: ${name}`).toBeNull();
  }

  it('a hashed script or stylesheet: nosniff, immutable caching, Vary and ETag, no document headers', async () => {
    for (const path of ['/assets/app-abc123.js', '/assets/app-abc123.css']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expectSubresourceSet(res, path);
      expect(res.headers.get('cache-control'), path).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('vary'), path).toMatch(/accept-encoding/i);
      const etag = res.headers.get('etag');
      expect(etag, path).toBeTruthy();
      await res.arrayBuffer();
      const again = await get(path, { 'If-None-Match': etag ?? '' });
      expect(again.status, path).toBe(304);
      expectSubresourceSet(again, `${path} (304)`);
    }
  });

  it('a worker script keeps the full set: its CSP governs the worker', async () => {
    const res = await get('/assets/frame-score.worker-abc123.js');
    expect(res.status).toBe(200);
    expectFullSet(res, 'worker');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('documents, images, API answers and misses keep the full set', async () => {
    const cases: [string, Record<string, string>, number][] = [
      ['/', { Accept: 'text/html' }, 200],
      ['/welcome', { Accept: 'text/html' }, 200],
      ['/assets/logo-abc123.svg', {}, 200],
      ['/health', {}, 200],
      ['/assets/missing-abc123.js', {}, 404],
      ['/api/internal/facilities', {}, 400],
    ];
    for (const [path, headers, status] of cases) {
      const res = await get(path, headers);
      expect(res.status, path).toBe(status);
      expectFullSet(res, path);
      await res.arrayBuffer();
    }
  });
});
