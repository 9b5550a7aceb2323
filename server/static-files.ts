import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { Context, MiddlewareHandler } from 'hono';
import {
  CODINGS,
  COMPRESS_THRESHOLD,
  type Coding,
  chooseCoding,
  encode,
  isCompressible,
} from './compression';
import { contentTypeFor } from './content-types';
import { notModified } from './http/conditional';
import type { AppEnv } from './http/env';
import { HttpProblem } from './http/problem';
import type { ShellPages } from './shell';

const NO_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';
// Paths the SPA must never shadow: they belong to the API, the identity provider, dev tools and probes.
const RESERVED = new Set(['api', 'auth', 'dev', 'health']);
// Folders that hold files: a bad path under them is an error, never the SPA.
const RESERVED_FILE_ROOTS = new Set(['assets', 'tenants', 'browsers.json']);
const NOT_BUILT =
  'The web app is not built: run `npm run build`, then start the server again ' +
  '(or use `npm run dev`, where Vite serves it).\n';

export interface StaticOptions {
  distDir: string;
  publicDir: string;
  /** The first paint of Welcome and Landing in the HTML (server/shell.ts); plain index.html without it. */
  shell?: ShellPages;
}

function safeDecode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

function isUnsafeSegment(segment: string): boolean {
  if (segment === '.' || segment === '..') return true;
  for (let i = 0; i < segment.length; i++) {
    const code = segment.charCodeAt(i);
    // '/' or '\' smuggled in by percent-encoding, NUL and other control characters.
    if (code < 0x20 || code === 0x7f || code === 0x2f || code === 0x5c) return true;
  }
  return false;
}

/** Decoded path segments, or undefined when the path tries to leave its root. */
export function decodePath(pathname: string): string[] | undefined {
  if (pathname.includes('\\')) return undefined;
  const segments: string[] = [];
  for (const part of pathname.split('/').slice(1)) {
    const segment = safeDecode(part);
    if (segment === undefined || isUnsafeSegment(segment)) return undefined;
    segments.push(segment);
  }
  return segments;
}

interface FoundFile {
  path: string;
  size: number;
  mtimeMs: number;
}

