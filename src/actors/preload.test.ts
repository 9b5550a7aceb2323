import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { appMachine } from '../../machines/app.machine';
import { type StoredSession, sessionMachine } from '../../machines/session.machine';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Session } from '../auth/access';
import { PAGE_SIZES } from '../domain/lists';
import type { Runtime } from '../runtime/context';
import { screenOpenedAt } from '../runtime/opened-at';
import { accreditationLogic } from './accreditations';
import { auditFacilitiesLogic, auditListLogic } from './audit';
import { preloadFirstCalls } from './preload';
import { resetPreload, sameArgs } from './preloaded-calls';
import { usersListLogic } from './users';

const person: Session = {
  userId: 'u-1',
  userName: 'usermanager',
  firstName: 'Ana',
  roles: ['get_users_all'],
  enrolled: true,
  accessToken: 'token',
  expiresAt: 4_102_444_800,
  locale: 'es',
} as unknown as Session;

// The first run imports the actor and call modules (their schemas too), which takes a while on a busy machine.
const LOADING = { timeout: 20_000 };

const page = { items: [{ id: 'u-2' }], totalItems: 1 };

/**
 * A runtime whose session is restored from storage at once (`stored`: who is signed in, or a promise of it), and
 * whose API client is `api`.
 */
function runtimeWith(
  api: Partial<ApiClient>,
  stored: StoredSession | Promise<StoredSession> = { session: person, expired: false },
  app = createActor(appMachine, { input: { locale: 'es' } }),
): Runtime {
  const session = createActor(
    sessionMachine.provide({
      actors: {
        loadStoredSession: fromPromise<StoredSession>(() => Promise.resolve(stored)),
        // A renewal under way: it takes a round trip to the provider.
        renewSession: fromPromise<Session>(() => new Promise<never>(() => {})),
      },
    }),
    { input: { onPublicRoute: false, path: '/portal/users' } },
  ).start();
  return { app, session, apiClient: async () => api as ApiClient } as unknown as Runtime;
}

/** A list machine of PortalUsers as the screen starts it, settled on its first page. */
async function usersList(runtime: Runtime, pageSize = 20) {
  const list = createActor(usersListLogic(runtime), { input: { pageSize } }).start();
  return waitFor(list, (s) => !s.hasTag('busy'));
}

afterEach(() => resetPreload());

