import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { SHELL_SCRIPT_HASH } from './shell-script';

// One source of truth: Hono middleware, the raw node listener and the identity provider all use this set.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // 'wasm-unsafe-eval' compiles WebAssembly only (no eval of scripts): reception's QR reader (zxing-wasm, served
  // from this origin) needs it where the browser has no BarcodeDetector.
  // The hash: the one inline script, which keeps or drops the first paint of Welcome and Landing (server/shell.ts).
  `script-src 'self' 'wasm-unsafe-eval' ${SHELL_SCRIPT_HASH}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "font-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
  "form-action 'self'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(self), microphone=(), geolocation=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
});

/** Sent only on https answers: over plain http a browser ignores it, and localhost must stay reachable. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/**
 * Whether the person's browser spoke https: on our own TLS socket, or, behind a proxy we were told to trust
 * (TRUST_PROXY), as its X-Forwarded-Proto says. Without TRUST_PROXY that header is anyone's to forge.
 */
export function isHttpsRequest(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  if (!trustProxy) return false;
  const forwarded = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

/**
 * What a hashed script or stylesheet under /assets/ carries: CSP, Permissions-Policy, Referrer-Policy and COOP
 * govern documents (and a worker, whose policy comes from its own script's response), not the scripts and styles a
 * document loads. Leaving them off saves ~0.6 KB on each of the first screen's files, which count against the first
 * screens' budget (docs/performance.md).
 */
export const SUBRESOURCE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
});

/**
 * Whether a path is a built script or stylesheet that is never a document nor a worker's own script: a worker
 * takes its CSP from its script's response (`*.worker-<hash>.js` keeps the full set), and so does everything
 * else (HTML, API answers, images, SVG that could be opened as a document).
 */
export function isSubresourceAsset(pathname: string): boolean {
  return /^\/assets\/[\w.-]+\.(?:js|css)$/.test(pathname) && !/\.worker-[\w-]+\.js$/.test(pathname);
}

/** The headers a response gets: the full set, or for a hashed script or stylesheet (`subresource`) nosniff only. */
export function securityHeadersFor(subresource: boolean): Readonly<Record<string, string>> {
  return subresource ? SUBRESOURCE_HEADERS : SECURITY_HEADERS;
}

export function applySecurityHeaders(target: Headers | ServerResponse, subresource = false): void {
  for (const [name, value] of Object.entries(securityHeadersFor(subresource))) {
    if (target instanceof Headers) target.set(name, value);
    else target.setHeader(name, value);
  }
}
