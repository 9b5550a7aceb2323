// @vitest-environment jsdom
import { type } from 'arktype';
import { describe, expect, it, vi } from 'vitest';
import { type ApiClientDeps, createApiClient } from './client.ts';
import type { Notice } from './errors.ts';
import { ApiError } from './errors.ts';

type Responder = (request: Request, call: number) => Response | Promise<Response>;

const json = (status: number, body: unknown, statusText = '') =>
  new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });

const problem = (status: number, fields: Record<string, unknown> = {}, statusText = '') =>
  json(status, { status, title: '', detail: '', ...fields }, statusText);

const networkDown = (): never => {
  throw new TypeError('Failed to fetch');
};

// Replies in order; the last one repeats.
const sequence =
  (...replies: Array<() => Response>): Responder =>
  (_request, call) =>
    (replies[Math.min(call, replies.length - 1)] as () => Response)();

function setup(respond: Responder, overrides: Partial<ApiClientDeps> = {}) {
  const requests: Request[] = [];
  // Read at send time: ky cancels request bodies once the call settles.
  const bodies: string[] = [];
  const log: string[] = [];
  let token: string | undefined = 'old-token';
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const call = requests.length;
    requests.push(request);
    bodies.push(await request.clone().text());
    log.push(`fetch ${request.method}`);
    return respond(request, call);
  });
  const deps = {
    baseUrl: '/api',
    tenantId: 'acme',
    getToken: vi.fn(() => token),
    renewOnce: vi.fn(async () => {
      token = 'new-token';
      return true;
    }),
    onUnauthorized: vi.fn(() => log.push('unauthorized')),
    notify: vi.fn((notice: Notice) => log.push(`notify ${JSON.stringify(notice)}`)),
    navigate: vi.fn((path: string) => log.push(`navigate ${path}`)),
    loading: { start: vi.fn(() => log.push('start')), end: vi.fn(() => log.push('end')) },
    fetch: fetch as unknown as typeof globalThis.fetch,
    retryDelay: vi.fn(() => 0),
    ...overrides,
  } satisfies ApiClientDeps;
  const setToken = (value: string | undefined) => {
    token = value;
  };
  return { api: createApiClient(deps), deps, requests, bodies, fetch, log, setToken };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

