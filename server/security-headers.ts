import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';

// One source of truth: Hono middleware, the raw node listener and the identity provider all use this set.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // 'wasm-unsafe-eval' compiles WebAssembly only (no eval of scripts): reception's QR reader (zxing-wasm, served
  // from this origin) needs it where the browser has no BarcodeDetector.
  "script-src 'self' 'wasm-unsafe-eval'",
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

export function applySecurityHeaders(target: Headers | ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (target instanceof Headers) target.set(name, value);
    else target.setHeader(name, value);
  }
}
