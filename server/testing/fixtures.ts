import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiAuth } from '../auth/verify';
import type { AppDeps } from '../context';
import type { Db } from '../db/db';
import { migrate } from '../db/migrate';
import { openPglite, type PgliteImage, pgliteImage } from '../db/pglite';
import { seed } from '../db/seed';
import { HttpProblem } from '../http/problem';
import { silentLogger } from '../logger';
import type { StartServerOptions } from '../main';
import { basicEngine } from '../onboarding/engine';

export const SECRET = 'top-secret-outside-the-roots';

export interface SiteFixture {
  root: string;
  publicDir: string;
  distDir: string;
  remove(): void;
}

/**
 * How a test starts a real server: an ephemeral loopback port, its own in-memory database, no logs, and the
 * basic biometric engine unless `onboarding` is given (the reference engine's models take seconds to load,
 * during which /health answers 503). The tenants are the shipped ones (public/) unless the site's own
 * publicDir is given.
 */
export function testServerOptions(
  site: { distDir: string; publicDir?: string },
  extra: StartServerOptions = {},
): StartServerOptions {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: 'memory://',
    nodeEnv: 'test',
    logLevel: 'silent',
    publicDir: site.publicDir ?? 'public',
    distDir: site.distDir,
    onboarding: { engine: basicEngine },
    ...extra,
  };
}

/** A temp folder with public/ (two tenants and a folder that is not one), dist/ and a secret beside them. */
export function createSiteFixture(options: { withIndex?: boolean } = {}): SiteFixture {
  const root = mkdtempSync(join(tmpdir(), 'portal-site-'));
  const publicDir = join(root, 'public');
  const distDir = join(root, 'dist');
  const write = (path: string, content: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
  };
  for (const tenant of ['gambling', 'demo']) {
    write(join(publicDir, 'tenants', tenant, 'settings.json'), JSON.stringify({ tenant }));
    write(join(publicDir, 'tenants', tenant, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    write(join(publicDir, 'tenants', tenant, 'tos-es.md'), '# Términos');
  }
  write(join(publicDir, 'tenants', 'not-a-tenant', 'logo.svg'), '<svg/>');
  write(join(publicDir, 'browsers.json'), '{"chrome":{}}');
  if (options.withIndex !== false) {
    write(join(distDir, 'index.html'), '<!doctype html><title>portal</title><div id="root"></div>');
  }
  write(join(distDir, 'assets', 'index-abc123.js'), 'console.log(1);');
  write(join(distDir, 'assets', 'index-abc123.css'), 'body{}');
  write(join(distDir, 'favicon.svg'), '<svg/>');
  write(join(root, 'secret.txt'), SECRET);
  write(join(publicDir, 'secret.txt'), SECRET);
  return { root, publicDir, distDir, remove: () => rmSync(root, { recursive: true, force: true }) };
}

const TEST_ENV = 'test';
const DEFAULT_TENANTS = ['gambling', 'demo'] as const;
const tenantsKey = (tenants: readonly string[]) => tenants.join(',');

/** Migrates and seeds a new database the way createTestDb hands it out. */
export async function prepareTestDb(db: Db, tenants: readonly string[] = DEFAULT_TENANTS): Promise<void> {
  const { wasNew } = await migrate(db);
  await seed(db, { isNewDb: wasNew, nodeEnv: TEST_ENV, tenants });
}

/** The image of a migrated and seeded database (prepareTestDb), for setTestDbImage. */
export function testDbImage(tenants: readonly string[] = DEFAULT_TENANTS): Promise<PgliteImage> {
  return pgliteImage((db) => prepareTestDb(db, tenants));
}

const images = new Map<string, () => PgliteImage>();

/**
 * Registers the image of a migrated and seeded database (testDbImage, made once per test run by
 * tests/support/pglite-global-setup.ts): createTestDb for those tenants then loads a copy of it instead of
 * creating, migrating and seeding a database of its own.
 */
export function setTestDbImage(
  image: PgliteImage | (() => PgliteImage) | undefined,
  tenants: readonly string[] = DEFAULT_TENANTS,
): void {
  if (image === undefined) images.delete(tenantsKey(tenants));
  else images.set(tenantsKey(tenants), typeof image === 'function' ? image : () => image);
}

let testDbFactory: ((tenants: readonly string[]) => Promise<Db>) | undefined;

/**
 * Tests only: createTestDb asks this first (tests/support/setup-postgres.ts: a new PostgreSQL database copied
 * from a migrated and seeded template); undefined goes back to the PGlite image or a new PGlite.
 */
export function setTestDbFactory(factory: typeof testDbFactory): void {
  testDbFactory = factory;
}

/** In-memory database, migrated and seeded for the fixture tenants; each call gets a database of its own. */
export async function createTestDb(tenants: readonly string[] = DEFAULT_TENANTS): Promise<Db> {
  if (testDbFactory) return testDbFactory(tenants);
  const image = images.get(tenantsKey(tenants));
  if (image) return openPglite('memory://', { from: image() });
  const db = await openPglite('memory://');
  await prepareTestDb(db, tenants);
  return db;
}

export function testDeps(db: Db, site: SiteFixture, overrides: Partial<AppDeps['config']> = {}): AppDeps {
  return {
    db,
    tenants: ['demo', 'gambling'],
    logger: silentLogger,
    config: {
      distDir: site.distDir,
      publicDir: site.publicDir,
      serveSpa: true,
      version: '0.0.0-test',
      ...overrides,
    },
  };
}

/** The bearer `testAuth` accepts. */
export const TEST_BEARER = 'Bearer test-token';

/**
 * A stand-in for the token verifier in app-level tests without an identity provider: `TEST_BEARER` is a token
 * of whatever tenant the call names, holding no permission; anything else is a 401.
 */
export const testAuth: ApiAuth = {
  requireAuth:
    (...anyOf) =>
    async (c, next) => {
      if (c.req.header('authorization') !== TEST_BEARER) {
        throw new HttpProblem(401, 'A bearer token is required.', 'unauthorized');
      }
      if (anyOf.length > 0) throw new HttpProblem(403, 'Missing permission.', 'forbidden');
      c.set('auth', {
        iss: 'test',
        sub: 'test',
        exp: 4_000_000_000,
        tenant: c.get('tenant'),
        roles: [],
        enrolled: false,
      });
      await next();
    },
};
