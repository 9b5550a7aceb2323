import { RequestError } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from './app';
import type { Db } from './db/db';
import { createLogger, type Logger, silentLogger } from './logger';
import { adapterErrorAnswer } from './main';
import {
  createSiteFixture,
  createTestDb,
  type SiteFixture,
  TEST_BEARER,
  testAuth,
  testDeps,
} from './testing/fixtures';

describe('createLogger', () => {
  it('writes one JSON line per entry at or above the level', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', write: (line) => lines.push(line) });
    logger.log('info', 'hidden');
    logger.log('warn', 'shown', { a: 1 });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith('\n')).toBe(true);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 'warn',
      msg: 'shown',
      a: 1,
      time: expect.any(String),
    });
  });

  it('is silent under NODE_ENV=test or LOG_LEVEL=silent', () => {
    expect(createLogger({ nodeEnv: 'test', level: 'debug' })).toBe(silentLogger);
    expect(createLogger({ nodeEnv: 'production', level: 'silent' })).toBe(silentLogger);
  });
});

describe('request log', () => {
  let db: Db;
  let site: SiteFixture;

  beforeAll(async () => {
    db = await createTestDb();
    site = createSiteFixture();
  });

  afterAll(async () => {
    await db.close();
    site.remove();
  });

  it('logs method, path, status, ms, tenant and reqId for each request', async () => {
    const lines: string[] = [];
    const logger = createLogger({ nodeEnv: 'production', write: (line) => lines.push(line) });
    // Behind a trusted proxy its id names the request (request-id.test.ts: whose id is kept).
    const app = createApp({ ...testDeps(db, site), logger, auth: testAuth, trustProxy: true });
    const res = await app.request('/api/internal/facilities', {
      headers: { 'tenant-id': 'demo', 'x-request-id': 'abc-123', authorization: TEST_BEARER },
    });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    await app.request('/api/internal/facilities');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toEqual({
      time: expect.any(String),
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/api/internal/facilities',
      status: 200,
      ms: expect.any(Number),
      tenant: 'demo',
      reqId: 'abc-123',
    });
    expect(entries[1]).toMatchObject({ level: 'warn', status: 400, tenant: null, reqId: expect.any(String) });
  });

  it('replaces a request id that is unsafe to echo', async () => {
    const app = createApp(testDeps(db, site));
    const res = await app.request('/health', { headers: { 'x-request-id': 'bad id\u0007"' } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs unexpected errors and answers a generic 500 problem', async () => {
    const lines: string[] = [];
    const logger = createLogger({ nodeEnv: 'production', write: (line) => lines.push(line) });
    const app = createApp({ ...testDeps(db, site), logger });
    app.get('/api/test/throw', () => {
      throw new Error('secret internals');
    });
    const res = await app.request('/api/test/throw', { headers: { 'tenant-id': 'demo' } });
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(body).not.toContain('secret internals');
    expect(JSON.parse(body)).toMatchObject({ status: 500, title: 'Internal Server Error' });
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(lines.some((line) => line.includes('secret internals'))).toBe(true);
  });

  it('still shows an unexpected error when the logger is silent (as in tests), with its request id', async () => {
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const app = createApp(testDeps(db, site));
      app.get('/api/test/throw', () => {
        throw new Error('hidden from a silent logger');
      });
      const res = await app.request('/api/test/throw', { headers: { 'tenant-id': 'demo' } });
      expect(res.status).toBe(500);
      const line = written.map((text) => JSON.parse(text) as Record<string, unknown>)[0];
      expect(line).toMatchObject({
        level: 'error',
        msg: 'unhandled error',
        reqId: res.headers.get('x-request-id'),
        path: '/api/test/throw',
      });
      expect(String(line?.err)).toContain('hidden from a silent logger');
    } finally {
      stderr.mockRestore();
    }
  });

  it('answers a 500 problem even when the logger itself fails', async () => {
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const failing: Logger = {
      log: () => {
        throw new Error('log store unavailable');
      },
    };
    try {
      const app = createApp({ ...testDeps(db, site), logger: failing });
      app.get('/api/test/throw', () => {
        throw new Error('the first failure');
      });
      const res = await app.request('/api/test/throw', { headers: { 'tenant-id': 'demo' } });
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(written.join('')).toContain('the first failure');
    } finally {
      stderr.mockRestore();
    }
  });
});

describe("the node adapter's answer to a request that fails outside the app", () => {
  it('is a 400 problem for a malformed request, and a logged 500 problem for anything else', async () => {
    const lines: { level: string; msg: string; err: unknown }[] = [];
    const answer = adapterErrorAnswer({
      log: (level, msg, fields) => lines.push({ level, msg, err: fields?.err }),
    });
    const malformed = answer(new RequestError('Invalid host header'));
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ status: 400, detail: 'Malformed request.' });
    expect(lines).toEqual([]);
    const fault = answer(new TypeError('a bug outside the handlers'));
    expect(fault.status).toBe(500);
    expect(fault.headers.get('content-type')).toBe('application/problem+json');
    expect(await fault.json()).toMatchObject({ status: 500, code: 'internal_error' });
    expect(lines).toEqual([
      {
        level: 'error',
        msg: 'unhandled error outside the app',
        err: expect.stringContaining('a bug outside'),
      },
    ]);
  });
});
