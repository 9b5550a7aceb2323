import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../context';
import { HttpProblem, problemResponse } from '../problem';
import { compressResponses } from './compress';

const rows = Array.from({ length: 60 }, (_, i) => ({
  id: `user-${i}`,
  name: `Persona ${i}`,
  tenant: 'demo',
}));

function appUnderTest() {
  const app = new Hono<AppEnv>();
  app.use(compressResponses());
  app.get('/list', (c) => c.json(rows));
  app.get('/small', (c) => c.json({ ok: true }));
  app.get(
    '/image',
    () => new Response(new Uint8Array(4096).fill(7), { headers: { 'Content-Type': 'image/png' } }),
  );
  app.get(
    '/encoded',
    () =>
      new Response('x'.repeat(4096), {
        headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'identity' },
      }),
  );
  app.get('/no-transform', (c) => {
    c.header('Cache-Control', 'no-store, no-transform');
    return c.json(rows);
  });
  app.get('/fails', () => {
    throw new HttpProblem(422, `Bad: ${'detail '.repeat(300)}`, 'wrong_format');
  });
  app.onError((error) => problemResponse((error as HttpProblem).problem));
  return app;
}

const ask = (path: string, acceptEncoding?: string, method = 'GET') =>
  appUnderTest().request(path, {
    method,
    headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {},
  });

describe('compressResponses', () => {
  it('sends a JSON list over 1 KB in Brotli, gzip or plain, by what the client accepts', async () => {
    const json = JSON.stringify(rows);
    const br = await ask('/list', 'gzip, deflate, br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(br.headers.get('content-type')).toMatch(/^application\/json/);
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(Number(br.headers.get('content-length'))).toBe(brBody.length);
    expect(brBody.length).toBeLessThan(json.length / 4);
    expect(brotliDecompressSync(brBody).toString()).toBe(json);

    const gz = await ask('/list', 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(json);

    const plain = await ask('/list');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(await plain.text()).toBe(json);
  });

  it('compresses problems as well', async () => {
    const res = await ask('/fails', 'br');
    expect(res.status).toBe(422);
    expect(res.headers.get('content-encoding')).toBe('br');
    const problem = JSON.parse(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString());
    expect(problem.code).toBe('wrong_format');
  });

  it('leaves small bodies, images, encoded bodies, no-transform and HEAD alone', async () => {
    const small = await ask('/small', 'br');
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(small.headers.get('vary')).toBeNull();
    expect(await small.json()).toEqual({ ok: true });

    const image = await ask('/image', 'br, gzip');
    expect(image.headers.get('content-encoding')).toBeNull();
    expect((await image.arrayBuffer()).byteLength).toBe(4096);

    const encoded = await ask('/encoded', 'br');
    expect(encoded.headers.get('content-encoding')).toBe('identity');
    expect((await encoded.text()).length).toBe(4096);

    const noTransform = await ask('/no-transform', 'br');
    expect(noTransform.headers.get('content-encoding')).toBeNull();

    const head = await ask('/list', 'br', 'HEAD');
    expect(head.headers.get('content-encoding')).toBeNull();
  });
});