describe('headers and URL', () => {
  it('sends tenant-id and the bearer token on an authenticated call', async () => {
    const { api, requests } = setup(() => json(200, { ok: true }));
    await expect(
      api.get('/internal/facilities', { searchParams: { pageSize: 10, filter: undefined } }),
    ).resolves.toEqual({
      ok: true,
    });
    const [request] = requests;
    expect(request?.url).toBe('http://localhost:3000/api/internal/facilities?pageSize=10');
    expect(request?.headers.get('tenant-id')).toBe('acme');
    expect(request?.headers.get('authorization')).toBe('Bearer old-token');
    expect(request?.headers.get('accept')).toBe('application/json');
  });

  it('sends tenant-id but no bearer when auth is false', async () => {
    const { api, requests, deps } = setup(() => json(200, {}));
    await api.get('/public/credentials', { auth: false, searchParams: { acs_id: 'a1' } });
    expect(requests[0]?.headers.get('tenant-id')).toBe('acme');
    expect(requests[0]?.headers.has('authorization')).toBe(false);
    expect(deps.getToken).not.toHaveBeenCalled();
  });

  it('sends no bearer when there is no token', async () => {
    const { api, requests, setToken } = setup(() => json(200, {}));
    setToken(undefined);
    await api.post('/internal/accounts', { json: { email: 'a@b.c' } });
    expect(requests[0]?.headers.get('tenant-id')).toBe('acme');
    expect(requests[0]?.headers.has('authorization')).toBe(false);
  });

  it('keeps tenant-id and authorization its own, and passes extra headers', async () => {
    const { api, requests } = setup(() => json(200, {}));
    await api.get('/x', {
      headers: { 'tenant-id': 'other', authorization: 'Bearer forged', 'x-extra': '1' },
    });
    expect(requests[0]?.headers.get('tenant-id')).toBe('acme');
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer old-token');
    expect(requests[0]?.headers.get('x-extra')).toBe('1');
  });

  it('lets an unauthenticated call carry its own bearer (emailed confirmation token)', async () => {
    const { api, requests } = setup(() => json(200, {}));
    await api.post('/public/visits/v1/confirmation', {
      auth: false,
      headers: { authorization: 'Bearer mail' },
    });
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer mail');
  });

  it('sends every method with tenant-id; json and multipart bodies', async () => {
    const { api, requests, bodies } = setup(() => new Response(null, { status: 204 }));
    await api.post('/internal/onboardings', { json: { mode: 'self' } });
    const form = new FormData();
    form.append('upload', new Blob(['a;b'], { type: 'text/csv' }), 'list.csv');
    await api.put('/internal/portrayals/p1/lifeproof', { body: form });
    await api.delete('/internal/onboardings/o1');
    expect(requests.map((r) => r.method)).toEqual(['POST', 'PUT', 'DELETE']);
    expect(requests.every((r) => r.headers.get('tenant-id') === 'acme')).toBe(true);
    expect(requests[0]?.headers.get('content-type')).toBe('application/json');
    expect(bodies[0]).toBe('{"mode":"self"}');
    // (jsdom's Blob loses its content inside Node's Request; only the part is checked here.)
    expect(bodies[1]).toContain('name="upload"');
    expect(requests[1]?.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('keeps a path inside the API base', async () => {
    const { api, requests } = setup(() => json(200, {}));
    await api.get('//evil.com/steal');
    expect(requests[0]?.url).toBe('http://localhost:3000/api/evil.com/steal');
  });
});

describe('response types', () => {
  it('resolves undefined for an empty 2xx', async () => {
    const { api } = setup(() => new Response(null, { status: 204 }));
    await expect(api.put('/public/credentials/u1/active')).resolves.toBeUndefined();
  });

  it('returns a blob, text or nothing as asked', async () => {
    const { api } = setup(
      () => new Response('a;b\n', { status: 200, headers: { 'content-type': 'text/csv' } }),
    );
    const blob = await api.post<Blob>('/public/audit_accesses', { responseType: 'blob' });
    // jsdom's Blob global is not the Blob that fetch returns, so check the tag, not instanceof.
    expect(Object.prototype.toString.call(blob)).toBe('[object Blob]');
    expect(await blob.text()).toBe('a;b\n');
    await expect(api.get('/t', { responseType: 'text' })).resolves.toBe('a;b\n');
    await expect(api.get('/t', { responseType: 'none' })).resolves.toBeUndefined();
  });

  it('reads a blob as a stream when asked for its progress, counting bytes and line feeds', async () => {
    const encoder = new TextEncoder();
    const parts = ['\uFEFFa;b\r\n', '1;"x\ny"\r\n2;', 'z\r\n'];
    const { api } = setup(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              for (const part of parts) controller.enqueue(encoder.encode(part));
              controller.close();
            },
          }),
          { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } },
        ),
    );
    const seen: { bytes: number; lines: number }[] = [];
    const blob = await api.post<Blob>('/public/audit_accesses', {
      responseType: 'blob',
      onDownloadProgress: (read) => seen.push(read),
    });
    const sizes = parts.map((part) => encoder.encode(part).byteLength);
    expect(seen).toEqual([
      { bytes: sizes[0], lines: 1 },
      { bytes: (sizes[0] ?? 0) + (sizes[1] ?? 0), lines: 3 },
      { bytes: sizes.reduce((a, b) => a + b, 0), lines: 4 },
    ]);
    expect(blob.type).toBe('text/csv; charset=utf-8');
    // The BOM's bytes are kept (Blob.text() drops them when it decodes).
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([...encoder.encode(parts.join(''))]);
  });
});