describe('the first calls of the screen a page opens on', () => {
  it("are the screen's: PortalUsers' list takes the page asked for at boot, and the server is asked once", async () => {
    const get = vi.fn(async () => page);
    const runtime = runtimeWith({ get } as Partial<ApiClient>);
    preloadFirstCalls(runtime, 'PortalUsers', () => true);
    await vi.waitFor(() => expect(get).toHaveBeenCalledTimes(1), LOADING);
    const settled = await usersList(runtime);
    expect(settled.matches('ready')).toBe(true);
    expect(settled.context.items).toEqual(page.items);
    expect(get).toHaveBeenCalledTimes(1);
    expect(get).toHaveBeenCalledWith(
      '/public/users',
      expect.objectContaining({
        searchParams: { pageSize: 20, pageIndex: 0, orderby: 'last_name', sorted: 'asc' },
      }),
    );
  });

  it('wait for the machine when it asks before the preload has sent them, then are its answer', async () => {
    const get = vi.fn(async () => page);
    const runtime = runtimeWith({ get } as Partial<ApiClient>);
    preloadFirstCalls(runtime, 'PortalUsers', () => true);
    // The machine asks at once, before the session is even restored.
    const settled = await usersList(runtime);
    expect(settled.context.items).toEqual(page.items);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it("give the machine the preloaded call's failure as its own call's: the list fails and offers a retry, which asks again", async () => {
    const failure = new ApiError({ kind: 'http', status: 503, message: 'unavailable' } as never);
    const get = vi.fn().mockRejectedValueOnce(failure).mockResolvedValue(page);
    const runtime = runtimeWith({ get } as Partial<ApiClient>);
    preloadFirstCalls(runtime, 'PortalUsers', () => true);
    await vi.waitFor(() => expect(get).toHaveBeenCalledTimes(1), LOADING);
    const list = createActor(usersListLogic(runtime), { input: { pageSize: 20 } }).start();
    await waitFor(list, (s) => s.matches('failed'));
    expect(get).toHaveBeenCalledTimes(1);
    list.send({ type: 'list.retry' });
    const ready = await waitFor(list, (s) => s.matches('ready'));
    expect(ready.context.items).toEqual(page.items);
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('are dropped when the machine asks for something else: it gets its own answer', async () => {
    const get = vi.fn(async (_path: string, options: { searchParams: { pageSize: number } }) => ({
      items: Array.from({ length: options.searchParams.pageSize }, (_, i) => ({ id: `u-${i}` })),
      totalItems: 50,
    }));
    const runtime = runtimeWith({ get } as unknown as Partial<ApiClient>);
    preloadFirstCalls(runtime, 'PortalUsers', () => true);
    await vi.waitFor(() => expect(get).toHaveBeenCalledTimes(1), LOADING);
    const settled = await usersList(runtime, 5);
    expect(settled.context.items).toHaveLength(5);
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('are given back by an actor stopped while waiting (StrictMode mounts twice): the next one takes them', async () => {
    let answer = (_: unknown) => {};
    const get = vi.fn(
      () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    );
    const runtime = runtimeWith({ get } as unknown as Partial<ApiClient>);
    preloadFirstCalls(runtime, 'PortalUsers', () => true);
    await vi.waitFor(() => expect(get).toHaveBeenCalledTimes(1), LOADING);
    const first = createActor(usersListLogic(runtime), { input: { pageSize: 20 } }).start();
    await Promise.resolve();
    first.stop();
    const second = createActor(usersListLogic(runtime), { input: { pageSize: 20 } }).start();
    answer(page);
    const settled = await waitFor(second, (s) => s.matches('ready'));
    expect(settled.context.items).toEqual(page.items);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('are not sent for a person the route refuses, nor for a screen with none', async () => {
    const get = vi.fn(async () => page);
    const runtime = runtimeWith({ get } as Partial<ApiClient>);
    preloadFirstCalls(runtime, 'PortalUsers', () => false);
    preloadFirstCalls(runtime, 'Welcome', () => true);
    await usersList(runtime);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it("of UserHome are the list and the QR, each taken by the home's accreditation machine", async () => {
    const qr = new Blob(['png']);
    const list = {
      user_id: 'u-1',
      metadata: { name: 'Ana' },
      activated: true,
      locations: [],
      credentials: { s1: { credential_type: 'qr', valid: true, state: 'active', ends_at: null } },
    };
    const get = vi.fn(async (path: string) => (path.endsWith('format=png') ? qr : list));
    const request = vi.fn(async (_method: string, path: string) => (path.includes('s1') ? qr : list));
    const runtime = runtimeWith({ get, request } as unknown as Partial<ApiClient>);
    preloadFirstCalls(runtime, 'UserHome', () => true);
    await vi.waitFor(() => expect(get.mock.calls.length + request.mock.calls.length).toBe(2), LOADING);
    const home = createActor(accreditationLogic(runtime), {
      input: { userId: 'u-1', sid: null, holder: null },
    }).start();
    const settled = await waitFor(home, (s) => s.matches('active'));
    expect(settled.context.qrImage).toBe(qr);
    expect(get.mock.calls.length + request.mock.calls.length).toBe(2);
  });
  it("of AuditAccesses are its first page up to the instant the screen opens, and its filter's facilities: the screen opens at that instant and asks nothing again", async () => {
    const auditor = { ...person, roles: ['post_accesses_myscope'] } as Session;
    const accesses = { items: [{ access_id: 'a-1' }], total: 1, totalIsLowerBound: false };
    const get = vi.fn(async (path: string) => (path === '/internal/facilities' ? [] : accesses));
    const runtime = runtimeWith({ get } as unknown as Partial<ApiClient>, {
      session: auditor,
      expired: false,
    });
    await preloadFirstCalls(runtime, 'AuditAccesses', () => true);
    await vi.waitFor(() => expect(get).toHaveBeenCalledTimes(2), LOADING);
    // The screen is drawn a moment later; it opens at the instant the preload asked with, not at its own.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const openedAt = screenOpenedAt();
    expect(Date.now() - openedAt.getTime()).toBeGreaterThanOrEqual(5);
    expect(get).toHaveBeenCalledWith(
      '/public/audit_accesses',
      expect.objectContaining({
        searchParams: expect.objectContaining({
          pageIndex: 0,
          pageSize: PAGE_SIZES.audit,
          to: new Date(openedAt.getTime() + 1).toISOString(),
        }),
      }),
    );
    expect(get).toHaveBeenCalledWith(
      '/internal/facilities',
      expect.objectContaining({ searchParams: { mine: 1 } }),
    );
    const list = createActor(
      auditListLogic(runtime, '', () => openedAt),
      {
        input: { pageSize: PAGE_SIZES.audit },
      },
    ).start();
    const facilities = createActor(auditFacilitiesLogic(runtime, true)).start();
    const ready = await waitFor(list, (s) => s.matches('ready'));
    await waitFor(facilities, (s) => s.status === 'done');
    expect(ready.context.items).toEqual(accesses.items);
    expect(get).toHaveBeenCalledTimes(2);
    // Taken: the screen opened again opens then, and asks the server itself.
    expect(screenOpenedAt().getTime()).toBeGreaterThan(openedAt.getTime());
  });
});

describe('the wait for the first calls (the first render waits on it)', () => {
  it('ends once they have gone out, without waiting for their answers, and stops watching the app', async () => {
    const get = vi.fn(() => new Promise<never>(() => {}));
    const runtime = runtimeWith({ get } as Partial<ApiClient>);
    const watching = new Set<object>();
    const subscribe = runtime.app.subscribe.bind(runtime.app);
    runtime.app.subscribe = ((...args: Parameters<typeof subscribe>) => {
      const subscription = subscribe(...args);
      watching.add(subscription);
      return {
        unsubscribe: () => {
          watching.delete(subscription);
          subscription.unsubscribe();
        },
      };
    }) as typeof runtime.app.subscribe;
    await preloadFirstCalls(runtime, 'PortalUsers', () => true);
    expect(get).toHaveBeenCalledTimes(1);
    expect(watching.size).toBe(0);
  });

  it('ends without a call when there is none to wait for: no first calls, a refused person, nobody signed in', async () => {
    const get = vi.fn(async () => page);
    await preloadFirstCalls(runtimeWith({ get } as Partial<ApiClient>), 'Welcome', () => true);
    await preloadFirstCalls(runtimeWith({ get } as Partial<ApiClient>), 'PortalUsers', () => false);
    const anonymous = { session: null, expired: false } as unknown as StoredSession;
    await preloadFirstCalls(runtimeWith({ get } as Partial<ApiClient>, anonymous), 'PortalUsers', () => true);
    expect(get).not.toHaveBeenCalled();
  });

  it('ends when the session is being renewed, while the calls wait for the renewal', async () => {
    const get = vi.fn(async () => page);
    const expired = { session: person, expired: true } as StoredSession;
    await preloadFirstCalls(runtimeWith({ get } as Partial<ApiClient>, expired), 'PortalUsers', () => true);
    expect(get).not.toHaveBeenCalled();
  });

  it('ends when the tenant did not load (the session is never read then)', async () => {
    const get = vi.fn(async () => page);
    const app = createActor(
      appMachine.provide({
        actors: { loadTenant: fromPromise(async () => Promise.reject(new Error('unreachable'))) },
      }),
      { input: { locale: 'es' } },
    ).start();
    const runtime = runtimeWith({ get } as Partial<ApiClient>, new Promise<never>(() => {}), app);
    await preloadFirstCalls(runtime, 'PortalUsers', () => true);
    expect(runtime.session.getSnapshot().matches('checking')).toBe(true);
    expect(get).not.toHaveBeenCalled();
  });
});

describe('sameArgs', () => {
  it('compares plain values by value, leaves the signal out, and anything else by identity', () => {
    const api = {};
    const handlers = { 404: () => {} };
    expect(
      sameArgs(
        [api, { pageSize: 20 }, { signal: new AbortController().signal, handlers }],
        [api, { pageSize: 20 }, { signal: new AbortController().signal, handlers }],
      ),
    ).toBe(true);
    expect(sameArgs([api, { pageSize: 20 }], [api, { pageSize: 10 }])).toBe(false);
    expect(sameArgs([{}], [{ a: 1 }])).toBe(false);
    expect(sameArgs([api], [{}])).toBe(true);
    expect(sameArgs([new Map()], [new Map()])).toBe(false);
    expect(sameArgs([{ handlers }], [{ handlers: { 404: () => {} } }])).toBe(false);
  });
});
