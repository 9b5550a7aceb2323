// Issue #9 rows 1 and 6: the development mailbox and fault switches answer only a person at this machine.
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../config';
import { isLoopbackAddress } from '../dev-routes';
import { type RunningServer, type StartServerOptions, startServer } from '../main';
import { createSiteFixture, type SiteFixture, testServerOptions } from '../testing/fixtures';

let site: SiteFixture;
beforeAll(() => {
  site = createSiteFixture();
});
afterAll(() => site.remove());

function options(extra: StartServerOptions = {}): StartServerOptions {
  return testServerOptions(site, { nodeEnv: 'development', ...extra });
}

/** This machine's address on its network (how a neighbour on the same network reaches it). */
function networkAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal);
  if (!found) throw new Error('this machine has no non-loopback IPv4 address to test from');
  return found.address;
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
const switchFault = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'tenant-id': 'gambling' },
    body: JSON.stringify({ on: true }),
  });

describe('development routes', { timeout: 60_000 }, () => {
  it('a new server listens on loopback only (HOST changes it)', async () => {
    expect(configFromEnv({}).host).toBe('127.0.0.1');
    expect(configFromEnv({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    const server = await startServer(options({ host: configFromEnv({}).host }));
    try {
      await expect(get(`http://${networkAddress()}:${server.port}/health`)).rejects.toThrow();
      expect((await get(`http://127.0.0.1:${server.port}/health`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  describe('on a server open to the network with DEV_MAILBOX=1', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer(options({ host: '0.0.0.0', devMailbox: true }));
    }, 60_000);
    afterAll(() => server.close());

    it('the mailbox answers a loopback caller', async () => {
      const res = await get(`http://127.0.0.1:${server.port}/dev/mailbox`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('Mailbox (development)');
    });

    it('the mailbox and the fault switches are not found from the network', async () => {
      const remote = `http://${networkAddress()}:${server.port}`;
      expect(isLoopbackAddress(networkAddress())).toBe(false);
      expect((await get(`${remote}/health`)).status).toBe(200);
      const mailbox = await get(`${remote}/dev/mailbox`);
      expect(mailbox.status).toBe(404);
      expect(await mailbox.text()).not.toContain('Mailbox');
      expect((await switchFault(`${remote}/api/dev/faults/enforcement`)).status).toBe(404);
      expect((await get(`${remote}/dev/`)).status).toBe(404);
    });

    it('a request relayed by a proxy on this machine is not a local caller', async () => {
      const local = `http://127.0.0.1:${server.port}/dev/mailbox`;
      expect((await get(local, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(404);
      expect((await get(local, { forwarded: 'for=203.0.113.9' })).status).toBe(404);
    });
  });

  it('are off when the server is open to the network without DEV_MAILBOX', async () => {
    const server = await startServer(options({ host: '0.0.0.0' }));
    try {
      expect((await get(`http://127.0.0.1:${server.port}/dev/mailbox`)).status).toBe(404);
      expect((await switchFault(`http://127.0.0.1:${server.port}/api/dev/faults/enforcement`)).status).toBe(
        404,
      );
    } finally {
      await server.close();
    }
  });

  it('are off in production, even on loopback', async () => {
    const server = await startServer(options({ host: '127.0.0.1', nodeEnv: 'production', devMailbox: true }));
    try {
      expect((await get(`http://127.0.0.1:${server.port}/dev/mailbox`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
