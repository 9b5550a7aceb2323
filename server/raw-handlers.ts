import type { IncomingMessage, ServerResponse } from 'node:http';

/** A plain node handler (e.g. oidc-provider's callback()) that answers requests under a path prefix. */
export type RawHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface MountOptions {
  /** Rewrites req.url without the prefix and keeps the original in req.originalUrl (what Koa apps expect). */
  stripPrefix?: boolean;
}

interface Mount {
  prefix: string;
  handler: RawHandler;
  stripPrefix: boolean;
}

export interface RawHandlers {
  /** Registers handler for `prefix` and everything below it; returns a function that unmounts it. */
  mount(prefix: string, handler: RawHandler, options?: MountOptions): () => void;
  /** The mount that owns this request, if any (longest prefix wins). */
  match(req: IncomingMessage): { handler: RawHandler; stripPrefix: boolean; prefix: string } | undefined;
}

function normalisePrefix(prefix: string): string {
  if (!prefix.startsWith('/')) throw new Error(`prefix must start with '/': ${prefix}`);
  return prefix.length > 1 ? prefix.replace(/\/+$/, '') : prefix;
}

// Matching uses the WHATWG-normalised path, the same one Hono routes on, so '..' cannot jump between them.
function pathnameOf(req: IncomingMessage): string | undefined {
  try {
    return new URL(req.url ?? '/', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

export function createRawHandlers(): RawHandlers {
  const mounts: Mount[] = [];
  return {
    mount(prefix, handler, options = {}) {
      const entry: Mount = {
        prefix: normalisePrefix(prefix),
        handler,
        stripPrefix: options.stripPrefix ?? false,
      };
      mounts.push(entry);
      mounts.sort((a, b) => b.prefix.length - a.prefix.length);
      return () => {
        const index = mounts.indexOf(entry);
        if (index >= 0) mounts.splice(index, 1);
      };
    },
    match(req) {
      const pathname = pathnameOf(req);
      if (pathname === undefined) return undefined;
      return mounts.find(
        (m) => m.prefix === '/' || pathname === m.prefix || pathname.startsWith(`${m.prefix}/`),
      );
    },
  };
}

export function stripPrefix(req: IncomingMessage & { originalUrl?: string }, prefix: string): void {
  const url = req.url ?? '/';
  req.originalUrl = url;
  const rest = new URL(url, 'http://localhost');
  const path = rest.pathname.slice(prefix.length) || '/';
  req.url = `${path.startsWith('/') ? path : `/${path}`}${rest.search}`;
}
