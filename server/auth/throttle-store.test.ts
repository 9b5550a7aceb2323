// The login throttle counts in the database, so guesses spread over several server processes add up.
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/db';
import { createTestDb } from '../testing/fixtures';
import { clientAddress } from './handlers/login';
import { createThrottle, databaseThrottleStore, memoryThrottleStore } from './throttle';

let db: Db | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

const stores = {
  memory: async (now: () => number) => memoryThrottleStore({ now }),
  database: async (now: () => number) => {
    db = await createTestDb();
    return databaseThrottleStore(db, { now });
  },
};

describe.each(Object.keys(stores) as (keyof typeof stores)[])('throttle store (%s)', (kind) => {
  it('counts per key, takes the worst key, forgets on success and after the window', async () => {
    let clock = 1_000_000;
    const store = await stores[kind](() => clock);
    const ana = ['gambling|account|ana', 'gambling|address|127.0.0.31'];
    for (let i = 0; i < 4; i++) await store.fail(ana);
    await store.fail(['gambling|account|bob']);
    expect(await store.failures(ana)).toBe(4);
    expect(await store.failures(['gambling|account|bob', 'gambling|address|127.0.0.31'])).toBe(4);
    expect(await store.failures(['demo|account|ana'])).toBe(0);
    await store.succeed(['gambling|account|ana']);
    expect(await store.failures(['gambling|account|ana'])).toBe(0);
    clock += 15 * 60 * 1000 + 1;
    expect(await store.failures(['gambling|address|127.0.0.31'])).toBe(0);
    await store.fail(['gambling|address|127.0.0.31']);
    expect(await store.failures(['gambling|address|127.0.0.31'])).toBe(1);
  });
});

describe('throttle over one database, as two processes', () => {
  it('adds up failures made through either process', async () => {
    db = await createTestDb();
    const slept: number[] = [];
    const sleep = async (ms: number) => void slept.push(ms);
    const first = createThrottle({ store: databaseThrottleStore(db), sleep });
    const second = createThrottle({ store: databaseThrottleStore(db), sleep });
    const keys = ['gambling|account|user', 'gambling|address|203.0.113.7'];
    const wrong = async () => false;
    await first.attempt(keys, wrong);
    await second.attempt(keys, wrong);
    await first.attempt(keys, wrong);
    await second.attempt(keys, wrong); // the fourth failure: waits after three, wherever they were counted
    expect(slept).toEqual([500]);
    expect(await first.delayFor(keys)).toBe(1000);
    expect(await second.attempt(keys, async () => true)).toBe(true);
    expect(await first.delayFor(keys)).toBe(0);
  });
});

describe('clientAddress', () => {
  const req = (remoteAddress: string, forwarded?: string) =>
    ({
      socket: { remoteAddress },
      headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
    }) as unknown as IncomingMessage;

  it('is the socket address unless a trusted proxy forwarded it; then the entry the proxy appended', () => {
    expect(clientAddress(req('127.0.0.1', '198.51.100.1'), false)).toBe('127.0.0.1');
    expect(clientAddress(req('127.0.0.1', '6.6.6.6, 198.51.100.1'), true)).toBe('198.51.100.1');
    expect(clientAddress(req('127.0.0.1'), true)).toBe('127.0.0.1');
  });
});