describe('loading indicator', () => {
  const cases: Array<[string, Responder, Record<string, unknown>]> = [
    ['success', () => json(200, { a: 1 }), {}],
    ['HTTP error', () => problem(404), {}],
    ['network error', networkDown, {}],
    ['contract error', () => json(200, { a: 'x' }), { schema: type({ a: 'number' }) }],
    [
      '403 renewed and retried',
      sequence(
        () => problem(403),
        () => json(200, {}),
      ),
      {},
    ],
  ];
  it.each(cases)('starts once and ends exactly once on %s', async (_name, respond, options) => {
    const { api, deps } = setup(respond);
    await api.get('/x', options).catch(() => undefined);
    expect(deps.loading.start).toHaveBeenCalledTimes(1);
    expect(deps.loading.end).toHaveBeenCalledTimes(1);
  });

  it('ends before any handler or notice runs', async () => {
    const { api, log } = setup(() => problem(404));
    await api.post('/x').catch(() => undefined);
    expect(log).toEqual([
      'start',
      'fetch POST',
      'end',
      'notify {"level":"error","messageId":"common.http.notFound"}',
    ]);
  });

  it('ends even when the injected loading.start or notify throws', async () => {
    const { api, deps } = setup(() => problem(500), {
      notify: vi.fn(() => {
        throw new Error('toast broke');
      }),
    });
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const error = await failure(api.post('/x'));
    expect(error.status).toBe(500);
    expect(deps.loading.end).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });
});

