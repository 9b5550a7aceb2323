// Development conveniences (the mailbox at /dev/mailbox, the fault switches under /api/dev/) hand out reset
// links and switch services off: they answer only a person at this machine. A request qualifies when it
// arrived on a loopback socket and was not relayed by a proxy (a proxy on this machine makes every caller
// look local, so a forwarded request is never trusted here).
import type { IncomingMessage } from 'node:http';

export type DevRoutesPolicy = 'loopback' | 'off';

const DEV_PATH = /^\/(?:api\/)?dev(?:\/|$)/;
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'x-forwarded-host'];

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127(?:\.\d{1,3}){3}$/.test(v4);
}

/** A host to listen on that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || isLoopbackAddress(host);
}

/**
 * Off in production; off when the server listens beyond loopback, unless DEV_MAILBOX=1 says that is meant
 * (a team sharing a development server); otherwise on, for loopback callers only.
 */
export function devRoutesPolicy(config: {
  nodeEnv?: string;
  host: string;
  devMailbox?: boolean;
}): DevRoutesPolicy {
  if (config.nodeEnv === 'production') return 'off';
  if (!isLoopbackHost(config.host) && !config.devMailbox) return 'off';
  return 'loopback';
}

export function isDevPath(pathname: string): boolean {
  return DEV_PATH.test(pathname);
}

/** A caller at this machine: a loopback socket, and no proxy's word that the request came from elsewhere. */
export function fromThisMachine(req: IncomingMessage): boolean {
  if (FORWARDING_HEADERS.some((name) => req.headers[name] !== undefined)) return false;
  return isLoopbackAddress(req.socket.remoteAddress);
}

/** Whether this request may reach a development route under the policy. */
export function devRequestAllowed(policy: DevRoutesPolicy, req: IncomingMessage): boolean {
  return policy !== 'off' && fromThisMachine(req);
}
