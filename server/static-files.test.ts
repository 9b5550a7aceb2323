import { randomBytes } from 'node:crypto';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressFile } from '../scripts/vite-precompress';
import { type App, createApp } from './app';
import type { Db } from './db/db';
import { decodePath } from './static-files';
import { createSiteFixture, createTestDb, type SiteFixture, testDeps } from './testing/fixtures';

describe('decodePath', () => {
  it('decodes ordinary segments', () => {
    expect(decodePath('/tenants/demo/settings.json')).toEqual(['tenants', 'demo', 'settings.json']);
    expect(decodePath('/tenants/demo/T%C3%A9rminos.md')).toEqual(['tenants', 'demo', 'Términos.md']);
    expect(decodePath('/')).toEqual(['']);
  });

  it.each([
    '/tenants/../x',
    '/tenants/./x',
    '/tenants/%2e%2e/x',
    '/tenants/..%2fx',
    '/tenants/a%2Fb',
    '/tenants/a%5cb',
    '/tenants/a\\b',
    '/tenants/a%00b',
    '/tenants/a%0ab',
    '/tenants/%E0%A4%A',
  ])('refuses %s', (path) => {
    expect(decodePath(path)).toBeUndefined();
  });
});

describe('compressed delivery of static files', () => {
  const script = `export function hello(name){return "hello, "+name}\n`.repeat(100);
  const messages = JSON.stringify(
    Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`screen.key${i}`, `Texto del mensaje ${i}`])),
  );
  let db: Db;
  let site: SiteFixture;
  let app: App;

  beforeAll(async () => {
    db = await createTestDb();
    site = createSiteFixture();
    writeFileSync(join(site.distDir, 'assets', 'app-abc123.js'), script);
    await precompressFile(join(site.distDir, 'assets', 'app-abc123.js'));
    // A copy older than its file (left by an earlier build) must never be sent.
    writeFileSync(join(site.distDir, 'assets', 'stale-abc123.js'), script);
    writeFileSync(join(site.distDir, 'assets', 'stale-abc123.js.br'), 'not the file');
    utimesSync(join(site.distDir, 'assets', 'stale-abc123.js.br'), 1, 1);
    writeFileSync(join(site.distDir, 'assets', 'photo-abc123.png'), randomBytes(4096));
    writeFileSync(join(site.publicDir, 'tenants', 'demo', 'messages.json'), messages);
    app = createApp(testDeps(db, site));
  });

  afterAll(async () => {
    await db.close();
    site.remove();
  });

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    app.request(path, { method, headers });
  const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

  it('sends the build’s Brotli copy to a browser that accepts it, with the original’s type', async () => {
    const res = await get('/assets/app-abc123.js', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = await bytes(res);
    expect(Number(res.headers.get('content-length'))).toBe(body.length);
    expect(body.length).toBeLessThan(script.length / 5);
    expect(brotliDecompressSync(body).toString()).toBe(script);
  });

  it('sends gzip when Brotli is refused or rated lower, and the file itself when nothing is accepted', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip', 'br;q=0.5, gzip;q=0.9', 'x-gzip']) {
      const res = await get('/assets/app-abc123.js', { 'Accept-Encoding': accept });
      expect(res.headers.get('content-encoding'), accept).toBe('gzip');
      expect(gunzipSync(await bytes(res)).toString()).toBe(script);
    }
    for (const accept of ['', 'identity', 'deflate', '*;q=0', 'gzip;q=0, br;q=0']) {
      const res = await get('/assets/app-abc123.js', accept ? { 'Accept-Encoding': accept } : {});
      expect(res.headers.get('content-encoding'), accept).toBeNull();
      expect(res.headers.get('vary'), accept).toBe('Accept-Encoding');
      expect(res.headers.get('content-length')).toBe(String(script.length));
      expect(await res.text()).toBe(script);
    }
  });

  it('gives each coding its own ETag, and answers 304 and HEAD for the coding the client gets', async () => {
    const tags = new Set<string>();
    for (const accept of ['br', 'gzip', 'identity']) {
      const first = await get('/assets/app-abc123.js', { 'Accept-Encoding': accept });
      const etag = first.headers.get('etag') ?? '';
      tags.add(etag);
      const again = await get('/assets/app-abc123.js', { 'Accept-Encoding': accept, 'If-None-Match': etag });
      expect(again.status, accept).toBe(304);
      expect(again.headers.get('vary')).toBe('Accept-Encoding');
      expect(await again.text()).toBe('');
      const head = await get('/assets/app-abc123.js', { 'Accept-Encoding': accept }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(first.headers.get('content-length'));
      expect(head.headers.get('content-encoding')).toBe(first.headers.get('content-encoding'));
      expect(await head.text()).toBe('');
    }
    expect(tags.size).toBe(3);
    const brTag = (await get('/assets/app-abc123.js', { 'Accept-Encoding': 'br' })).headers.get('etag') ?? '';
    const other = await get('/assets/app-abc123.js', { 'Accept-Encoding': 'gzip', 'If-None-Match': brTag });
    expect(other.status).toBe(200);
  });

  it('never sends a copy older than its file', async () => {
    const res = await get('/assets/stale-abc123.js', { 'Accept-Encoding': 'br' });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(await bytes(res)).toString()).toBe(script);
  });

  it('compresses tenant files of public/ on the fly and keeps them uncached', async () => {
    const res = await get('/tenants/demo/messages.json', { 'Accept-Encoding': 'br, gzip' });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(brotliDecompressSync(await bytes(res)).toString()).toBe(messages);
    // An edit is served at once: the copy follows the file.
    const edited = messages.replace('Texto', 'Testua');
    writeFileSync(join(site.publicDir, 'tenants', 'demo', 'messages.json'), edited);
    utimesSync(
      join(site.publicDir, 'tenants', 'demo', 'messages.json'),
      new Date(),
      new Date(Date.now() + 5000),
    );
    const after = await get('/tenants/demo/messages.json', { 'Accept-Encoding': 'gzip' });
    expect(gunzipSync(await bytes(after)).toString()).toBe(edited);
  });

  it('leaves images and files under 1 KB as they are', async () => {
    const png = await get('/assets/photo-abc123.png', { 'Accept-Encoding': 'br, gzip' });
    expect(png.headers.get('content-encoding')).toBeNull();
    expect(png.headers.get('vary')).toBeNull();
    expect((await bytes(png)).length).toBe(4096);
    const small = await get('/tenants/demo/settings.json', { 'Accept-Encoding': 'br, gzip' });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.json()).toEqual({ tenant: 'demo' });
  });

  it('sends the build’s copy of a file under 1 KB too: it costs nothing to send', async () => {
    const tiny = join(site.distDir, 'assets', 'tiny-abc123.js');
    writeFileSync(tiny, 'export const greeting = "hello, hello, hello, hello, hello";\n'.repeat(5));
    await precompressFile(tiny);
    const res = await get('/assets/tiny-abc123.js', { 'Accept-Encoding': 'br, gzip' });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(await bytes(res)).toString()).toContain('greeting');
  });
});
