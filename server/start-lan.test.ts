import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createRequire } from 'node:module';
import type { NetworkInterfaceInfo } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { readyBanner } from './banner';
import { type RunningServer, startServer } from './main';
import {
  lanBanner,
  lanCertificate,
  lanCertificateDir,
  lanHost,
  networkAddresses,
  prepareLan,
} from './start-lan';
import { createSiteFixture, type SiteFixture, testServerOptions } from './testing/fixtures';
import { authorizePath, signIn } from './testing/oidc';

const require = createRequire(import.meta.url);

// A loopback address stands for the machine's network address: the tests never reach its other addresses.
const LAN_HOST = '127.0.0.7';

function iface(address: string, internal = false, family: 'IPv4' | 'IPv6' = 'IPv4'): NetworkInterfaceInfo {
  return {
    address,
    internal,
    family,
    netmask: '255.255.255.0',
    mac: '00:00:00:00:00:00',
    cidr: null,
  } as NetworkInterfaceInfo;
}

describe('the LAN address', () => {
  const interfaces = {
    lo: [iface('127.0.0.1', true)],
    docker0: [iface('172.17.0.1')],
    wlan0: [iface('fe80::1', false, 'IPv6'), iface('198.51.100.23')],
    eth1: [iface('203.0.113.5')],
  };

  it('is the first network IPv4 address, not loopback, IPv6 or a container bridge', () => {
    expect(networkAddresses(interfaces)).toEqual(['198.51.100.23', '203.0.113.5']);
    expect(lanHost({}, networkAddresses(interfaces))).toBe('198.51.100.23');
  });

  it('is LAN_HOST when set, and refuses what a link cannot carry', () => {
    expect(lanHost({ LAN_HOST: '203.0.113.5' }, ['198.51.100.23'])).toBe('203.0.113.5');
    expect(() => lanHost({ LAN_HOST: 'fe80::1' }, [])).toThrow(/IPv4 address or a host name/);
    expect(() => lanHost({}, [])).toThrow(/no network IPv4 address/);
  });
});

describe('the certificate', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'portal-lan-cert-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is made on the first run for the address and localhost, its key readable by this account only', async () => {
    const dir = lanCertificateDir(join(root, 'data'));
    expect(dir).toBe(join(root, 'data.lan-tls'));
    const made = await lanCertificate(dir, LAN_HOST, ['127.0.0.8']);
    expect(made.created).toBe(true);
    const cert = new X509Certificate(made.cert);
    expect(cert.subjectAltName).toContain(`IP Address:${LAN_HOST}`);
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.8');
    expect(cert.subjectAltName).toContain('DNS:localhost');
    expect(made.fingerprint).toBe(cert.fingerprint256);
    expect(statSync(join(dir, 'key.pem')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('is kept on later runs, and made anew for another address or a month before it expires', async () => {
    const dir = join(root, 'kept');
    const first = await lanCertificate(dir, LAN_HOST);
    const again = await lanCertificate(dir, LAN_HOST);
    expect(again).toMatchObject({ created: false, fingerprint: first.fingerprint });
    const moved = await lanCertificate(dir, '127.0.0.8');
    expect(moved.created).toBe(true);
    expect(moved.fingerprint).not.toBe(first.fingerprint);
    const late = new Date(Date.now() + 340 * 24 * 3600 * 1000);
    expect((await lanCertificate(dir, '127.0.0.8', [], late)).fingerprint).not.toBe(moved.fingerprint);
  });
});

/** The texts of the QR codes in a PNG data URL, read as a phone's camera app would (zxing, the SPA's reader). */
async function readQr(dataUrl: string): Promise<string[]> {
  const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
    fireImmediately: true,
  });
  const png = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  return (await readBarcodes(new Uint8Array(png), { formats: ['QRCode'] })).map((found) => found.text);
}

