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
 * `static` ones once (the build's copies are Brotli 11 and gzip 9). A `page` is made for one request too, but it is
 * what a phone waits for before its first paint, and one first round trip holds ~14 KB: Brotli 5 takes 0.5-0.9 KB
 * more off a painted page of 45-90 KB (5-6 %) for ~0.5 ms; 9 and up cost 25-120 ms for the next KB.
 */
export type Effort = 'dynamic' | 'page' | 'static';

const BROTLI_QUALITY: Record<Effort, number> = { dynamic: 4, page: 5, static: 11 };

const options = (coding: Coding, effort: Effort, size: number) =>
  coding === 'br'
    ? {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[effort],
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: size,
          // A window no larger than the body: the default 4 MB window costs more to set up than a 2 KB JSON
          // takes to compress (0.19 ms against 0.07 ms), and a window past the body's end gains nothing.
          [constants.BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(10, Math.ceil(Math.log2(size + 1)))),
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

type Headers = Parameters<ServerResponse['writeHead']>[1];
const UNCHANGED_STATUS = new Set([204, 206, 304]);

/**
 * Compresses the dynamic answers of one request at the socket: the API's JSON (Hono through
 * @hono/node-server) and the identity provider's pages (oidc-provider, the login pages). Both hand over a
 * buffered body in one `res.end(body)`, after `writeHead` or `setHeader`; the head is held back until the
 * body is known, then the body goes out in the best coding the client accepts when it is text of
 * COMPRESS_THRESHOLD bytes or more. Done here rather than in a Hono middleware because reading a Response's
 * body there turns @hono/node-server's cheap buffered answer into a web stream (a tenth of an API call's CPU).
 * A body written in pieces, already encoded, an image, a `no-transform` answer or a HEAD goes out untouched.
 */
export function compressDynamic(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'HEAD') return;
  const accept = req.headers['accept-encoding'];
  const writeHead = res.writeHead;
  const write = res.write;
  const end = res.end;
  const flushHeaders = res.flushHeaders;
  let heldHead = false;
  let streamed = false;

  // Once the body is known the originals come back: node's own end() and write() call writeHead() for an
  // implicit head, which must then really be written.
  const releaseHead = () => {
    res.writeHead = writeHead;
    res.write = write;
    res.end = end;
    res.flushHeaders = flushHeaders;
    if (!heldHead) return;
    heldHead = false;
    writeHead.call(res, res.statusCode);
  };

  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const message = typeof rest[0] === 'string' ? rest[0] : undefined;
    const headers = (message === undefined ? rest[0] : rest[1]) as Headers | undefined;
    // A raw header list is passed through as it is (nobody here sends one).
    if (Array.isArray(headers) || streamed || this.headersSent) {
      return (writeHead as (...a: unknown[]) => ServerResponse).call(this, status, ...rest);
    }
    this.statusCode = status;
    if (message !== undefined) this.statusMessage = message;
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (value !== undefined) this.setHeader(name, value as string | number | readonly string[]);
    }
    heldHead = true;
    return this;
  } as ServerResponse['writeHead'];

  res.flushHeaders = function (this: ServerResponse) {
    releaseHead();
    flushHeaders.call(this);
  };

  res.write = function (this: ServerResponse, ...args: unknown[]) {
    streamed = true;
    releaseHead();
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
      !this.headersSent &&
      body &&
      body.length >= COMPRESS_THRESHOLD &&
      !UNCHANGED_STATUS.has(this.statusCode) &&
      !this.hasHeader('Content-Encoding') &&
      isCompressible(String(this.getHeader('Content-Type') ?? '')) &&
      !forbidsTransform(String(this.getHeader('Cache-Control') ?? ''))
    ) {
      this.setHeader('Vary', varyOnAcceptEncoding(String(this.getHeader('Vary') ?? '')));
      const coding = chooseCoding(accept);
      if (coding !== 'identity') {
        const encoded = encodeSync(body, coding, 'dynamic');
        this.setHeader('Content-Encoding', coding);
        this.setHeader('Content-Length', encoded.length);
        const etag = this.getHeader('ETag');
        if (typeof etag === 'string' && !etag.startsWith('W/')) this.setHeader('ETag', `W/${etag}`);
        releaseHead();
        const callback = args.find((arg) => typeof arg === 'function');
        return (end as (...a: unknown[]) => ServerResponse).call(this, encoded, callback);
      }
    }
    releaseHead();
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['end'];
}