describe('401', () => {
  it('logs out once, and leaves the warning to the page the sign-out ends on', async () => {
    const { api, deps } = setup(() => problem(401, { detail: 'expired' }));
    const error = await failure(api.get('/x'));
    expect(error.status).toBe(401);
    expect(deps.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(deps.renewOnce).not.toHaveBeenCalled();
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('logs out even when silent, without a notice', async () => {
    const { api, deps } = setup(() => problem(401));
    await failure(api.get('/x', { silent: true }));
    expect(deps.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('logs out even when a status handler takes the error', async () => {
    const handler = vi.fn();
    const { api, deps } = setup(() => problem(401));
    await failure(api.get('/x', { handlers: { 401: handler } }));
    expect(deps.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('retries once with the current token when the session was renewed while the call was out', async () => {
    let setToken: (value: string) => void = () => undefined;
    const env = setup((request) => {
      if (request.headers.get('authorization') === 'Bearer new-token') return json(200, { done: true });
      setToken('new-token'); // the renewal lands while the slow 401 is on its way back
      return problem(401, { detail: 'token expired' });
    });
    setToken = env.setToken;
    await expect(env.api.get('/internal/portrayals/p1')).resolves.toEqual({ done: true });
    expect(env.requests.map((r) => r.headers.get('authorization'))).toEqual([
      'Bearer old-token',
      'Bearer new-token',
    ]);
    expect(env.deps.onUnauthorized).not.toHaveBeenCalled();
    expect(env.deps.renewOnce).not.toHaveBeenCalled();
  });

  it('logs out when the retry with the renewed token gets 401 too', async () => {
    let setToken: (value: string) => void = () => undefined;
    const env = setup(() => {
      setToken('new-token');
      return problem(401);
    });
    setToken = env.setToken;
    await failure(env.api.get('/x'));
    expect(env.requests).toHaveLength(2);
    expect(env.deps.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not log out, nor speak of a session, for a call made with a token of its own', async () => {
    const { api, deps } = setup(() => problem(401, { detail: 'token expired' }));
    await failure(
      api.post('/public/visits/v1/confirmation', {
        auth: false,
        headers: { authorization: 'Bearer link-token' },
      }),
    );
    expect(deps.onUnauthorized).not.toHaveBeenCalled();
    expect(deps.notify).toHaveBeenCalledTimes(1);
    expect(deps.notify).toHaveBeenCalledWith({ level: 'warning', messageId: 'common.http.unauthorized' });
  });

  it('does not log out for a call made signed out: no session went with it to expire', async () => {
    const { api, deps, requests, setToken } = setup(() => problem(401));
    setToken(undefined);
    await failure(api.post('/user-code/redeem', { json: { code: 'ABCD2345' } }));
    expect(requests[0]?.headers.get('authorization')).toBeNull();
    expect(deps.onUnauthorized).not.toHaveBeenCalled();
    expect(deps.notify).toHaveBeenCalledWith({ level: 'warning', messageId: 'common.http.unauthorized' });
  });

  it('says "not accepted", never "your session has expired", to a call that carried no session', async () => {
    const es = (await import('../i18n/messages/es.json')).default as Record<string, string>;
    const en = (await import('../i18n/messages/en.json')).default as Record<string, string>;
    expect(es['common.http.unauthorized']).not.toMatch(/sesión ha caducado/);
    expect(en['common.http.unauthorized']).not.toMatch(/session has expired/i);
  });
});

describe('403: renew once, retry once', () => {
  it('renews and retries with the new token', async () => {
    const { api, deps, requests, bodies } = setup((request) =>
      request.headers.get('authorization') === 'Bearer new-token' ? json(200, { done: true }) : problem(403),
    );
    await expect(api.post('/internal/rights', { json: { action: 'access_qr' } })).resolves.toEqual({
      done: true,
    });
    expect(deps.renewOnce).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(2);
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer old-token');
    expect(requests[1]?.headers.get('authorization')).toBe('Bearer new-token');
    expect(requests[1]?.headers.get('tenant-id')).toBe('acme');
    expect(bodies).toEqual(['{"action":"access_qr"}', '{"action":"access_qr"}']);
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('does not retry when renewal fails, and the error goes to the general handler', async () => {
    const { api, deps, requests } = setup(() => problem(403, { detail: 'No rights' }), {
      renewOnce: vi.fn(async () => false),
    });
    const error = await failure(api.get('/x'));
    expect(error.status).toBe(403);
    expect(deps.renewOnce).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(1);
    expect(deps.notify).toHaveBeenCalledWith({ level: 'warning', text: 'No rights' });
  });

  it('treats a renewal that throws as failed', async () => {
    const { api, deps, requests } = setup(() => problem(403), {
      renewOnce: vi.fn(() => Promise.reject(new Error('iframe timeout'))),
    });
    await failure(api.get('/x'));
    expect(deps.renewOnce).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(1);
  });

  it('stops after one retry when the retry is refused again', async () => {
    const { api, deps, requests } = setup(() => problem(403, { title: 'Forbidden' }));
    const error = await failure(api.delete('/internal/onboardings/o1'));
    expect(error.status).toBe(403);
    expect(deps.renewOnce).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(2);
    expect(deps.notify).toHaveBeenCalledTimes(1);
    expect(deps.notify).toHaveBeenCalledWith({ level: 'warning', text: 'Forbidden' });
  });

  it('runs the handler chain once with the retry error when the retry fails otherwise', async () => {
    const handler = vi.fn();
    const { api, deps, requests } = setup(
      sequence(
        () => problem(403),
        () => problem(409, { code: 'taken' }),
      ),
    );
    const error = await failure(api.put('/x', { handlers: { 409: handler } }));
    expect(error.status).toBe(409);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(deps.renewOnce).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(2);
  });

  it('logs out when the retry gets 401', async () => {
    const { api, deps } = setup(
      sequence(
        () => problem(403),
        () => problem(401),
      ),
    );
    await failure(api.get('/x'));
    expect(deps.renewOnce).toHaveBeenCalledTimes(1);
    expect(deps.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['detail onboarding_confirmation_forbidden', { detail: 'onboarding_confirmation_forbidden' }],
    ['detail containing location needed', { detail: 'A LOCATION NEEDED for this visit' }],
    ['title containing location needed', { title: 'Location Needed' }],
  ])('does not renew on %s', async (_name, fields) => {
    const { api, deps, requests } = setup(() => problem(403, fields));
    const error = await failure(api.get('/x'));
    expect(error.status).toBe(403);
    expect(deps.renewOnce).not.toHaveBeenCalled();
    expect(requests).toHaveLength(1);
  });

  it('does not renew a call that did not carry the session', async () => {
    const { api, deps, requests } = setup(() => problem(403));
    await failure(api.get('/x', { auth: false }));
    expect(deps.renewOnce).not.toHaveBeenCalled();
    expect(requests).toHaveLength(1);
  });

  it('shares one renewal between parallel calls', async () => {
    const { api, deps, requests, setToken } = setup((request) =>
      request.headers.get('authorization') === 'Bearer new-token' ? json(200, {}) : problem(403),
    );
    await Promise.all([api.get('/a'), api.get('/b'), api.post('/c')]);
    expect(deps.renewOnce).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(6);
    // Once settled, a later 403 starts a renewal of its own.
    setToken('old-token');
    await api.get('/d');
    expect(deps.renewOnce).toHaveBeenCalledTimes(2);
  });
});

describe('handler chain', () => {
  const linkBody = { detail: 'Go on', link: { uri: '/onboarding/terms', query: { step: '2' } } };

  it('runs only the status handler when there is one', async () => {
    const byStatus = vi.fn();
    const fallback = vi.fn();
    const onError = vi.fn();
    const { api, deps } = setup(() => problem(404, linkBody));
    const error = await failure(api.get('/x', { handlers: { 404: byStatus, default: fallback }, onError }));
    expect(byStatus).toHaveBeenCalledWith(error);
    expect(fallback).not.toHaveBeenCalled();
    expect(onError).not.toHaveBeenCalled();
    expect(deps.navigate).not.toHaveBeenCalled();
    expect(deps.notify).not.toHaveBeenCalled();
    expect(error.handledBy).toBe('status');
  });

  it('runs handlers.default when no status handler matches', async () => {
    const other = vi.fn();
    const fallback = vi.fn();
    const onError = vi.fn();
    const { api, deps } = setup(() => problem(404, linkBody));
    const error = await failure(api.get('/x', { handlers: { 500: other, default: fallback }, onError }));
    expect(other).not.toHaveBeenCalled();
    expect(fallback).toHaveBeenCalledWith(error);
    expect(onError).not.toHaveBeenCalled();
    expect(deps.navigate).not.toHaveBeenCalled();
    expect(deps.notify).not.toHaveBeenCalled();
    expect(error.handledBy).toBe('default');
  });

  it('follows a same-origin link with its query before onError', async () => {
    const onError = vi.fn();
    const { api, deps } = setup(() => problem(400, linkBody));
    const error = await failure(api.post('/x', { onError }));
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith('/onboarding/terms?step=2');
    expect(onError).not.toHaveBeenCalled();
    expect(deps.notify).not.toHaveBeenCalled();
    expect(error.handledBy).toBe('link');
  });

  it('follows an absolute link to our own origin as a path', async () => {
    const { api, deps } = setup(() =>
      problem(400, { link: { uri: 'http://localhost:3000/visits?x=1#top', query: { y: 'a b' } } }),
    );
    await failure(api.post('/x'));
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith('/visits?x=1&y=a+b#top');
  });

  it.each([
    'https://evil.com/login',
    '//evil.com',
    '/\\evil.com',
    'javascript:alert(1)',
    'java\nscript:alert(1)',
    '/\t/evil.com',
    'data:text/html,<script>alert(1)</script>',
    'http://localhost:3000@evil.com/',
  ])('does not follow the unsafe link %j; onError runs instead', async (uri) => {
    const onError = vi.fn();
    const { api, deps } = setup(() => problem(400, { link: { uri } }));
    const error = await failure(api.post('/x', { onError }));
    expect(deps.navigate).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledWith(error);
    expect(error.handledBy).toBe('onError');
  });

  it('falls to the general handler when an unsafe link and no onError', async () => {
    const { api, deps } = setup(() => problem(400, { detail: 'Bad', link: { uri: 'https://evil.com' } }));
    await failure(api.post('/x'));
    expect(deps.navigate).not.toHaveBeenCalled();
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({ level: 'warning', text: 'Bad' });
  });

  it('ignores a malformed link', async () => {
    const { api, deps } = setup(() => problem(400, { detail: 'Bad', link: 'not an object' }));
    await failure(api.post('/x'));
    expect(deps.navigate).not.toHaveBeenCalled();
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({ level: 'warning', text: 'Bad' });
  });

  it('runs onError before the general handler', async () => {
    const onError = vi.fn();
    const { api, deps } = setup(() => problem(500));
    const error = await failure(api.post('/x', { onError }));
    expect(onError).toHaveBeenCalledExactlyOnceWith(error);
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('still rejects with the ApiError after a handler ran, even one that throws', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { api } = setup(() => problem(404));
    const error = await failure(
      api.get('/x', {
        handlers: {
          404: () => {
            throw new Error('handler bug');
          },
        },
      }),
    );
    expect(error.status).toBe(404);
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
  });

  it('sends network and contract errors to handlers.default (no status handler applies)', async () => {
    const fallback = vi.fn();
    const { api, deps } = setup(networkDown);
    const error = await failure(api.post('/x', { handlers: { 0: vi.fn(), default: fallback } }));
    expect(error.kind).toBe('network');
    expect(fallback).toHaveBeenCalledWith(error);
    expect(deps.notify).not.toHaveBeenCalled();
  });
});

describe('general handler', () => {
  it.each([
    [404, { level: 'error', messageId: 'common.http.notFound' }],
    [405, { level: 'error', messageId: 'common.http.notAllowed' }],
    [500, { level: 'error', messageId: 'common.http.serverError' }],
  ])('%i gives %j', async (status, notice) => {
    const { api, deps, requests } = setup(() => problem(status, { detail: 'server words' }));
    const error = await failure(api.get('/x'));
    expect(error.kind).toBe('http');
    expect(error.status).toBe(status);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(notice);
    expect(requests).toHaveLength(1);
  });

  it('422 with field errors: fieldErrors, no notice', async () => {
    const { api, deps } = setup(() =>
      problem(422, {
        code: 'invalid',
        errors: [
          { field: 'email', code: 'email_invalid' },
          { field: 'id_number', code: 'dni_letter' },
          { field: 'email', code: 'second_ignored' },
          { field: 'bad', code: 42 },
        ],
      }),
    );
    const error = await failure(api.post('/internal/accounts', { json: {} }));
    expect(error.fieldErrors).toEqual({
      email: 'common.errors.email_invalid',
      id_number: 'common.errors.dni_letter',
    });
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('409 with only a top-level code: _form entry and a warning', async () => {
    const { api, deps } = setup(() => problem(409, { code: 'user_already_registered' }));
    const error = await failure(api.post('/x'));
    expect(error.fieldErrors).toEqual({ _form: 'common.errors.user_already_registered' });
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({
      level: 'warning',
      messageId: 'common.errors.user_already_registered',
    });
  });

  it('422 without code or errors: warning with the detail', async () => {
    const { api, deps } = setup(() => problem(422, { detail: 'Unprocessable thing' }));
    const error = await failure(api.post('/x'));
    expect(error.fieldErrors).toEqual({});
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({ level: 'warning', text: 'Unprocessable thing' });
  });

  it.each([
    [{ detail: 'The detail', title: 'The title' }, 'Status text', { level: 'warning', text: 'The detail' }],
    [{ title: 'The title' }, 'Status text', { level: 'warning', text: 'The title' }],
    [{}, 'Status text', { level: 'warning', text: 'Status text' }],
    [{}, '', { level: 'warning', messageId: 'common.http.unknown' }],
  ])(
    'other statuses: detail, else title, else status text, else unknown (%j, %j)',
    async (fields, statusText, notice) => {
      const { api, deps } = setup(() => problem(400, fields, statusText));
      await failure(api.post('/x'));
      expect(deps.notify).toHaveBeenCalledExactlyOnceWith(notice);
    },
  );

  it('a non-JSON body still gives an ApiError with the status text', async () => {
    const { api, deps } = setup(
      () =>
        new Response('<html>Bad gateway</html>', {
          status: 418,
          statusText: "I'm a teapot",
          headers: { 'content-type': 'text/html' },
        }),
    );
    const error = await failure(api.post('/x'));
    expect(error.kind).toBe('http');
    expect(error.status).toBe(418);
    expect(error.problem).toEqual({ status: 418, title: '', detail: '' });
    expect(error.body).toBe('<html>Bad gateway</html>');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({ level: 'warning', text: "I'm a teapot" });
  });

  it.each([[null], [[1, 2]], ['"just a string"'], [{ title: 7, detail: ['x'], errors: 'nope' }]])(
    'an odd JSON body %j still gives an ApiError',
    async (body) => {
      const { api, deps } = setup(() => json(400, body, 'Bad Request'));
      const error = await failure(api.post('/x'));
      expect(error.status).toBe(400);
      expect(error.problem?.status).toBe(400);
      expect(deps.notify).toHaveBeenCalledExactlyOnceWith({ level: 'warning', text: 'Bad Request' });
    },
  );

  it('an empty error body still gives an ApiError', async () => {
    const { api, deps } = setup(() => new Response(null, { status: 404 }));
    const error = await failure(api.get('/x'));
    expect(error.status).toBe(404);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({
      level: 'error',
      messageId: 'common.http.notFound',
    });
  });

  it('silent suppresses the notice (existence check: 404 means free)', async () => {
    const { api, deps } = setup(() => problem(404));
    const error = await failure(api.get('/public/credentials', { auth: false, silent: true }));
    expect(error.status).toBe(404);
    expect(deps.notify).not.toHaveBeenCalled();
  });
});

describe('retries', () => {
  it('retries a GET twice on network errors, then reports a network error', async () => {
    const { api, deps, fetch } = setup(networkDown);
    const error = await failure(api.get('/x'));
    expect(error.kind).toBe('network');
    expect(error.status).toBe(0);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(deps.retryDelay).toHaveBeenNthCalledWith(1, 1);
    expect(deps.retryDelay).toHaveBeenNthCalledWith(2, 2);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({ level: 'error', messageId: 'common.http.network' });
  });

  it('treats any throw of fetch as a network failure', async () => {
    const { api, fetch } = setup(() => {
      throw new Error('socket hang up');
    });
    const error = await failure(api.get('/x'));
    expect(error.kind).toBe('network');
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('resolves when a GET succeeds on a retry', async () => {
    const { api, deps, fetch } = setup(sequence(networkDown, () => json(200, { ok: 1 })));
    await expect(api.get('/x')).resolves.toEqual({ ok: 1 });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it.each([502, 503, 504])('retries a GET on %i', async (status) => {
    const { api, fetch, deps } = setup(() => problem(status, {}, 'Gateway'));
    const error = await failure(api.get('/x'));
    expect(error.status).toBe(status);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({ level: 'warning', text: 'Gateway' });
  });

  it('does not retry a GET on 500 or 4xx', async () => {
    const { api, fetch } = setup(
      sequence(
        () => problem(500),
        () => problem(429),
      ),
    );
    await failure(api.get('/x'));
    await failure(api.get('/x'));
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it.each(['POST', 'PUT', 'DELETE'] as const)('never retries %s automatically', async (method) => {
    const { api, fetch, deps } = setup(networkDown);
    const error = await failure(api.request(method, '/x'));
    expect(error.kind).toBe('network');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(deps.retryDelay).not.toHaveBeenCalled();

    const gateway = setup(() => problem(503));
    await failure(gateway.api.request(method, '/x'));
    expect(gateway.fetch).toHaveBeenCalledTimes(1);
  });
});

describe('contract', () => {
  const schema = type({ id: 'string', count: 'number' });

  it('resolves the validated value', async () => {
    const { api } = setup(() => json(200, { id: 'a', count: 2, extra: true }));
    const value = await api.get('/x', { schema });
    expect(value.id).toBe('a');
    expect(value.count).toBe(2);
  });

  it('rejects a mismatch as a contract error with a notice', async () => {
    const { api, deps } = setup(() => json(200, { id: 'a', count: 'two' }));
    const error = await failure(api.get('/x', { schema }));
    expect(error.kind).toBe('contract');
    expect(error.status).toBe(200);
    expect(error.body).toEqual({ id: 'a', count: 'two' });
    expect(error.message).toContain('count');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({
      level: 'error',
      messageId: 'common.http.contract',
    });
  });

  it('rejects a 2xx body that is not JSON as a contract error', async () => {
    const { api } = setup(() => new Response('<html>', { status: 200 }));
    const error = await failure(api.get('/x'));
    expect(error.kind).toBe('contract');
  });

  it('rejects a picture asked for that comes as JSON as a contract error, with its notice', async () => {
    const { api, deps } = setup(() => json(200, { items: [] }));
    const error = await failure(api.get('/x.png', { responseType: 'blob', mediaType: 'image/' }));
    expect(error.kind).toBe('contract');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({
      level: 'error',
      messageId: 'common.http.contract',
    });
    const png = setup(
      () => new Response(new Uint8Array([137, 80]), { headers: { 'content-type': 'image/png' } }),
    );
    const blob = await png.api.get<Blob>('/x.png', { responseType: 'blob', mediaType: 'image/' });
    expect(blob.type).toBe('image/png');
  });

  it('rejects an empty body when a schema expects one', async () => {
    const { api } = setup(() => new Response(null, { status: 204 }));
    expect((await failure(api.get('/x', { schema }))).kind).toBe('contract');
  });

  it('is silent when asked, and onError takes it before the general handler', async () => {
    const onError = vi.fn();
    const { api, deps } = setup(() => json(200, {}));
    await failure(api.get('/x', { schema, silent: true }));
    await failure(api.get('/x', { schema, onError }));
    expect(onError).toHaveBeenCalledTimes(1);
    expect(deps.notify).not.toHaveBeenCalled();
  });
});

describe('cancellation and timeouts', () => {
  it('rejects with kind aborted, no retry and no notice, when the caller aborts', async () => {
    const controller = new AbortController();
    const { api, deps, fetch } = setup(
      (request) =>
        new Promise<Response>((_resolve, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason));
          controller.abort();
        }),
    );
    const onError = vi.fn();
    const error = await failure(api.get('/x', { signal: controller.signal, onError }));
    expect(error.kind).toBe('aborted');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(onError).not.toHaveBeenCalled();
    expect(deps.notify).not.toHaveBeenCalled();
    expect(deps.loading.end).toHaveBeenCalledTimes(1);
  });

  it('reports a timeout', async () => {
    const { api, deps } = setup(
      (request) =>
        new Promise<Response>((_resolve, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason));
        }),
    );
    const error = await failure(api.post('/x', { timeout: 20 }));
    expect(error.kind).toBe('timeout');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({ level: 'error', messageId: 'common.http.timeout' });
  });

  it("answers the painted screen's first calls from the page while its paint is there, and asks the server after", async () => {
    document.body.innerHTML = '<div id="shell" data-with-data></div>';
    const painted = [
      { url: '/api/things', status: 200, contentType: 'application/json', body: '{"from":"page"}' },
    ];
    const { api, requests } = setup(() => Response.json({ from: 'server' }), { painted });
    expect(await api.get('/things')).toEqual({ from: 'page' });
    expect(await api.get('/things')).toEqual({ from: 'page' });
    expect(requests).toHaveLength(0);
    document.getElementById('shell')?.remove();
    // A visit created since, a credential extended: what comes next is the server's.
    expect(await api.get('/things')).toEqual({ from: 'server' });
    expect(requests).toHaveLength(1);
  });
});
