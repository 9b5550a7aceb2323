// Test helpers for the development identity provider: a cookie-jar browser and the real code flow with PKCE,
// against a server started by the test (its base URL, e.g. http://localhost:<port>).
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';

/** fetch with a cookie jar (names only; paths do not matter for these flows) and no automatic redirects. */
export class Browser {
  private cookies = new Map<string, string>();

  /** `send`: how requests leave (a fetch that trusts a test's own certificate, for an https server). */
  constructor(private readonly send: typeof fetch = fetch) {}

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    const res = await this.send(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });
  }
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token: string;
}

export const realmOf = (base: string, tenant: string) => `${base}/auth/realms/${tenant}`;

/** The authorization request of the portal at `origin` (a fixed PKCE challenge): the one that sets the provider's cookies. */
export function authorizePath(origin: string, tenant = 'gambling'): string {
  return `/auth/realms/${tenant}/auth?${new URLSearchParams({
    client_id: 'portal',
    response_type: 'code',
    scope: 'openid',
    redirect_uri: `${origin}/callback`,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  })}`;
}

/** Starts the code flow and returns the login page's address (the provider's interaction). */
export async function openLogin(
  browser: Browser,
  base: string,
  tenant: string,
  verifier: string,
  extra = '',
) {
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    client_id: 'portal',
    response_type: 'code',
    scope: 'openid profile roles email',
    redirect_uri: `${base}/callback`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state-1',
    nonce: 'nonce-1',
  });
  const res = await browser.fetch(`${realmOf(base, tenant)}/auth?${query}${extra}`);
  expect(res.status).toBe(303);
  const location = res.headers.get('location') ?? '';
  expect(location).toMatch(new RegExp(`^/auth/realms/${tenant}/interaction/[\\w-]+$`));
  return `${base}${location}`;
}

export interface AuthorizationCode {
  code: string;
  verifier: string;
  browser: Browser;
}

/** Signs in on the login page and follows the redirects up to the portal's callback: the code and its verifier. */
export async function authorize(
  base: string,
  tenant: string,
  username: string,
  password = username,
  send: typeof fetch = fetch,
): Promise<AuthorizationCode> {
  const browser = new Browser(send);
  const verifier = randomBytes(32).toString('base64url');
  const login = await openLogin(browser, base, tenant, verifier);
  let res = await browser.post(`${login}/login`, { username, password });
  let location = res.headers.get('location') ?? '';
  for (
    let hops = 0;
    res.status >= 300 && res.status < 400 && !location.startsWith(`${base}/callback`);
    hops++
  ) {
    if (hops > 5) throw new Error('too many redirects');
    res = await browser.fetch(new URL(location, base).toString());
    location = res.headers.get('location') ?? '';
  }
  expect(location.startsWith(`${base}/callback?`), `no code for ${username}: ${res.status}`).toBe(true);
  return { code: new URL(location).searchParams.get('code') ?? '', verifier, browser };
}

/** The token endpoint's answer to an authorization code. */
export function exchangeCode(base: string, tenant: string, { code, verifier, browser }: AuthorizationCode) {
  return browser.post(`${realmOf(base, tenant)}/token`, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: `${base}/callback`,
    client_id: 'portal',
    code_verifier: verifier,
  });
}

/** The whole code flow with PKCE: the tokens a person gets by signing in. */
export async function signIn(
  base: string,
  tenant: string,
  username: string,
  password = username,
  send: typeof fetch = fetch,
): Promise<Tokens> {
  const token = await exchangeCode(base, tenant, await authorize(base, tenant, username, password, send));
  expect(token.status).toBe(200);
  return (await token.json()) as Tokens;
}

/** A call to the reference API with the tenant header and, when given, the bearer token. */
export function apiCall(base: string, path: string, tenant: string, token?: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('tenant-id', tenant);
  if (token) headers.set('authorization', `Bearer ${token}`);
  return fetch(`${base}/api${path}`, { ...init, headers });
}

/** A selfie portrayal of a new onboarding of the person signed in with `token`, terms accepted: its id. */
export async function selfiePortrayal(base: string, tenant: string, token: string): Promise<string> {
  const json = (method: string, path: string, body?: unknown) =>
    apiCall(base, path, tenant, token, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  const created = await json('POST', '/internal/onboardings', { mode: 'auto' });
  expect(created.status, await created.clone().text()).toBe(201);
  const { onboarding_id } = (await created.json()) as { onboarding_id: string };
  expect((await json('PUT', `/internal/onboardings/${onboarding_id}/legal_terms`)).status).toBe(200);
  const made = await json('POST', '/internal/portrayals', {
    onboarding_id,
    portrayal_type: 'selfie',
    document_type: null,
    document_country: null,
  });
  expect(made.status, await made.clone().text()).toBe(201);
  return ((await made.json()) as { portrayal_id: string }).portrayal_id;
}

export interface Answer {
  status: number;
  contentType: string;
  /** The answer's X-Request-Id. */
  requestId: string | undefined;
  body: string;
  setCookies: string[];
}

/**
 * One request to the server's socket with exactly the headers given (fetch would not send a forged Host), from
 * `localAddress` when given (a loopback address the test makes the server see as another machine).
 */
export function send(
  port: number,
  path: string,
  headers: Record<string, string>,
  form?: Record<string, string>,
  localAddress?: string,
): Promise<Answer> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: body === undefined ? 'GET' : 'POST',
        agent: false,
        ...(localAddress ? { localAddress } : {}),
        headers: {
          ...headers,
          ...(body === undefined
            ? {}
            : {
                'content-type': 'application/x-www-form-urlencoded',
                'content-length': String(Buffer.byteLength(body)),
              }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'] ?? '',
            requestId: res.headers['x-request-id'] as string | undefined,
            body: text,
            setCookies: res.headers['set-cookie'] ?? [],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
