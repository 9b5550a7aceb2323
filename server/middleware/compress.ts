// Compresses the API's text answers (JSON lists, problems) of COMPRESS_THRESHOLD bytes or more with the best
// coding the client accepts. Hono's own compress middleware offers no Brotli and, without a Content-Length,
// encodes even a 40-byte body; the answers here are buffered JSON, so the size is known before choosing.
import type { MiddlewareHandler } from 'hono';
import {
  COMPRESS_THRESHOLD,
  chooseCoding,
  encode,
  encodeSync,
  forbidsTransform,
  isCompressible,
  varyOnAcceptEncoding,
} from '../compression';
import type { AppEnv } from '../context';

/** Above this the encoding leaves the event loop for zlib's thread pool. */
const SYNC_LIMIT = 64 * 1024;
const UNCHANGED = new Set([204, 206, 304]);

export function compressResponses(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (
      c.req.method === 'HEAD' ||
      UNCHANGED.has(res.status) ||
      !res.body ||
      res.headers.has('Content-Encoding') ||
      !isCompressible(res.headers.get('Content-Type')) ||
      forbidsTransform(res.headers.get('Cache-Control'))
    ) {
      return;
    }
    const declared = Number(res.headers.get('Content-Length') ?? Number.NaN);
    if (declared < COMPRESS_THRESHOLD) return;
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    const coding =
      body.length < COMPRESS_THRESHOLD ? 'identity' : chooseCoding(c.req.header('Accept-Encoding'));
    if (body.length >= COMPRESS_THRESHOLD) headers.set('Vary', varyOnAcceptEncoding(headers.get('Vary')));
    let sent: Uint8Array = body;
    if (coding !== 'identity') {
      sent =
        body.length > SYNC_LIMIT
          ? await encode(body, coding, 'dynamic')
          : encodeSync(body, coding, 'dynamic');
      headers.set('Content-Encoding', coding);
      const etag = headers.get('ETag');
      if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
    }
    headers.set('Content-Length', String(sent.length));
    c.res = undefined;
    c.res = new Response(sent as Uint8Array<ArrayBuffer>, {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  };
}
