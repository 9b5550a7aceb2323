// npm run start:lan: the portal on this machine's network address over https, so that a phone on the same Wi-Fi can
// open it with its camera (browsers give a camera only to a secure context) and the "continue on your phone" QR
// opens on the phone. The certificate is self-signed, made on the first run and kept beside the data folder, so
// that a phone that accepted it once keeps it; its SHA-256 fingerprint is printed to compare with what the phone
// shows before accepting it (docs/phone.md).
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import QRCode from 'qrcode';
import { generate } from 'selfsigned';

/** What the server needs to listen over https at the LAN address (StartServerOptions.lan). */
export interface LanListener {
  /** The address the portal is opened at: its only known origin is https://<host>:<port>. */
  host: string;
  key: string;
  cert: string;
}

export interface LanCertificate {
  key: string;
  cert: string;
  /** SHA-256 of the certificate, as browsers show it (AB:CD:…). */
  fingerprint: string;
  /** Whether this run made it (else it was the one kept from an earlier run). */
  created: boolean;
  dir: string;
}

/** A certificate is made anew this long before it would expire, so that no run starts with one about to lapse. */
const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;
/** Apple's limit for a TLS server certificate is 825 days; a year is what browsers accept from any issuer. */
const VALID_DAYS = 365;

/** Interfaces of containers and virtual machines on this computer: a phone cannot reach their addresses. */
const VIRTUAL_INTERFACE = /^(?:docker|br-|veth|virbr|vboxnet|vmnet|cni|flannel|podman)/;

/**
 * This machine's IPv4 addresses on a network (not loopback, not a container's bridge), in the order the system
 * lists them.
 */
export function networkAddresses(
  interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces(),
): string[] {
  const found: string[] = [];
  for (const [name, entries] of Object.entries(interfaces)) {
    if (VIRTUAL_INTERFACE.test(name)) continue;
    for (const entry of entries ?? []) {
      if (entry.family === 'IPv4' && !entry.internal) found.push(entry.address);
    }
  }
  return found;
}

/**
 * LAN_HOST, else the first network IPv4 address. An IP address or a host name (a phone must be able to resolve it);
 * an IPv6 address would need brackets in every link, and the first label of a name picks the tenant.
 */
export function lanHost(env: NodeJS.ProcessEnv, addresses: readonly string[] = networkAddresses()): string {
  const chosen = env.LAN_HOST?.trim() || addresses[0];
  if (!chosen) {
    throw new Error(
      'start:lan: this machine has no network IPv4 address; join a network, or name one with LAN_HOST',
    );
  }
  if (isIP(chosen) === 6 || !/^[a-z0-9.-]+$/i.test(chosen)) {
    throw new Error(`LAN_HOST must be an IPv4 address or a host name: ${chosen}`);
  }
  return chosen.toLowerCase();
}

/** The folder of the certificate: beside the data folder, as its backup key is, so a restore leaves it alone. */
export function lanCertificateDir(dataDir: string | undefined, cwd = process.cwd()): string {
  const folder = dataDir === undefined || dataDir === 'memory://' ? resolve(cwd, '.data') : dataDir;
  return `${folder}.lan-tls`;
}

function covers(cert: X509Certificate, name: string): boolean {
  return isIP(name) ? cert.checkIP(name) !== undefined : cert.checkHost(name) !== undefined;
}

/** The kept certificate when it still serves: its key, every name asked for, and a month or more left. */
function kept(dir: string, names: readonly string[], now: Date): LanCertificate | undefined {
  let key: string;
  let pem: string;
  try {
    key = readFileSync(join(dir, 'key.pem'), 'utf8');
    pem = readFileSync(join(dir, 'cert.pem'), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const cert = new X509Certificate(pem);
    if (!cert.checkPrivateKey(createPrivateKey(key))) return undefined;
    if (new Date(cert.validTo).getTime() - now.getTime() < RENEW_BEFORE_MS) return undefined;
    if (!names.every((name) => covers(cert, name))) return undefined;
    return { key, cert: pem, fingerprint: cert.fingerprint256, created: false, dir };
  } catch {
    return undefined;
  }
}

function writePrivate(path: string, text: string, mode: number): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, path);
}

/**
 * The certificate for `host`: the kept one when it covers `host`, `localhost` and `otherAddresses` and is not about
 * to expire; otherwise a new one (EC P-256, serverAuth, those names as subjectAltName), written with the key
 * readable by this account only.
 */
export async function lanCertificate(
  dir: string,
  host: string,
  otherAddresses: readonly string[] = [],
  now = new Date(),
): Promise<LanCertificate> {
  // The names it must cover; made anew, it covers the machine's other addresses too.
  const existing = kept(dir, [host, 'localhost'], now);
  if (existing) return existing;
  const names = [...new Set([host, ...otherAddresses, 'localhost'])];
  const notAfterDate = new Date(now.getTime() + VALID_DAYS * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: host }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: names.map((name) =>
          isIP(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name },
        ),
      },
    ],
  });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  writePrivate(join(dir, 'key.pem'), pems.private, 0o600);
  writePrivate(join(dir, 'cert.pem'), pems.cert, 0o644);
  const fingerprint = new X509Certificate(pems.cert).fingerprint256;
  return { key: pems.private, cert: pems.cert, fingerprint, created: true, dir };
}

/**
 * What `--lan` adds to the configuration: the listener (address, key, certificate) and the lines to print about the
 * certificate. PUBLIC_URL names other origins: the two do not mix.
 */
export async function prepareLan(
  config: { dataDir: string | undefined; publicUrls: readonly string[] | undefined },
  env: NodeJS.ProcessEnv,
  addresses: readonly string[] = networkAddresses(),
): Promise<{ lan: LanListener; lines: string[] }> {
  if (config.publicUrls) {
    throw new Error(
      'start:lan makes the origin https://<LAN_HOST>:<PORT>; unset PUBLIC_URL, or start without --lan',
    );
  }
  const host = lanHost(env, addresses);
  const certificate = await lanCertificate(lanCertificateDir(config.dataDir), host, addresses);
  const lines = [
    `${certificate.created ? 'Made a new' : 'Using the'} certificate for ${host} (${certificate.dir}/cert.pem).`,
    `Its SHA-256 fingerprint, to compare with the one the phone shows: ${certificate.fingerprint}`,
  ];
  return { lan: { host, key: certificate.key, cert: certificate.cert }, lines };
}

/** What start:lan prints once the portal is ready: where to open it, and a QR code a phone's camera opens. */
export async function lanBanner(url: string): Promise<string[]> {
  const qr = await QRCode.toString(url, { type: 'terminal', small: true, errorCorrectionLevel: 'L' });
  return [
    `Open ${url} on this computer, or scan this with a phone on the same network:`,
    ...qr.trimEnd().split('\n'),
    'The browser warns that the certificate is not trusted: docs/phone.md says how to accept it.',
  ];
}
