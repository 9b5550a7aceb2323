// The portal's icon in the tenant's brand colour: /favicon.svg for browsers that take SVG icons (index.html
// links it) and /favicon.ico (16 and 32 px PNGs in an ICO) for those that ask for it by name, the identity
// provider's pages included. The tenant is the host's (spec §1), as the SPA resolves it.
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { tenantFromHost } from '../contract/tenant/resolve';
import { readTheme } from './auth/pages';
import { notModified } from './http/conditional';
import type { AppEnv } from './http/env';

/** A day: the icon follows a change of brand colour within that, and costs no request before. */
export const FAVICON_CACHE = 'public, max-age=86400';
const ICO_SIZES = [16, 32] as const;

export function faviconSvg(color: string): string {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    `<rect width="32" height="32" rx="8" fill="${color}"/>` +
    '<circle cx="16" cy="13" r="5" fill="#fff"/><path d="M7 27c2-5 5-8 9-8s7 3 9 8" fill="#fff"/></svg>'
  );
}

/** An ICO file holding PNG images (supported by every browser since Windows Vista's icon format). */
export function icoOf(images: readonly { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt8(0, entry + 2);
    header.writeUInt8(0, entry + 3);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((image) => image.png)]);
}

async function renderIco(color: string): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const svg = Buffer.from(faviconSvg(color));
  const images = await Promise.all(
    ICO_SIZES.map(async (size) => ({
      size,
      png: await sharp(svg, { density: 300 }).resize(size, size).png({ compressionLevel: 9 }).toBuffer(),
    })),
  );
  return icoOf(images);
}

export function faviconRoutes(publicDir: string, knownTenants: readonly string[]): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Rendered once per colour: a tenant's colour changes seldom, and there are a handful of tenants.
  const icos = new Map<string, Promise<Buffer>>();

  const colorOf = (c: Context<AppEnv>): string => {
    const host = (c.req.header('host') ?? '').replace(/:\d+$/, '');
    const resolved = tenantFromHost(host);
    const tenant =
      resolved.kind === 'tenant' && knownTenants.includes(resolved.tenant) ? resolved.tenant : null;
    return tenant ? readTheme(publicDir, tenant).brandColor : '#0D55FF';
  };

  const send = (c: Context<AppEnv>, body: string | Buffer, type: string): Response => {
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;
    const headers = { 'Content-Type': type, 'Cache-Control': FAVICON_CACHE, ETag: etag };
    if (notModified(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(bytes), {
      status: 200,
      headers: { ...headers, 'Content-Length': String(bytes.length) },
    });
  };

  app.on(['GET', 'HEAD'], '/favicon.svg', (c) => send(c, faviconSvg(colorOf(c)), 'image/svg+xml'));
  app.on(['GET', 'HEAD'], '/favicon.ico', async (c) => {
    const color = colorOf(c);
    let ico = icos.get(color);
    if (!ico) {
      ico = renderIco(color);
      icos.set(color, ico);
      ico.catch(() => icos.delete(color));
    }
    return send(c, await ico, 'image/x-icon');
  });
  return app;
}
