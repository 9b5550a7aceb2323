import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from './app';
import type { Db } from './db/db';
import { FAVICON_CACHE } from './favicon';
import { createTestDb, testDeps } from './testing/fixtures';

// The shipped tenants (public/): gambling has no brand colour of its own, demo's is #0F7B5F.
const PUBLIC_DIR = 'public';
let db: Db;
let app: App;

beforeAll(async () => {
  db = await createTestDb();
  app = createApp(testDeps(db, { root: '', distDir: 'dist-none', publicDir: PUBLIC_DIR, remove() {} }));
});

afterAll(async () => {
  await db.close();
});

const get = (path: string, host: string, headers: Record<string, string> = {}, method = 'GET') =>
  app.request(`http://${host}${path}`, { method, headers: { host, ...headers } });

describe('favicon', () => {
  it('serves /favicon.ico as an ICO of 16 and 32 px PNGs, cached for a day', async () => {
    const res = await get('/favicon.ico', 'localhost:8080');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    expect(res.headers.get('cache-control')).toBe(FAVICON_CACHE);
    const ico = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(ico.length);
    expect(ico.readUInt16LE(2)).toBe(1);
    expect(ico.readUInt16LE(4)).toBe(2);
    const images = [0, 1].map((i) => ({
      size: ico.readUInt8(6 + 16 * i),
      length: ico.readUInt32LE(6 + 16 * i + 8),
      offset: ico.readUInt32LE(6 + 16 * i + 12),
    }));
    expect(images.map((image) => image.size)).toEqual([16, 32]);
    for (const image of images) {
      const png = ico.subarray(image.offset, image.offset + image.length);
      expect(png.subarray(1, 4).toString()).toBe('PNG');
    }
    const last = images[1];
    expect((last?.offset ?? 0) + (last?.length ?? 0)).toBe(ico.length);
  });

  it('draws the tenant of the host in its brand colour', async () => {
    const demo = await (await get('/favicon.svg', 'demo.localhost:8080')).text();
    expect(demo).toContain('fill="#0F7B5F"');
    const fallback = await get('/favicon.svg', 'unknown.localhost:8080');
    expect(fallback.status).toBe(200);
    expect(await fallback.text()).toContain('fill="#0D55FF"');
    const demoIco = Buffer.from(await (await get('/favicon.ico', 'demo.localhost:8080')).arrayBuffer());
    const defaultIco = Buffer.from(await (await get('/favicon.ico', '127.0.0.1:8080')).arrayBuffer());
    expect(demoIco.equals(defaultIco)).toBe(false);
  });

  it('answers 304 to its ETag and HEAD without a body', async () => {
    const first = await get('/favicon.ico', 'demo.localhost:8080');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get('/favicon.ico', 'demo.localhost:8080', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe(FAVICON_CACHE);
    const head = await get('/favicon.svg', 'demo.localhost:8080', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(100);
    expect(await head.text()).toBe('');
  });
});
