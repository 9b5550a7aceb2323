import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chooseCoding,
  compressDynamic,
  isCompressible,
  parseAcceptEncoding,
  varyOnAcceptEncoding,
} from './compression';

describe('chooseCoding (Accept-Encoding, RFC 9110 §12.5.3)', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['deflate', 'identity'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['*;q=0', 'identity'],
    ['gzip;q=0.5', 'gzip'],
    ['gzip;q=0.5, identity', 'identity'],
    ['gzip;q=0.5, identity;q=0.1', 'gzip'],
    ['identity', 'identity'],
    ['br;q=1.5, gzip', 'gzip'],
    ['br;q=abc, gzip;q=0.2, identity;q=0', 'gzip'],
    ['br ; q=0.9 , gzip ; q=0.9', 'br'],
  ] as const)('%j → %s', (header, expected) => {
    expect(chooseCoding(header)).toBe(expected);
  });

  it('chooses only among the codings available for the body', () => {
    expect(chooseCoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(chooseCoding('br', ['gzip'])).toBe('identity');
    expect(chooseCoding('br;q=0, identity;q=0', [])).toBe('identity');
  });

  it('keeps the first mention of a coding', () => {
    expect(parseAcceptEncoding('br;q=0, br')).toEqual(new Map([['br', 0]]));
  });
});

describe('isCompressible', () => {
  it.each([
    'text/html; charset=utf-8',
    'application/json',
    'application/problem+json',
    'text/javascript; charset=utf-8',
    'image/svg+xml',
    'application/manifest+json; charset=utf-8',
  ])('compresses %s', (type) => {
    expect(isCompressible(type)).toBe(true);
  });

  it.each(['image/png', 'image/jpeg', 'application/pdf', 'application/zip', 'font/woff2', '', null])(
    'leaves %s alone',
    (type) => {
      expect(isCompressible(type)).toBe(false);
    },
  );
});

describe('varyOnAcceptEncoding', () => {
  it('adds Accept-Encoding once', () => {
    expect(varyOnAcceptEncoding(null)).toBe('Accept-Encoding');
    expect(varyOnAcceptEncoding('Origin')).toBe('Origin, Accept-Encoding');
    expect(varyOnAcceptEncoding('origin, accept-encoding')).toBe('origin, accept-encoding');
    expect(varyOnAcceptEncoding('*')).toBe('*');
  });
});

describe('compressDynamic (through a socket)', () => {
  const rows = Array.from({ length: 60 }, (_, i) => ({
    id: `user-${i}`,
    name: `Persona ${i}`,
    tenant: 'demo',
  }));
  const json = JSON.stringify(rows);
  const page = `<!doctype html><html><body>${'<p>Iniciar sesión</p>'.repeat(100)}</body></html>`;
  let server: Server;
  let port = 0;

  beforeAll(async () => {
    const app = new Hono();
    app.get('/list', (c) => c.json(rows));
    app.get('/small', (c) => c.json({ ok: true }));
    app.get(
      '/image',
      () => new Response(new Uint8Array(4096).fill(7), { headers: { 'Content-Type': 'image/png' } }),
    );
    app.get('/no-transform', (c) => {
      c.header('Cache-Control', 'no-store, no-transform');
      return c.json(rows);
    });
    app.get('/fails', (c) => c.json({ code: 'wrong_format', detail: 'detail '.repeat(300) }, 422));
    app.get('/stream', () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(json.slice(0, 1000)));
          controller.enqueue(new TextEncoder().encode(json.slice(1000)));
          controller.close();
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'application/json' } });
    });
    const hono = getRequestListener(app.fetch);
    server = createServer((req, res) => {
      compressDynamic(req, res);
      // What the identity provider and the login pages do: headers one by one, then the whole body.
      if (req.url === '/page') {
        res.statusCode = 200;
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.setHeader('ETag', '"page-1"');
        res.end(page);
        return;
      }
      if (req.url === '/encoded') {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'identity' });
        res.end('x'.repeat(4096));
        return;
      }
      void hono(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  function get(path: string, acceptEncoding?: string, method = 'GET') {
    return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const headers = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
      const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('sends a JSON answer over 1 KB in Brotli, gzip or plain, by what the client accepts', async () => {
    const br = await get('/list', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(json.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(json);

    const gz = await get('/list', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(json);

    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await get('/list', accept);
      expect(plain.headers['content-encoding'], accept).toBeUndefined();
      expect(Number(plain.headers['content-length'])).toBe(json.length);
      expect(plain.body.toString()).toBe(json);
    }
  });

  it('compresses error answers and pages sent with setHeader and end, weakening a strong ETag', async () => {
    const failed = await get('/fails', 'br');
    expect(failed.status).toBe(422);
    expect(failed.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(failed.body).toString()).code).toBe('wrong_format');

    const html = await get('/page', 'gzip, br');
    expect(html.headers['content-encoding']).toBe('br');
    expect(html.headers.etag).toBe('W/"page-1"');
    expect(brotliDecompressSync(html.body).toString()).toBe(page);
  });

  it('leaves small bodies, images, encoded bodies, streams, no-transform and HEAD alone', async () => {
    const small = await get('/small', 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toEqual({ ok: true });

    const image = await get('/image', 'br, gzip');
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.body.length).toBe(4096);

    const encoded = await get('/encoded', 'br');
    expect(encoded.headers['content-encoding']).toBe('identity');
    expect(encoded.body.length).toBe(4096);

    const stream = await get('/stream', 'br');
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.body.toString()).toBe(json);

    const noTransform = await get('/no-transform', 'br');
    expect(noTransform.headers['content-encoding']).toBeUndefined();

    const head = await get('/list', 'br', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
  });
});
