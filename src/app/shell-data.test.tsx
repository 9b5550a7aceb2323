import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise } from 'xstate';
import { type TenantSettings, tenantSettings } from '../../contract/api/settings';
import { unsignedJwt } from '../../tests/support/unsigned-jwt';
import { isSettled, renderShellWithData } from './shell-data';

// The paint with data is drawn once the screen's machines have settled over the API's answers, and the page carries
// those answers for the app's own first calls. A call that answers later than another is still one of them.

const settings = tenantSettings(
  JSON.parse(readFileSync('public/tenants/gambling/settings.json', 'utf8')),
) as TenantSettings;
const messages = JSON.parse(readFileSync('src/i18n/messages/es.json', 'utf8')) as Record<string, string>;

const auditor = unsignedJwt({
  iss: 'http://localhost:8080/auth/realms/gambling',
  sub: 'a-1',
  aud: 'urn:identity-portal:api',
  client_id: 'portal',
  scope: 'openid profile roles email',
  iat: 1_700_000_000,
  exp: 2_000_000_000,
  tenant: 'gambling',
  roles: ['post_audit_accesses_all'],
  preferred_username: 'auditor',
  email: 'auditor@gambling.example',
  name: 'Auditora',
  enrolled: false,
  acs_id: null,
  location: null,
});

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('the paint of a data screen', () => {
  it("waits for every call the screen starts: the access audit's facilities, answered after its first page, are drawn and carried", async () => {
    // Once before, both answering at once: the modules and schemas the calls load are then ready, and the page's
    // answer reaches its machine at once.
    const facility = { facility_id: 'f-1', alias: 'Sala Norte', timezone: 'Europe/Madrid' };
    const input = {
      tenant: 'gambling',
      settings,
      locale: 'es',
      messages,
      screen: 'AuditAccesses',
      accessToken: auditor,
      origin: 'http://localhost:8080',
    } as const;
    const emptyPage = { items: [], total: 0, totalIsLowerBound: false, pageIndex: 0, pageSize: 25 };
    await renderShellWithData({
      ...input,
      fetch: async (request) =>
        json(new URL(request.url).pathname === '/api/internal/facilities' ? [facility] : emptyPage),
    });
    const asked: string[] = [];
    let pageSent = () => {};
    const page = new Promise<void>((resolve) => {
      pageSent = resolve;
    });
    const painted = await renderShellWithData({
      ...input,
      fetch: async (request) => {
        const { pathname } = new URL(request.url);
        asked.push(pathname);
        if (pathname === '/api/public/audit_accesses') {
          pageSent();
          return json(emptyPage);
        }
        if (pathname === '/api/internal/facilities') {
          // Well after the page: the list's machine has settled before it.
          await page;
          await new Promise((resolve) => setTimeout(resolve, 200));
          return json([facility]);
        }
        return new Response(null, { status: 404 });
      },
    });
    expect(asked.sort()).toEqual(['/api/internal/facilities', '/api/public/audit_accesses']);
    expect(painted?.answers.map((answer) => new URL(answer.url, 'http://x').pathname).sort()).toEqual([
      '/api/internal/facilities',
      '/api/public/audit_accesses',
    ]);
    expect(painted?.markup).toContain('Sala Norte');
  });
});

describe('an actor is settled', () => {
  const idle = createMachine({ initial: 'waiting', states: { waiting: {} } });
  const never = fromPromise(() => new Promise<never>(() => undefined));

  it('when it is a machine waiting for an event, or has ended; not while a promise of its own is at work', async () => {
    expect(isSettled(createActor(idle).start())).toBe(true);
    expect(isSettled(createActor(never).start())).toBe(false);
    const done = createActor(fromPromise(async () => 1)).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(isSettled(done)).toBe(true);
  });

  it('when its children are, however deep', () => {
    const calling = createMachine({ initial: 'loading', states: { loading: { invoke: { src: never } } } });
    const parent = (child: typeof idle) =>
      createMachine({ initial: 'on', states: { on: { invoke: { src: child } } } });
    expect(isSettled(createActor(parent(idle)).start())).toBe(true);
    expect(isSettled(createActor(parent(calling)).start())).toBe(false);
  });
});
