// Test support for screens (never imported by the app): a Runtime whose app, session and API the test decides, in
// the shape src/app/runtime.ts gives a screen the real ones: the app actor's context (the person's language, the
// tenant and its settings), the session actor (who is signed in), the API client src/actors call, and navigate.
import { type Mock, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { createApiClient } from '../api/client';
import type { Notice } from '../api/errors';
import type { Session } from '../auth/access';
import type { Runtime } from '../runtime/context';

/** The API client as the runtime hands it to src/actors (screens never import src/api). */
type ApiClient = Awaited<ReturnType<Runtime['apiClient']>>;

/** API calls the test answers, by method; the others never settle. */
export type FakeApi = Partial<Record<keyof ApiClient, (...args: never[]) => Promise<unknown>>>;

export interface StubRuntimeOptions {
  /** The person's language (the app's context.locale); left out, the app's context has none. */
  locale?: string;
  /** The tenant the portal serves (the app's context.tenant), whose settings the screens read; left out, none. */
  tenant?: Record<string, unknown>;
  /**
   * Who is signed in (the session's context.session, the session in `authenticated.active` as the real one is once
   * restored); null or left out: nobody (`anonymous`).
   */
  session?: Partial<Session> | null;
  /** The calls the test answers (the others, and one given as undefined, never settle). */
  api?: FakeApi;
  /** A whole API client instead of `api`: the real one over a fetch the test answers (apiOverFetch). */
  client?: ApiClient;
}

export type StubRuntime = Runtime & { navigate: Mock };

export function stubRuntime({
  locale,
  tenant,
  session = null,
  api = {},
  client,
}: StubRuntimeOptions = {}): StubRuntime {
  const app = createActor(
    createMachine({
      id: 'app',
      context: { ...(locale === undefined ? {} : { locale }), ...(tenant === undefined ? {} : { tenant }) },
    }),
  ).start();
  const sessionActor = createActor(
    createMachine({
      id: 'session',
      context: { session },
      initial: session ? 'authenticated' : 'anonymous',
      states: { anonymous: {}, authenticated: { initial: 'active', states: { active: {} } } },
    }),
  ).start();
  const pending = () => new Promise<never>(() => {});
  const answered = Object.fromEntries(Object.entries(api).filter(([, call]) => call !== undefined));
  const fake = { get: pending, post: pending, put: pending, delete: pending, request: pending, ...answered };
  const runtime = {
    app,
    session: sessionActor,
    apiClient: () => Promise.resolve(client ?? (fake as ApiClient)),
    navigate: vi.fn(),
  };
  return runtime as unknown as StubRuntime;
}

/**
 * The real API client over a fetch the test answers (`answer` throws for a network failure; it is given the request
 * too), and the notices it raises: what the client says is what a person reads.
 */
export function apiOverFetch(answer: (url: string, request: Request) => Response) {
  const notices: Notice[] = [];
  const client = createApiClient({
    baseUrl: '/api',
    tenantId: 'gambling',
    getToken: () => 'token',
    renewOnce: async () => false,
    onUnauthorized: vi.fn(),
    notify: (notice) => notices.push(notice),
    navigate: vi.fn(),
    loading: { start: () => undefined, end: () => undefined },
    retryDelay: () => 0,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      return answer(request.url, request);
    },
  });
  return { client, notices };
}
