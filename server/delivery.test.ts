// Compressed delivery through a real socket: the identity provider's pages, the API's JSON, and keep-alive.
import { Agent, request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { KEEP_ALIVE_TIMEOUT_MS } from './main';
import { Browser, openLogin, signIn } from './testing/oidc';
import { startedServerForFile } from './testing/signed-in-app';

const started = startedServerForFile();

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  reusedSocket: boolean;
}

/** One request with exactly these headers (fetch would add and undo its own Accept-Encoding). */
function get(path: string, headers: Record<string, string>, agent?: Agent): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: started.server.port,
        path,
        headers: { host: `localhost:${started.server.port}`, ...headers },
        agent: agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            reusedSocket: req.reusedSocket,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('compressed delivery on a real server', () => {
  it('sends the identity provider’s login page in Brotli or gzip, and plain to a client that asks nothing', async () => {
    const browser = new Browser();
    const login = await openLogin(browser, started.server.url, 'demo', 'v'.repeat(43));
    for (const [accept, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', null],
    ] as const) {
      // fetch decodes the body for us but leaves Content-Encoding to say what came over the wire.
      const page = await browser.fetch(login, { headers: { 'Accept-Encoding': accept } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-encoding'), accept).toBe(coding);
      expect(page.headers.get('vary')).toMatch(/Accept-Encoding/i);
      expect(await page.text()).toContain('name="username"');
    }
  });

  it('compresses the API’s JSON over 1 KB for a signed-in staff member', async () => {
    const { access_token } = await signIn(started.server.url, 'demo', 'admin');
    const headers = { 'tenant-id': 'demo', authorization: `Bearer ${access_token}` };
    const plain = await get('/api/public/accounts?pageSize=50', headers);
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gz = await get('/api/public/accounts?pageSize=50', { ...headers, 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gz.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));
  });

  it('keeps an idle connection open longer than a client does: reused after 6 s, it still answers', async () => {
    // A server that closed it at 5 s (Node's default) raced the client's next request on it: ECONNRESET.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await get('/health', {}, agent)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const again = await get('/health', {}, agent);
      expect(again.status).toBe(200);
      expect(again.reusedSocket).toBe(true);
      expect(again.headers['keep-alive']).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    } finally {
      agent.destroy();
    }
  });

  it('keeps HTTP/1.1 connections alive: two requests share one socket', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get('/health', {}, agent);
      const second = await get('/health', { 'Accept-Encoding': 'br' }, agent);
      expect(first.status).toBe(200);
      expect(first.headers.connection).toBe('keep-alive');
      expect(first.reusedSocket).toBe(false);
      expect(second.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});