// Resolves segments under root; refuses anything (symlinks included) that ends up outside it.
async function findFile(root: string, segments: readonly string[]): Promise<FoundFile | undefined> {
  if (segments.length === 0 || segments.some((s) => s === '' || s.startsWith('.'))) return undefined;
  try {
    const realRoot = await realpath(root);
    const real = await realpath(resolve(realRoot, ...segments));
    if (!real.startsWith(realRoot + sep)) return undefined;
    const info = await stat(real);
    return info.isFile() ? { path: real, size: info.size, mtimeMs: info.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** A body to send: the file itself, the build's .br/.gz copy beside it, or a copy encoded here and kept. */
interface Representation {
  coding: Coding | 'identity';
  size: number;
  path?: string;
  bytes?: Uint8Array;
}

// Copies encoded on first request (public/ tenant files, dist files the build did not compress), by path,
// coding and version; tenant files are small and few, and a new version simply replaces the old one.
const MEMO_MAX_FILE = 512 * 1024;
const MEMO_MAX_ENTRIES = 500;
const memo = new Map<string, { version: string; bytes: Uint8Array | null }>();

async function prebuiltCopy(file: FoundFile, coding: Coding): Promise<Representation | undefined> {
  const path = `${file.path}.${coding === 'br' ? 'br' : 'gz'}`;
  try {
    const info = await stat(path);
    // A copy older than its file is left from another build: never send it.
    if (!info.isFile() || info.mtimeMs < file.mtimeMs) return undefined;
    return { coding, size: info.size, path };
  } catch {
    return undefined;
  }
}

async function encodedCopy(file: FoundFile, coding: Coding): Promise<Representation | undefined> {
  if (file.size > MEMO_MAX_FILE) return undefined;
  const key = `${file.path}\0${coding}`;
  const version = `${file.size}-${file.mtimeMs}`;
  let entry = memo.get(key);
  if (entry?.version !== version) {
    const original = await readFile(file.path);
    const encoded = await encode(original, coding, 'static');
    // Only when it saves bytes; `null` remembers that it does not.
    entry = { version, bytes: encoded.length < original.length ? encoded : null };
    if (memo.size >= MEMO_MAX_ENTRIES) memo.delete(memo.keys().next().value as string);
    memo.set(key, entry);
  }
  return entry.bytes ? { coding, size: entry.bytes.length, bytes: entry.bytes } : undefined;
}

/** The best representation the client accepts: a build copy first, else one encoded here, else the file. */
async function representationFor(c: Context<AppEnv>, file: FoundFile, type: string): Promise<Representation> {
  const identity: Representation = { coding: 'identity', size: file.size, path: file.path };
  if (!isCompressible(type)) return identity;
  // A build copy costs nothing to send, however small; encoding here is only worth it from 1 KB on.
  const encodeHere = file.size >= COMPRESS_THRESHOLD;
  const accept = c.req.header('accept-encoding');
  const tried = new Set<Coding>();
  for (;;) {
    const coding = chooseCoding(
      accept,
      CODINGS.filter((candidate) => !tried.has(candidate)),
    );
    if (coding === 'identity') return identity;
    const copy =
      (await prebuiltCopy(file, coding)) ?? (encodeHere ? await encodedCopy(file, coding) : undefined);
    if (copy) return copy;
    tried.add(coding);
  }
}

async function sendFile(c: Context<AppEnv>, file: FoundFile, cacheControl: string): Promise<Response> {
  const type = contentTypeFor(file.path);
  const chosen = await representationFor(c, file, type);
  const version = `${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}`;
  // One ETag per coding: a cache holding the gzip copy must not revalidate it as the Brotli one.
  const etag = `W/"${version}${chosen.coding === 'identity' ? '' : `-${chosen.coding}`}"`;
  const headers = new Headers({
    'Content-Type': type,
    'Cache-Control': cacheControl,
    ETag: etag,
    'Last-Modified': new Date(file.mtimeMs).toUTCString(),
  });
  if (isCompressible(type)) headers.set('Vary', 'Accept-Encoding');
  if (notModified(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  if (chosen.coding !== 'identity') headers.set('Content-Encoding', chosen.coding);
  headers.set('Content-Length', String(chosen.size));
  // HEAD gets the headers only: opening a stream nobody reads would leak the file handle.
  if (c.req.method === 'HEAD') return new Response(null, { status: 200, headers });
  const body = chosen.bytes
    ? (chosen.bytes as Uint8Array<ArrayBuffer>)
    : (Readable.toWeb(createReadStream(chosen.path ?? file.path)) as unknown as ReadableStream<Uint8Array>);
  return new Response(body, { status: 200, headers });
}

function acceptsHtml(c: Context<AppEnv>): boolean {
  return (c.req.header('accept') ?? '').toLowerCase().includes('text/html');
}

// curl and uptime probes send `Accept: */*` (or nothing) and must get the portal too; a path that names a
// file (favicon.ico, x.json) is a missing file for them, not a route, so it stays a 404.
function wantsPage(c: Context<AppEnv>, segments: readonly string[]): boolean {
  if (acceptsHtml(c)) return true;
  const accept = (c.req.header('accept') ?? '').trim();
  const anything = accept === '' || accept.split(',').some((part) => part.split(';')[0]?.trim() === '*/*');
  return anything && !(segments.at(-1) ?? '').includes('.');
}

function firstSegment(pathname: string): string {
  return (safeDecode(pathname.split('/')[1] ?? '') ?? '').toLowerCase();
}

/**
 * Serves public/ (tenant assets, browsers.json), the built SPA from dist/, and index.html for
 * history-mode routes. Registered as middleware so routes added later still match.
 */
export function staticFiles(options: StaticOptions): MiddlewareHandler<AppEnv> {
  const distDir = resolve(options.distDir);
  const publicDir = resolve(options.publicDir);
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const pathname = new URL(c.req.url).pathname;
    if (RESERVED.has(firstSegment(pathname))) return next();
    const segments = decodePath(pathname);
    if (!segments) {
      // No file is ever read for such a path, but a page navigation to a route whose parameter holds an
      // encoded '/' (the error screen's link, say) still gets the SPA, which validates it itself.
      if (acceptsHtml(c) && !RESERVED_FILE_ROOTS.has(firstSegment(pathname))) return sendIndex(c, distDir);
      throw new HttpProblem(400, 'The request path is not allowed.', 'invalid_path');
    }

    const [first] = segments;
    if (first === 'tenants' || (segments.length === 1 && first === 'browsers.json')) {
      const file = await findFile(publicDir, segments);
      if (!file) throw new HttpProblem(404, 'No such file.', 'not_found');
      return sendFile(c, file, NO_CACHE);
    }

    const file = await findFile(distDir, segments);
    if (file) return sendFile(c, file, first === 'assets' ? IMMUTABLE : NO_CACHE);
    if (first === 'assets') throw new HttpProblem(404, 'No such file.', 'not_found');

    if (!wantsPage(c, segments)) return next();
    return (await options.shell?.respond(c, pathname)) ?? sendIndex(c, distDir);
  };
}

async function sendIndex(c: Context<AppEnv>, distDir: string): Promise<Response> {
  const index = await findFile(distDir, ['index.html']);
  if (!index) {
    return new Response(NOT_BUILT, {
      status: 503,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': NO_CACHE },
    });
  }
  return sendFile(c, index, NO_CACHE);
}
