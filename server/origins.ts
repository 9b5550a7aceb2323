// The origins the portal is served at, each the portal of the tenant its host names by the portal's own rule
// (contract/tenant/resolve.ts: the first label; localhost, an IP address and `app` mean the default tenant).
// PUBLIC_URL lists them; without it they are http://localhost:PORT and http://<tenant>.localhost:PORT for
// every shipped tenant, or https://<LAN_HOST>:PORT alone under npm run start:lan. Issuers, redirect URIs and the links in mail are made only for these origins: a
// request whose Host header (with the scheme it came in on) forms any other origin is refused before one is.
// Like Keycloak's host, a known origin answers for every realm; its tenant is checked only at start-up, so
// that an origin whose portal would show "no such tenant" is a configuration error, not a silent one.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { tenantFromHost } from '../contract/tenant/resolve';
import { isHttpsRequest } from './security-headers';

export interface KnownOrigins {
  /** Whether the origin is a known one. */
  has(origin: string): boolean;
  /** The tenant whose portal is at the origin; undefined when the origin is not a known one. */
  tenantOf(origin: string): string | undefined;
  /** Every known origin with the tenant it serves. */
  all(): ReadonlyMap<string, string>;
}

/** An origin as PUBLIC_URL may name it (`https://host[:port]`, no path): its normal form, or an error. */
export function parseOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`PUBLIC_URL: not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`PUBLIC_URL: only http and https origins: ${value}`);
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    throw new Error(`PUBLIC_URL: an origin has no path, query or credentials: ${value}`);
  }
  return url.origin;
}

/** PUBLIC_URL: comma-separated origins; undefined when unset or empty (the defaults apply). */
export function parsePublicUrls(value: string | undefined): string[] | undefined {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.length > 0 ? entries.map(parseOrigin) : undefined;
}

/** http://localhost:PORT for the default tenant and http://<tenant>.localhost:PORT for every tenant. */
export function defaultOrigins(tenants: readonly string[], port: number): string[] {
  return [
    parseOrigin(`http://localhost:${port}`),
    ...tenants.map((tenant) => parseOrigin(`http://${tenant}.localhost:${port}`)),
  ];
}

function tenantOfOrigin(origin: string, tenants: readonly string[]): string {
  const resolved = tenantFromHost(new URL(origin).hostname);
  if (resolved.kind !== 'tenant' || !tenants.includes(resolved.tenant)) {
    const label = resolved.kind === 'tenant' ? resolved.tenant : resolved.label;
    throw new Error(
      `PUBLIC_URL: ${origin} would serve the tenant "${label}", which is not one of ${tenants.join(', ')}`,
    );
  }
  return resolved.tenant;
}

/**
 * The known origins: `publicUrls` (PUBLIC_URL) when given, checked now; otherwise https://<lanHost>:PORT alone when
 * the portal is served on the local network (npm run start:lan, server/start-lan.ts), else the defaults; both on
 * `port()`, worked out on first use (a server on port 0 knows its port only once it listens).
 */
export function createKnownOrigins(options: {
  publicUrls?: readonly string[];
  tenants: readonly string[];
  port: () => number;
  lanHost?: string;
}): KnownOrigins {
  const make = (origins: readonly string[]) =>
    new Map(origins.map((origin) => [origin, tenantOfOrigin(origin, options.tenants)] as const));
  let known = options.publicUrls ? make(options.publicUrls.map(parseOrigin)) : undefined;
  const all = () => {
    known ??= make(
      options.lanHost
        ? [parseOrigin(`https://${options.lanHost}:${options.port()}`)]
        : defaultOrigins(options.tenants, options.port()),
    );
    return known;
  };
  return { all, has: (origin) => all().has(origin), tenantOf: (origin) => all().get(origin) };
}

const HOST = /^[a-z0-9.-]+(:\d{1,5})?$/i;

/**
 * The origin a request was made to: its Host header, with https when it came over TLS or, behind a
 * trusted proxy (TRUST_PROXY), X-Forwarded-Proto says https. Undefined for a missing or malformed Host.
 */
export function requestOrigin(req: IncomingMessage, trustProxy: boolean): string | undefined {
  return originOfHost(req.headers.host, isHttpsRequest(req, trustProxy));
}

/**
 * The portal origin for a link made during an API call (a mail, a QR): the origin the call was made to when it
 * is a known origin serving the call's tenant; else the first known origin of that tenant; else the call's
 * origin when it is known at all. Never an origin built from a Host header that is not a known one: with no
 * known origin to use (no origins given, as in unit tests of a bare app), undefined, and the link stays relative.
 */
export function portalOriginOf(
  c: Context,
  tenant: string,
  links: { origins?: KnownOrigins; trustProxy?: boolean },
): string | undefined {
  const { origins } = links;
  if (!origins) return undefined;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const requested = incoming
    ? requestOrigin(incoming, links.trustProxy ?? false)
    : originOfHost(c.req.header('host'), new URL(c.req.url).protocol === 'https:');
  if (requested !== undefined && origins.tenantOf(requested) === tenant) return requested;
  for (const [origin, served] of origins.all()) if (served === tenant) return origin;
  return requested !== undefined && origins.has(requested) ? requested : undefined;
}

function originOfHost(host: string | undefined, https: boolean): string | undefined {
  if (!host || !HOST.test(host)) return undefined;
  try {
    return new URL(`${https ? 'https' : 'http'}://${host}`).origin;
  } catch {
    return undefined;
  }
}
