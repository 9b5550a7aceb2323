// The development mailbox and fault switches answer only a person at this machine.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../config';
import { isLoopbackAddress } from '../dev-routes';
import { type RunningServer, type StartServerOptions, startServer } from '../main';
import { createSiteFixture, type SiteFixture, testServerOptions } from '../testing/fixtures';
import { NEIGHBOUR, NEIGHBOUR_SOURCE, seeNeighbourAt } from '../testing/neighbour';

let site: SiteFixture;
beforeAll(() => {
  site = createSiteFixture();
});
afterAll(() => site.remove());

function options(extra: StartServerOptions = {}): StartServerOptions {
  return testServerOptions(site, { nodeEnv: 'development', ...extra });
}

// Tests reach servers through the loopback range only. A server bound to 127.0.0.1 does not answer on another
// loopback address, which shows it listens on that address alone. A server configured as open to the network
// (`host: '0.0.0.0'`) is bound to 127.0.0.1 all the same (`listenHost`), and a neighbour on the network is
// played from NEIGHBOUR_SOURCE (testing/neighbour.ts).
const OTHER_LOOPBACK = '127.0.0.2';
const OPEN = { host: '0.0.0.0', listenHost: '127.0.0.1' } as const;

/** A request from NEIGHBOUR_SOURCE (fetch cannot choose the address it connects from): status and body. */
function fromNeighbour(
  url: string,
  method = 'GET',
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        localAddress: NEIGHBOUR_SOURCE,
        headers: body ? { 'content-type': 'application/json', 'tenant-id': 'gambling' } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
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
      await expect(get(`http://${OTHER_LOOPBACK}:${server.port}/health`)).rejects.toThrow();
      expect((await get(`http://127.0.0.1:${server.port}/health`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  describe('on a server open to the network with DEV_MAILBOX=1', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer(options({ ...OPEN, devMailbox: true }));
      seeNeighbourAt(server);
    }, 60_000);
    afterAll(() => server.close());

    it('the mailbox answers a loopback caller', async () => {
      const res = await get(`http://127.0.0.1:${server.port}/dev/mailbox`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('Mailbox (development)');
    });

    it('the mailbox and the fault switches are not found from the network', async () => {
      const remote = `http://127.0.0.1:${server.port}`;
      expect(isLoopbackAddress(NEIGHBOUR)).toBe(false);
      expect((await fromNeighbour(`${remote}/health`)).status).toBe(200);
      const mailbox = await fromNeighbour(`${remote}/dev/mailbox`);
      expect(mailbox.status).toBe(404);
      expect(mailbox.text).not.toContain('Mailbox');
      const fault = await fromNeighbour(`${remote}/api/dev/faults/enforcement`, 'POST', '{"on":true}');
      expect(fault.status).toBe(404);
      expect((await fromNeighbour(`${remote}/dev/`)).status).toBe(404);
    });

    it('a request relayed by a proxy on this machine is not a local caller', async () => {
      const local = `http://127.0.0.1:${server.port}/dev/mailbox`;
      expect((await get(local, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(404);
      expect((await get(local, { forwarded: 'for=203.0.113.9' })).status).toBe(404);
    });
  });

  it('are off when the server is open to the network without DEV_MAILBOX', async () => {
    const server = await startServer(options(OPEN));
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