/** fetch over https that trusts `ca` (the portal's own certificate) the way a phone does once it is accepted. */
function fetchTrusting(ca: string): typeof fetch {
  return ((input: string | URL | Request, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const headers = Object.fromEntries(new Headers(init.headers));
      const body = init.body === undefined || init.body === null ? undefined : String(init.body);
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const req = httpsRequest(
        String(input),
        { method: init.method ?? 'GET', headers, ca, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const answer = new Headers();
            for (let i = 0; i < res.rawHeaders.length; i += 2) {
              answer.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
            }
            const status = res.statusCode ?? 0;
            const content = status === 204 || status === 304 ? null : Buffer.concat(chunks);
            resolve(new Response(content, { status, headers: answer }));
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    })) as typeof fetch;
}

describe('npm run start:lan', () => {
  let site: SiteFixture;
  let root: string;
  let server: RunningServer;
  let printed: string[];
  let cert: string;
  let send: typeof fetch;

  beforeAll(async () => {
    site = createSiteFixture();
    root = mkdtempSync(join(tmpdir(), 'portal-lan-'));
    const prepared = await prepareLan(
      { dataDir: join(root, 'data'), publicUrls: undefined },
      { LAN_HOST },
      [],
    );
    printed = prepared.lines;
    cert = prepared.lan.cert;
    send = fetchTrusting(cert);
    // Configured as open to the network (HOST=0.0.0.0), bound to the loopback address that stands for it.
    server = await startServer(
      testServerOptions(site, { host: '0.0.0.0', listenHost: LAN_HOST, lan: prepared.lan }),
    );
  });

  afterAll(async () => {
    await server?.close();
    site?.remove();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers https with the certificate whose fingerprint it printed', async () => {
    const printedFingerprint = printed.join('\n').match(/fingerprint[^:]*: ([0-9A-F:]{95})/)?.[1];
    expect(printedFingerprint).toBeDefined();
    const peer = await new Promise<{ authorized: boolean; fingerprint: string }>((resolve, reject) => {
      const socket = connect({ host: LAN_HOST, port: server.port, ca: cert }, () => {
        resolve({ authorized: socket.authorized, fingerprint: socket.getPeerCertificate().fingerprint256 });
        socket.end();
      });
      socket.on('error', reject);
    });
    expect(peer).toEqual({ authorized: true, fingerprint: printedFingerprint });
    const health = await send(`https://${LAN_HOST}:${server.port}/health`);
    expect(health.status).toBe(200);
    expect(health.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });

  it('gives no answer to plain http on the same port', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const req = httpRequest({ host: LAN_HOST, port: server.port, path: '/health', agent: false }, (res) =>
        resolve(`answered ${res.statusCode}`),
      );
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      req.end();
    });
    expect(outcome).not.toMatch(/^answered/);
  });

  it('makes https://<LAN_HOST>:<port> its address, its only known origin and its issuer', async () => {
    const origin = `https://${LAN_HOST}:${server.port}`;
    expect(server.url).toBe(origin);
    expect([...server.origins.all()]).toEqual([[origin, 'gambling']]);
    const discovery = await send(`${origin}/auth/realms/gambling/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(`${origin}/auth/realms/gambling`);
    // localhost is no origin of this server: the identity provider makes nothing for it.
    const elsewhere = await send(`${origin}/auth/realms/gambling/.well-known/openid-configuration`, {
      headers: { host: `localhost:${server.port}` },
    });
    expect(elsewhere.status).toBe(400);
  });

  it('sets the identity provider’s cookies Secure', async () => {
    const res = await send(`${server.url}${authorizePath(server.url)}`, { redirect: 'manual' });
    const cookies = res.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).toMatch(/;\s*secure/i);
  });

  it('puts the “continue on your phone” link and its QR on the LAN origin', async () => {
    const origin = server.url;
    const { access_token } = await signIn(origin, 'gambling', 'user', 'user', send);
    const call = (path: string, body: unknown) =>
      send(`${origin}/api${path}`, {
        method: 'POST',
        headers: {
          'tenant-id': 'gambling',
          authorization: `Bearer ${access_token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    const created = await call('/internal/onboardings', { mode: 'auto' });
    expect(created.status, await created.clone().text()).toBe(201);
    const generated = await call('/user-code/generate', {});
    expect(generated.status, await generated.clone().text()).toBe(201);
    const { code, link, qr } = (await generated.json()) as { code: string; link: string; qr: string };
    expect(link).toBe(`${origin}/device-detect?code=${code}`);
    // What a phone's camera reads from the QR DeviceDetect shows.
    expect(await readQr(qr)).toEqual([link]);
  });

  it('keeps the development routes closed to the network', async () => {
    // Asked from this very machine, even: with start:lan the server is open to the network.
    expect((await send(`${server.url}/dev/mailbox`)).status).toBe(404);
    const fault = await send(`${server.url}/api/dev/faults/enforcement`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ down: true }),
    });
    expect(fault.status).toBe(404);
  });

  it('keeps the certificate for the next run, and says where to open it with a QR code', async () => {
    const next = await prepareLan({ dataDir: join(root, 'data'), publicUrls: undefined }, { LAN_HOST }, []);
    expect(next.lan.cert).toBe(cert);
    expect(next.lines[0]).toMatch(/^Using the certificate/);
    expect(printed[0]).toMatch(/^Made a new certificate/);
    const banner = await lanBanner(server.url);
    expect(banner[0]).toContain(server.url);
    expect(banner.filter((line) => /[█▀▄]/.test(line)).length).toBeGreaterThan(10);
    // On a network name or address the mailbox is off unless asked for, and then on https://localhost only.
    const lanUrl = 'https://portal-lan.test:8443';
    expect(readyBanner({ NODE_ENV: 'test' }, lanUrl).join('\n')).not.toMatch(/localhost|mailbox/i);
    expect(readyBanner({ NODE_ENV: 'test', HOST: '0.0.0.0', DEV_MAILBOX: '1' }, lanUrl)).toContain(
      'Mailbox (password reset links, from this machine only): https://localhost:8443/dev/mailbox',
    );
  });

  it('refuses PUBLIC_URL beside it', async () => {
    await expect(
      prepareLan({ dataDir: join(root, 'data'), publicUrls: ['https://portal.example'] }, { LAN_HOST }, []),
    ).rejects.toThrow(/PUBLIC_URL/);
  });
});
