// Test harness: the real app (tenant middleware, problem bodies) with the onboarding routes mounted under /api,
// a fake requireAuth that takes the token claims from the x-test-claims header, a settable clock and the
// fixture images of tests/fixtures/images.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AccessTokenClaims } from '../../../contract/api/access-token';
import type { Permission } from '../../../contract/api/permissions';
import { type App, createApp } from '../../app';
import type { Db } from '../../db/db';
import type { Faults } from '../../enforcement/source';
import { HttpProblem } from '../../http/problem';
import { createKnownOrigins } from '../../origins';
import { createSiteFixture, createTestDb, type SiteFixture, testDeps } from '../../testing/fixtures';
import { basicEngine } from '../engine';
import { type OnboardingAuth, type OnboardingOptions, onboardingRoutes } from '../routes';
import { seedProhibitedList } from '../seed';
import { FIXTURES_DIR } from './make-fixtures';

export const PUBLIC_DIR = fileURLToPath(new URL('../../../public/', import.meta.url));
export const CLAIMS_HEADER = 'x-test-claims';

export const fakeAuth: OnboardingAuth = {
  requireAuth:
    (...anyOf: Permission[]) =>
    async (c, next) => {
      const raw = c.req.header(CLAIMS_HEADER);
      if (!raw) throw new HttpProblem(401, 'A bearer token is required.', 'unauthorized');
      const claims = JSON.parse(raw) as AccessTokenClaims;
      if (claims.tenant !== c.get('tenant'))
        throw new HttpProblem(401, 'Token of another tenant.', 'unauthorized');
      // As server/auth/verify.ts: no permission named means any signed-in caller.
      if (anyOf.length > 0 && !anyOf.some((permission) => claims.roles.includes(permission))) {
        throw new HttpProblem(403, 'Missing permission.', 'forbidden');
      }
      c.set('auth', claims);
      await next();
    },
};

export interface Person {
  sub: string;
  tenant: string;
  roles: string[];
  email?: string;
}

export const USER_ROLES = ['post_onboardings_auto', 'get_users_me', 'can_view_accreditations'];
export const ASSISTANT_ROLES = ['post_onboardings_assisted', 'can_view_complete_onboardings'];

export function person(sub: string, tenant = 'gambling', roles = USER_ROLES): Person {
  return { sub, tenant, roles, email: `${sub}@example.test` };
}

export function headersOf(who: Person | undefined, tenant?: string): Record<string, string> {
  const headers: Record<string, string> = { 'tenant-id': tenant ?? who?.tenant ?? 'gambling' };
  if (who) {
    const claims: AccessTokenClaims = {
      iss: `http://localhost/auth/realms/${who.tenant}`,
      sub: who.sub,
      exp: 4_000_000_000,
      tenant: who.tenant,
      roles: who.roles,
      enrolled: false,
      ...(who.email ? { email: who.email } : {}),
    };
    headers[CLAIMS_HEADER] = JSON.stringify(claims);
  }
  return headers;
}

export function fixture(name: string): Buffer {
  return readFileSync(join(FIXTURES_DIR, name));
}

/** A JPEG COM segment's most payload bytes (its length field counts itself, and holds at most 65535). */
const COMMENT_MAX = 65_533;

/**
 * A real, decodable JPEG (the tiny fixture) of exactly `size` bytes: comment segments after its start marker
 * carry the rest, filled with `fill`. For tests about byte bounds on images that must also pass decoding.
 */
export function paddedJpeg(size: number, fill = 0x20): Buffer {
  const base = fixture('tiny.jpg');
  let extra = size - base.length;
  if (extra < 0 || (extra > 0 && extra < 4)) throw new Error(`no padded JPEG of ${size} bytes`);
  const segments: Buffer[] = [];
  while (extra > 0) {
    let total = Math.min(extra, 4 + COMMENT_MAX);
    // Leave nothing a segment cannot hold (every segment takes at least its 4 header bytes).
    if (extra - total > 0 && extra - total < 4) total -= 4;
    const segment = Buffer.alloc(total, fill);
    segment.set([0xff, 0xfe]);
    segment.writeUInt16BE(total - 2, 2);
    segments.push(segment);
    extra -= total;
  }
  return Buffer.concat([base.subarray(0, 2), ...segments, base.subarray(2)]);
}

export interface Harness {
  app: App;
  db: Db;
  faults: Faults;
  clock: { now: Date; advance(ms: number): void };
  call(
    method: string,
    path: string,
    who: Person | undefined,
    body?: unknown,
    init?: { contentType?: string; tenant?: string },
  ): Promise<Response>;
  close(): Promise<void>;
}

