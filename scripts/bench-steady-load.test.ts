import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { percentile, steadyLoad } from '../bench/steady-load';

describe('percentile', () => {
  it('is the nearest rank, to a tenth of a millisecond; 0 without values', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1.04);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7.26], 99)).toBe(7.3);
    expect(percentile([], 99)).toBe(0);
  });
});

describe('steadyLoad', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A loopback server answering 200, or 503 for every fifth request; it records the headers it got. */
  async function start() {
    let seen = 0;
    const headers: string[] = [];
    server = createServer((req, res) => {
      seen++;
      headers.push(String(req.headers.authorization));
      res.writeHead(seen % 5 === 0 ? 503 : 200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/x?y=1`, seen: () => seen, headers };
  }

  it('sends rate × seconds requests with the headers given, and counts the answers by status', async () => {
    const target = await start();
    const answers: number[] = [];
    const result = await steadyLoad({
      url: target.url,
      headers: { authorization: 'Bearer t' },
      rate: 50,
      seconds: 1,
      onResponse: (_at, _ms, status) => answers.push(status),
    }).done;
    expect(result.requests.total).toBe(50);
    expect(target.seen()).toBe(50);
    expect(new Set(target.headers)).toEqual(new Set(['Bearer t']));
    expect(result.statuses).toEqual({ 200: 40, 503: 10 });
    expect(result.non2xx).toBe(10);
    expect(result.errors + result.timeouts).toBe(0);
    expect(answers).toHaveLength(50);
    expect(result.latency.p50).toBeGreaterThan(0);
    expect(result.latency.max).toBeGreaterThanOrEqual(result.latency.p99);
  });

  it('stops when asked, and waits for the answers of what it sent', async () => {
    const target = await start();
    const load = steadyLoad({ url: target.url, headers: {}, rate: 100, seconds: 600 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const result = await load.stop();
    expect(result.requests.total).toBeGreaterThan(0);
    expect(result.requests.total).toBe(target.seen());
    expect(await load.done).toBe(result);
  });

  it('counts a refused connection as an error, not as an answer', async () => {
    const target = await start();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
    const result = await steadyLoad({ url: target.url, headers: {}, rate: 20, seconds: 0.25 }).done;
    expect(result.errors).toBe(result.requests.total);
    expect(result.errors).toBeGreaterThan(0);
    expect(result.statuses).toEqual({});
  });
});
