import * as oidc from 'openid-client';
import { describe, expect, it, vi } from 'vitest';
import { Browser, realmOf, signIn } from '../testing/oidc';
import { startedServerForFile } from '../testing/signed-in-app';

// UserInfo (OpenID Connect Core §5.3) with the access token a client gets by signing in: the client here is
// openid-client, a certified relying party that knows nothing of this project (discovery, the authorization URL,
// PKCE, the code exchange with the ID token's checks, and the UserInfo call). The test only plays the person: it
// keeps the cookies and fills in the login page. A real server on loopback, started here.

// A real server and scrypt on a shared machine take longer than vitest's 5 s / 10 s defaults.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const started = startedServerForFile();

/** The provider's configuration as openid-client discovers it (plain http is fine on loopback). */
function discover(tenant: string) {
  return oidc.discovery(new URL(realmOf(started.base, tenant)), 'portal', undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
}

/** The person signs in on the login page; the redirect back to the client carries the code. */
async function personSignsIn(authorizationUrl: URL, username: string): Promise<URL> {
  const browser = new Browser();
  let res = await browser.fetch(authorizationUrl.toString());
  let location = new URL(res.headers.get('location') ?? '', started.base);
  expect(location.pathname).toMatch(/\/interaction\/[\w-]+$/);
  res = await browser.post(`${location}/login`, { username, password: username });
  for (let hops = 0; res.status >= 300 && res.status < 400; hops++) {
    location = new URL(res.headers.get('location') ?? '', started.base);
    if (location.pathname === '/callback' || hops > 5) break;
    res = await browser.fetch(location.toString());
  }
  expect(location.pathname, `no redirect back for ${username}: ${res.status}`).toBe('/callback');
  return location;
}

/** The code flow with PKCE, as a standard client does it: its tokens and the ID token's claims. */
async function codeFlow(tenant: string, username: string, scope: string) {
  const config = await discover(tenant);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${started.base}/callback`,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const callback = await personSignsIn(url, username);
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error('no ID token');
  return { config, tokens, claims };
}

/** A UserInfo call by hand, to read the refusal itself (status, WWW-Authenticate, body). */
async function userInfoRaw(tenant: string, authorization?: string) {
  const config = await discover(tenant);
  const endpoint = config.serverMetadata().userinfo_endpoint ?? '';
  return fetch(endpoint, { headers: authorization ? { authorization } : {} });
}

describe('UserInfo (OpenID Connect Core §5.3)', () => {
  it('answers a standard client with the claims of the scopes it was granted', async () => {
    const { config, tokens, claims } = await codeFlow('gambling', 'user', 'openid profile roles email');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info.sub).toBe(claims.sub);
    expect(info).toMatchObject({
      preferred_username: 'user',
      given_name: 'Unai',
      family_name: 'Usuario',
      name: 'Unai Usuario',
      email_verified: expect.any(Boolean),
    });
    expect(info.roles).toEqual(expect.arrayContaining(['get_users_me', 'can_view_accreditations']));
    // The same token still opens the API: one access token serves both.
    const me = await fetch(`${started.base}/api/public/credentials/${claims.sub}`, {
      headers: { authorization: `Bearer ${tokens.access_token}`, 'tenant-id': 'gambling' },
    });
    expect(me.status).not.toBe(401);
  });

  it('gives only the claims of the scopes asked for', async () => {
    const { config, tokens, claims } = await codeFlow('demo', 'auditor', 'openid email');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info.sub).toBe(claims.sub);
    expect(info).not.toHaveProperty('preferred_username');
    expect(info).not.toHaveProperty('roles');
    expect(info).toHaveProperty('email_verified');
  });

  it('accepts the token the portal itself gets', async () => {
    const tokens = await signIn(started.base, 'gambling', 'admin');
    const res = await userInfoRaw('gambling', `Bearer ${tokens.access_token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    const info = (await res.json()) as Record<string, unknown>;
    expect(info).toMatchObject({ preferred_username: 'admin' });
    expect(info.roles).toEqual(expect.arrayContaining(['delete_users_all']));
    // RFC 6750 §2.2: the token in a form body, and never in two places at once.
    const endpoint = (await discover('gambling')).serverMetadata().userinfo_endpoint ?? '';
    const form = new Browser();
    const posted = await form.post(endpoint, { access_token: tokens.access_token });
    expect(posted.status).toBe(200);
    expect(await posted.json()).toMatchObject({ preferred_username: 'admin' });
    const twice = await form.post(
      endpoint,
      { access_token: tokens.access_token },
      { authorization: `Bearer ${tokens.access_token}` },
    );
    expect(twice.status).toBe(400);
  });

  it('refuses no token, a made-up one, another realm’s and one whose sign-in has ended, as RFC 6750 says', async () => {
    const refusedWith = async (res: Response, error: string) => {
      expect(res.status).toBe(error === 'invalid_request' ? 400 : 401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      if (error !== 'none') expect(res.headers.get('www-authenticate')).toContain(`error="${error}"`);
    };
    await refusedWith(await userInfoRaw('gambling'), 'none');
    await refusedWith(await userInfoRaw('gambling', 'Bearer not.a.token'), 'invalid_token');
    const demo = await signIn(started.base, 'demo', 'user');
    await refusedWith(await userInfoRaw('gambling', `Bearer ${demo.access_token}`), 'invalid_token');
    // Revoking the refresh token ends the grant; its access tokens then open nothing.
    const gambling = await signIn(started.base, 'gambling', 'visitor');
    const revoked = await new Browser().post(`${realmOf(started.base, 'gambling')}/token/revocation`, {
      token: gambling.refresh_token,
      client_id: 'portal',
    });
    expect(revoked.status).toBe(200);
    await refusedWith(await userInfoRaw('gambling', `Bearer ${gambling.access_token}`), 'invalid_token');
  });
});