/** A new app and clock; on the database of `share` when given (faster: no second migration). */
export async function makeHarness(
  options: Partial<OnboardingOptions> = {},
  share?: Harness,
): Promise<Harness> {
  const db = share?.db ?? (await createTestDb());
  if (!share) {
    for (const tenant of ['gambling', 'demo']) {
      await db.transaction((tx) => seedProhibitedList(tx, tenant, { facilities: [] }));
    }
  }
  const site: SiteFixture = createSiteFixture();
  const base = testDeps(db, site, { publicDir: PUBLIC_DIR });
  // The default known origins on port 8080: localhost and gambling.localhost (gambling), demo.localhost (demo).
  const deps = { ...base, origins: createKnownOrigins({ tenants: base.tenants, port: () => 8080 }) };
  const app = createApp(deps);
  const clock = {
    now: new Date('2025-06-01T10:00:00.000Z'),
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
    },
  };
  const faults: Faults = { enforcement: false };
  app.route(
    '/api',
    onboardingRoutes(deps, fakeAuth, {
      engine: basicEngine,
      resultDelayMs: 0,
      now: () => clock.now,
      faults,
      production: false,
      ...options,
    }),
  );
  return {
    app,
    db,
    faults,
    clock,
    async call(method, path, who, body, init = {}) {
      const headers = headersOf(who, init.tenant);
      let payload: BodyInit | undefined;
      if (body instanceof Uint8Array) {
        payload = new Blob([Uint8Array.from(body)]);
        headers['content-type'] = init.contentType ?? 'image/jpeg';
      } else if (body instanceof FormData) {
        payload = body;
      } else if (body !== undefined) {
        payload = JSON.stringify(body);
        headers['content-type'] = 'application/json';
      }
      return app.request(`/api${path}`, { method, headers, body: payload });
    },
    async close() {
      if (!share) await db.close();
      site.remove();
    },
  };
}

/** A registration payload of an adult with a valid document; override what a test needs. */
export function payload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    first_name: 'Carmen',
    last_name: 'Española Española',
    birth_date: '1980-01-01',
    expiry_date: '2031-01-01',
    id_number: '99999999R',
    document_number: `DOC${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
    document_type: 'id_card',
    expedition_country: 'ES',
    nationality: 'ESP',
    email: null,
    extra_fields: {},
    ...overrides,
  };
}

export interface Started {
  onboardingId: string;
  portrayalId: string;
}

/** Onboarding created, legal terms accepted, identity portrayal created; images not sent yet. */
export async function startOnboarding(
  h: Harness,
  who: Person,
  body: Record<string, unknown> = { mode: 'auto' },
  portrayal: Record<string, unknown> = {
    portrayal_type: 'document',
    document_type: 'id_card',
    document_country: 'es',
  },
): Promise<Started> {
  const created = await h.call('POST', '/internal/onboardings', who, body);
  if (created.status !== 201) throw new Error(`create onboarding: ${created.status} ${await created.text()}`);
  const { onboarding_id: onboardingId } = (await created.json()) as { onboarding_id: string };
  const terms = await h.call('PUT', `/internal/onboardings/${onboardingId}/legal_terms`, who);
  if (terms.status !== 200) throw new Error(`legal terms: ${terms.status}`);
  const made = await h.call('POST', '/internal/portrayals', who, {
    user_id: who.sub,
    onboarding_id: onboardingId,
    ...portrayal,
  });
  if (made.status !== 201) throw new Error(`create portrayal: ${made.status} ${await made.text()}`);
  const { portrayal_id: portrayalId } = (await made.json()) as { portrayal_id: string };
  return { onboardingId, portrayalId };
}

export async function upload(
  h: Harness,
  who: Person,
  portrayalId: string,
  kind: string,
  name: string,
): Promise<Response> {
  const bytes = fixture(name);
  return h.call('PUT', `/internal/portrayals/${portrayalId}/${kind}`, who, new Uint8Array(bytes), {
    contentType: name.endsWith('.png') ? 'image/png' : 'image/jpeg',
  });
}

/** Started, images sent (document JPEG, reverse PNG, selfie PNG), result fetched. */
export async function readyPortrayal(
  h: Harness,
  who: Person,
  body?: Record<string, unknown>,
): Promise<Started> {
  const started = await startOnboarding(h, who, body);
  for (const [kind, name] of [
    ['obverse', 'document.jpg'],
    ['reverse', 'document.png'],
    ['selfie', 'selfie.png'],
  ] as const) {
    const res = await upload(h, who, started.portrayalId, kind, name);
    if (res.status !== 200) throw new Error(`upload ${kind}: ${res.status} ${await res.text()}`);
  }
  const result = await h.call('GET', `/internal/portrayals/${started.portrayalId}`, who);
  if (result.status !== 200) throw new Error(`result: ${result.status} ${await result.text()}`);
  return started;
}

export async function confirm(
  h: Harness,
  who: Person,
  started: Started,
  data: Record<string, unknown> = payload(),
): Promise<Response> {
  return h.call(
    'PUT',
    `/internal/onboardings/${started.onboardingId}/portrayals/${started.portrayalId}`,
    who,
    data,
  );
}
