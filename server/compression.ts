// Content coding for the server's text responses: which coding a client accepts (Accept-Encoding) and how
// a body is encoded. Static files, API answers and the identity provider's pages all choose here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

export type Coding = 'br' | 'gzip';
/** The codings the server can produce, best first: on equal preference Brotli wins. */
export const CODINGS: readonly Coding[] = ['br', 'gzip'];
/** Bodies below this are sent as they are: the coding's framing would eat most of the gain. */
export const COMPRESS_THRESHOLD = 1024;

const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The q of each coding named in an Accept-Encoding header (lower case; `x-gzip` is gzip). */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const [key, value = ''] = param.split('=').map((s) => s.trim());
      if (key?.toLowerCase() !== 'q') continue;
      // A malformed q is no preference at all: the entry is ignored rather than guessed.
      q = QVALUE.test(value) ? Number(value) : Number.NaN;
    }
    if (Number.isNaN(q)) continue;
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase();
    // The first mention of a coding counts, as in most servers.
    if (!accepted.has(coding)) accepted.set(coding, q);
  }
  return accepted;
}

/**
 * The coding to send given the request's Accept-Encoding and the codings available for this body
 * (RFC 9110 §12.5.3): no header means identity; `*` stands for every coding not named, identity included;
 * `q=0` refuses; the highest q wins, Brotli before gzip on a tie, identity when the client rates it higher.
 * When the client refuses identity and nothing else is available, identity is still sent (the RFC lets a
 * server ignore the header rather than answer 406, and a page that loads beats an error).
 */
export function chooseCoding(
  header: string | undefined,
  available: readonly Coding[] = CODINGS,
): Coding | 'identity' {
  if (!header || header.trim() === '') return 'identity';
  const accepted = parseAcceptEncoding(header);
  const wildcard = accepted.get('*');
  const qOf = (coding: string) => accepted.get(coding) ?? wildcard ?? 0;
  let best: { coding: Coding; q: number } | undefined;
  for (const coding of CODINGS) {
    if (!available.includes(coding)) continue;
    const q = qOf(coding);
    if (q > 0 && (!best || q > best.q)) best = { coding, q };
  }
  if (!best) return 'identity';
  // Identity is preferred only when the client says so with a higher q, not by default.
  const identity = accepted.get('identity') ?? wildcard;
  return identity !== undefined && identity > best.q ? 'identity' : best.coding;
}

const COMPRESSIBLE =
  /^(?:text\/|application\/(?:json|javascript|ecmascript|xml|manifest\+json|[\w.-]+\+(?:json|xml))|image\/(?:svg\+xml|x-icon|vnd\.microsoft\.icon))/i;

/** Text-like types worth compressing; images, PDFs, fonts (woff2 is compressed already), zips are not. */
export function isCompressible(contentType: string | null | undefined): boolean {
  return !!contentType && COMPRESSIBLE.test(contentType.trim());
}

/** Whether a Cache-Control value forbids changing the body on the way (RFC 9111 §5.2.2.6). */
export function forbidsTransform(cacheControl: string | null | undefined): boolean {
  return !!cacheControl && /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(cacheControl);
}

/** Adds Accept-Encoding to a Vary value unless it is there already (or the value is `*`). */
export function varyOnAcceptEncoding(current: string | null | undefined): string {
  if (!current) return 'Accept-Encoding';
  if (current.trim() === '*' || /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(current)) return current;
  return `${current}, Accept-Encoding`;
}

/**
 * Effort per use: `dynamic` bodies are encoded on every request (Brotli 4 beats gzip 6 in size and time),
 * `static` ones once (the build's copies are Brotli 11 and gzip 9).
 */
export type Effort = 'dynamic' | 'static';

const options = (coding: Coding, effort: Effort, size: number) =>
  coding === 'br'
    ? {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: effort === 'static' ? 11 : 4,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: size,
        },
      }
    : { level: effort === 'static' ? 9 : 6 };

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export function encodeSync(body: Uint8Array, coding: Coding, effort: Effort): Buffer {
  return coding === 'br'
    ? brotliCompressSync(body, options(coding, effort, body.length))
    : gzipSync(body, options(coding, effort, body.length));
}

/** Encodes off the event loop (zlib's thread pool): for bodies large enough to notice. */
export function encode(body: Uint8Array, coding: Coding, effort: Effort): Promise<Buffer> {
  return coding === 'br'
    ? brotliAsync(body, options(coding, effort, body.length))
    : gzipAsync(body, options(coding, effort, body.length));
}

/**
 * Compresses what a raw node handler (the identity provider's pages and JSON, under /auth) sends in one
 * `res.end(body)`, as oidc-provider (Koa) and the login pages do. A response written in pieces, already
 * encoded, already sent, or to a HEAD request goes out untouched. The bodies are a few kilobytes of HTML or
 * JSON, so Brotli 4 inline costs well under a millisecond.
 */
export function compressWhenEnded(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'HEAD') return;
  const accept = req.headers['accept-encoding'];
  if (!accept) return;
  let streamed = false;
  const write = res.write;
  const end = res.end;
  res.write = function (this: ServerResponse, ...args: unknown[]) {
    streamed = true;
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    const [chunk, encoding] = args;
    const body =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : chunk instanceof Uint8Array
          ? chunk
          : undefined;
    if (
      !streamed &&
      !res.headersSent &&
      body &&
      body.length >= COMPRESS_THRESHOLD &&
      !UNCHANGED_STATUS.has(res.statusCode) &&
      !res.hasHeader('Content-Encoding') &&
      isCompressible(String(res.getHeader('Content-Type') ?? '')) &&
      !forbidsTransform(String(res.getHeader('Cache-Control') ?? ''))
    ) {
      res.setHeader('Vary', varyOnAcceptEncoding(String(res.getHeader('Vary') ?? '')));
      const coding = chooseCoding(accept);
      if (coding !== 'identity') {
        const encoded = encodeSync(body, coding, 'dynamic');
        res.setHeader('Content-Encoding', coding);
        res.setHeader('Content-Length', encoded.length);
        const etag = res.getHeader('ETag');
        if (typeof etag === 'string' && !etag.startsWith('W/')) res.setHeader('ETag', `W/${etag}`);
        const callback = args.find((arg) => typeof arg === 'function');
        return (end as (...a: unknown[]) => ServerResponse).call(this, encoded, callback);
      }
    }
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['end'];
}

const UNCHANGED_STATUS = new Set([204, 206, 304]);
