// The API may answer an error with `link: { uri, query }` telling the portal where to go (spec §7).
// That uri comes from the network, so it is an open-redirect / script-injection vector: it is followed
// only when it resolves to a path on our own origin, and the value handed to the router is a path,
// never a URL with a scheme or a host.

// C0/C1 controls, DEL and any Unicode whitespace: browsers silently strip tabs/newlines
// ('java\nscript:', '/\t/evil.com') and trim leading spaces, so such input is never trusted.
function hasUnsafeChar(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return /\s/u.test(value);
}
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const HTTP_SCHEME = /^https?:\/\//i;

function originOf(value: string): string | null {
  try {
    const { origin } = new URL(value);
    // Opaque origins ('null': file:, data:, sandboxed frames) can never be matched safely.
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

// A path the router may push: one leading '/', no second '/' or '\' right after it (a
// protocol-relative URL), no backslash or control character even once percent-decoded.
function isPlainPath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\') || hasUnsafeChar(path)) {
    return false;
  }
  return true;
}

function decodedPathIsPlain(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  // '/%2F%2Fevil.com' or '/%5Cevil.com' stay same-origin for pushState, but become a host as soon
  // as some later code decodes the path and hands it to location or an <a href>.
  return isPlainPath(decoded);
}

/**
 * Returns `pathname + search + hash` of `uri` (with `query` appended) when it points to `origin`,
 * otherwise null. Accepted: paths starting with a single '/', and absolute http(s) URLs of `origin`
 * without userinfo. Everything else (other hosts, '//' and '/\' prefixes, any other scheme,
 * backslashes, whitespace and control characters, encoded tricks) is rejected.
 */
export function toSafeSameOriginPath(
  uri: string,
  query?: Record<string, string>,
  origin: string = globalThis.location?.origin ?? '',
): string | null {
  if (typeof uri !== 'string' || uri === '' || uri.includes('\\') || hasUnsafeChar(uri)) {
    return null;
  }
  const expectedOrigin = originOf(origin);
  if (expectedOrigin === null) {
    return null;
  }

  const absolute = SCHEME.test(uri);
  if (absolute ? !HTTP_SCHEME.test(uri) : !isPlainPath(uri)) {
    return null;
  }

  let url: URL;
  try {
    url = new URL(uri, expectedOrigin);
  } catch {
    return null;
  }
  // 'https://evil.com@ourhost' has our origin but a userinfo trick; never useful in a link.
  if (url.origin !== expectedOrigin || url.username !== '' || url.password !== '') {
    return null;
  }

  if (query !== undefined && query !== null && typeof query === 'object') {
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) {
        url.searchParams.append(key, String(value));
      }
    }
  }

  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can re-create a '//' prefix ('/.//evil.com' resolves to pathname '//evil.com').
  if (!isPlainPath(path) || !decodedPathIsPlain(url.pathname)) {
    return null;
  }
  try {
    return new URL(path, expectedOrigin).origin === expectedOrigin ? path : null;
  } catch {
    return null;
  }
}

/**
 * The tenant's "know more" link (spec §3 knowMoreUrl) as an href, or null: a path of the portal's own origin, or
 * an https URL without userinfo. Anything else (http, javascript:, data:, '//host', control characters) is dropped.
 */
export function toSafeKnowMoreHref(
  value: string,
  origin: string = globalThis.location?.origin ?? '',
): string | null {
  if (typeof value !== 'string' || value === '' || hasUnsafeChar(value) || value.includes('\\')) return null;
  if (/^https:\/\//i.test(value)) {
    try {
      const url = new URL(value);
      if (url.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.hostname === '') {
        return null;
      }
      return url.href;
    } catch {
      return null;
    }
  }
  return toSafeSameOriginPath(value, undefined, origin);
}
