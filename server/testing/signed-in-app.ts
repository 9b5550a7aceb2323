// The set-up of the API route tests: the real app (tenant middleware, problem bodies, every router) on a test
// database, signed in through the fake auth of the onboarding harness (claims from the x-test-claims header),
// and one request helper; no socket is opened, requests go through app.request. And for the tests that sign in
// through the identity provider, one real server per file.
import { afterAll, beforeAll } from 'vitest';
import { type App, createApp } from '../app';
import type { AppDeps } from '../context';
import type { Db } from '../db/db';
import { type RunningServer, type StartServerOptions, startServer } from '../main';
import { basicEngine } from '../onboarding/engine';
import type { OnboardingOptions } from '../onboarding/routes';
import { fakeAuth, headersOf, type Person, PUBLIC_DIR } from '../onboarding/testing/harness';
import { createKnownOrigins, type KnownOrigins } from '../origins';
import { createSiteFixture, createTestDb, type SiteFixture, testDeps, testServerOptions } from './fixtures';

export interface SignedInAppOptions {
  /** Over the basic engine in development mode (the reference engine's models take seconds to load). */
  onboarding?: Partial<OnboardingOptions>;
  /** The known origins; `'default'`: localhost and <tenant>.localhost on port 8080. None when omitted. */
  origins?: KnownOrigins | 'default';
  /** The tenants' folder; the shipped public/ when omitted (`'site'`: the site fixture's own). */
  publicDir?: string | 'site';
  /** Anything else of the app's dependencies (the visits clock, …). */
  deps?: Partial<AppDeps>;
}

export interface SignedInApp {
  app: App;
  db: Db;
  site: SiteFixture;
  /**
   * A request to `/api${path}` as `who` (anonymous when undefined), in `tenant` or the person's own. A FormData
   * body goes as it is, a string as raw JSON text, anything else as JSON.
   */
  call(
    method: string,
    path: string,
    who: Person | undefined,
    body?: unknown,
    tenant?: string,
  ): Promise<Response>;
  /** Another app on the same database and site (a second server process, another clock, …). */
  another(options?: SignedInAppOptions): App;
  close(): Promise<void>;
}

/** The default known origins on port 8080: localhost and gambling.localhost (gambling), demo.localhost (demo). */
export const defaultOrigins = (): KnownOrigins =>
  createKnownOrigins({ tenants: ['gambling', 'demo'], port: () => 8080 });

function appOn(db: Db, site: SiteFixture, options: SignedInAppOptions): App {
  const publicDir = options.publicDir === 'site' ? site.publicDir : (options.publicDir ?? PUBLIC_DIR);
  const origins = options.origins === 'default' ? defaultOrigins() : options.origins;
  return createApp({
    ...testDeps(db, site, { publicDir }),
    auth: fakeAuth,
    onboarding: { engine: basicEngine, production: false, ...options.onboarding },
    ...(origins ? { origins } : {}),
    ...options.deps,
  });
}

/** Builds the request `call` sends (see SignedInApp.call). */
export function signedInRequest(
  method: string,
  who: Person | undefined,
  body?: unknown,
  tenant?: string,
): RequestInit {
  const headers = headersOf(who, tenant);
  if (body === undefined) return { method, headers };
  if (body instanceof FormData) return { method, headers, body };
  headers['content-type'] = 'application/json';
  return { method, headers, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

/** A new app on a new test database and site fixture. */
export async function signedInApp(options: SignedInAppOptions = {}): Promise<SignedInApp> {
  const db = await createTestDb();
  const site = createSiteFixture();
  const app = appOn(db, site, options);
  return {
    app,
    db,
    site,
    call: async (method, path, who, body, tenant) =>
      app.request(`/api${path}`, signedInRequest(method, who, body, tenant)),
    another: (other = options) => appOn(db, site, other),
    async close() {
      await db.close();
      site.remove();
    },
  };
}

/**
 * One signed-in app for the whole test file: made before its first test, closed after its last. Its fields can
 * be read inside tests and hooks only (a beforeAll declared after this call runs once the app is made).
 */
export function signedInAppForFile(options: SignedInAppOptions = {}): SignedInApp {
  let current: SignedInApp | undefined;
  beforeAll(async () => {
    current = await signedInApp(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  const ready = (): SignedInApp => {
    if (!current) throw new Error('the signed-in app is made in beforeAll: use it inside tests and hooks');
    return current;
  };
  return {
    get app() {
      return ready().app;
    },
    get db() {
      return ready().db;
    },
    get site() {
      return ready().site;
    },
    call: (...args) => ready().call(...args),
    another: (other) => ready().another(other),
    close: () => ready().close(),
  };
}

/** A real server on loopback (testServerOptions) over a site fixture, and the base URL its sign-in pages use. */
export interface StartedServer {
  server: RunningServer;
  site: SiteFixture;
  /** http://localhost:<port> */
  base: string;
}

/**
 * One real server for the whole test file, started before its first test and stopped after its last; `extra`
 * over testServerOptions; `timeoutMs` for the start when the file's hook timeout is too short. Its fields can be read
 * inside tests and hooks only.
 */
export function startedServerForFile(extra: StartServerOptions = {}, timeoutMs?: number): StartedServer {
  let current: StartedServer | undefined;
  beforeAll(async () => {
    const site = createSiteFixture();
    try {
      const server = await startServer(testServerOptions({ distDir: site.distDir }, extra));
      current = { server, site, base: `http://localhost:${server.port}` };
    } catch (error) {
      site.remove();
      throw error;
    }
  }, timeoutMs);
  afterAll(async () => {
    if (!current) return;
    await current.server.close();
    current.site.remove();
  });
  const ready = (): StartedServer => {
    if (!current) throw new Error('the server is started in beforeAll: use it inside tests and hooks');
    return current;
  };
  return {
    get server() {
      return ready().server;
    },
    get site() {
      return ready().site;
    },
    get base() {
      return ready().base;
    },
  };
}
