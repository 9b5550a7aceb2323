import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '../main';
import { testServerOptions } from '../testing/fixtures';
import { apiCall, Browser, openLogin as openLoginAt, signIn as signInAt, type Tokens } from '../testing/oidc';
import { startedServerForFile } from '../testing/signed-in-app';
import { SEED_ACCOUNTS } from './accounts';
import { hashPassword, passwordProblems, verifyPassword } from './passwords';
import { API_RESOURCE } from './provider';
import { permissionsOf, ROLE_PERMISSIONS } from './roles';
import { createThrottle } from './throttle';

// The development identity provider and the bearer checks of the API, through HTTP on a real server.

// A real server and scrypt on a shared machine take longer than vitest's 5 s / 10 s defaults.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const started = startedServerForFile({ accessTokenTtl: 60 });

const realm = (tenant: string) => `${started.base}/auth/realms/${tenant}`;

const openLogin = (browser: Browser, tenant: string, verifier: string, extra = '') =>
  openLoginAt(browser, started.base, tenant, verifier, extra);
const signIn = (tenant: string, username: string, password = username): Promise<Tokens> =>
  signInAt(started.base, tenant, username, password);

function refresh(tenant: string, refreshToken: string) {
  return new Browser().post(`${realm(tenant)}/token`, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: 'portal',
  });
}

const api = (path: string, tenant: string, token?: string, init: RequestInit = {}) =>
  apiCall(started.base, path, tenant, token, init);

describe('roles', () => {
  it('maps role names to the permission strings of spec §6, admin holding every one', () => {
    expect(permissionsOf(['user'])).toEqual(
      expect.arrayContaining(['post_onboardings_auto', 'get_users_me', 'can_view_accreditations']),
    );
    expect(permissionsOf(['visitor'])).toContain('post_visits_me');
    expect(permissionsOf(['assistant'])).not.toContain('get_users_all');
    expect(permissionsOf(['admin'])).toContain('post_watchlists');
    expect(permissionsOf(['admin'])).toContain('delete_users_all');
    expect(permissionsOf(['nobody'])).toEqual([]);
    expect(Object.keys(ROLE_PERMISSIONS).sort()).toEqual(
      [...new Set(SEED_ACCOUNTS.flatMap((account) => account.roles))].sort(),
    );
  });
});

describe('passwords', () => {
  it('hashes with scrypt and verifies only the right password', async () => {
    const hash = await hashPassword('Correct-Horse-1');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('Correct-Horse-1', hash)).toBe(true);
    expect(await verifyPassword('correct-horse-1', hash)).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
    expect(await verifyPassword('anything', 'plain-text')).toBe(false);
  });

  it('names each strength rule a password misses', () => {
    expect(passwordProblems('weak')).toEqual(['too_short', 'no_upper', 'no_digit']);
    expect(passwordProblems('Auditor-2026')).toEqual([]);
  });
});

describe('throttle', () => {
  it('slows attempts after a few failures, per key, and forgets on success', async () => {
    const slept: number[] = [];
    const throttle = createThrottle({ sleep: async (ms) => void slept.push(ms) });
    const keys = ['t|account|ana', 't|address|1.2.3.4'];
    for (let i = 0; i < 3; i++) {
      await throttle.wait(keys);
      await throttle.fail(keys);
    }
    await throttle.wait(keys);
    await throttle.fail(keys);
    await throttle.wait(['t|account|other', 't|address|1.2.3.4']);
    expect(slept).toEqual([500, 1000]);
    expect(await throttle.delayFor(['t|account|ana'])).toBe(1000);
    await throttle.succeed(['t|account|ana']);
    expect(await throttle.delayFor(['t|account|ana'])).toBe(0);
    for (let i = 0; i < 20; i++) await throttle.fail(['t|account|bob']);
    expect(await throttle.delayFor(['t|account|bob'])).toBe(8000);
  });
});

describe('identity provider', () => {
  it('publishes one issuer per tenant, with the code flow and PKCE S256 only', async () => {
    for (const tenant of ['gambling', 'demo']) {
      const res = await fetch(`${realm(tenant)}/.well-known/openid-configuration`);
      const discovery = (await res.json()) as Record<string, unknown>;
      expect(discovery.issuer).toBe(realm(tenant));
      expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
      expect(discovery.response_types_supported).toEqual(['code']);
      expect(discovery.grant_types_supported).not.toContain('implicit');
      expect(discovery.grant_types_supported).toEqual(
        expect.arrayContaining(['authorization_code', 'refresh_token']),
      );
    }
    expect((await fetch(`${started.base}/auth/realms/nowhere/.well-known/openid-configuration`)).status).toBe(
      404,
    );
  });

  it('refuses a code request without PKCE', async () => {
    const res = await fetch(
      `${realm('gambling')}/auth?client_id=portal&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(`${started.base}/callback`)}`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/error=invalid_request/);
  });

  it('signs a seeded user in and issues a JWT access token with their permission strings', async () => {
    const tokens = await signIn('gambling', 'user');
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({
      iss: realm('gambling'),
      aud: API_RESOURCE,
      tenant: 'gambling',
      preferred_username: 'user',
      email: 'user@gambling.example',
      enrolled: true,
      roles: permissionsOf(['user']),
    });
    expect(claims.acs_id).toMatch(/^ACS-GAMBLING-/);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(60);
    expect(tokens.refresh_token).toBeTruthy();
    expect(decodeJwt(tokens.id_token).roles).toEqual(permissionsOf(['user']));

    const newcomer = decodeJwt((await signIn('gambling', 'newcomer')).access_token);
    expect(newcomer.enrolled).toBe(false);
    expect(newcomer.acs_id).toBeNull();
  });

  it('logs in by email too, case-insensitively', async () => {
    const tokens = await signIn('demo', 'Auditor@Demo.Example', 'auditor');
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      tenant: 'demo',
      roles: ['post_audit_accesses_all'],
    });
  });

  it('shows a wrong password as incorrect user or password, keeping the username, in the asked language', async () => {
    const browser = new Browser();
    const login = await openLogin(
      browser,
      'gambling',
      randomBytes(32).toString('base64url'),
      '&ui_locales=eu',
    );
    const page = await (await browser.fetch(login)).text();
    expect(page).toContain('lang="eu"');
    expect(page).toContain('Pasahitza');
    const res = await browser.post(`${login}/login`, { username: 'receptionist', password: 'nope' });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('Erabiltzailea edo pasahitza okerra da.');
    expect(html).toContain('value="receptionist"');
    // An unknown user gets the very same answer.
    const unknown = await (
      await browser.post(`${login}/login`, { username: 'ghost', password: 'nope' })
    ).text();
    expect(unknown).toContain('Erabiltzailea edo pasahitza okerra da.');
  });

  it('says above the form why the portal asks for the password, in the page language; an unknown reason says nothing', async () => {
    const pageFor = async (extra: string) => {
      const browser = new Browser();
      const login = await openLogin(browser, 'gambling', randomBytes(32).toString('base64url'), extra);
      return { browser, login, html: await (await browser.fetch(login)).text() };
    };
    const rights = await pageFor('&ui_locales=eu&prompt=login&portal_reason=rights');
    expect(rights.html).toContain(
      '<p class="note" role="status">Ireki duzun orriak beste baimen batzuk behar ditu. Hasi saioa baimen horiek dituen kontu batekin.</p>',
    );
    // Its other languages keep it (the same interaction).
    const spanish = await (await rights.browser.fetch(`${rights.login}?lang=es`)).text();
    expect(spanish).toContain('La página que ha abierto necesita otros permisos.');
    // A wrong password says that instead.
    const wrong = await (
      await rights.browser.post(`${rights.login}/login`, { username: 'receptionist', password: 'nope' })
    ).text();
    expect(wrong).toContain('Erabiltzailea edo pasahitza okerra da.');
    expect(wrong).not.toContain('class="note"');
    const expired = await pageFor('&ui_locales=en&prompt=login&portal_reason=expired');
    expect(expired.html).toContain('Your session has ended. Sign in again to continue where you were.');
    for (const extra of [
      '&ui_locales=en',
      '&ui_locales=en&portal_reason=%3Cscript%3E',
      '&portal_reason=toString',
    ]) {
      expect((await pageFor(extra)).html, extra).not.toContain('class="note"');
    }
  });

  it('rotates refresh tokens and refuses a spent one, which ends the grant', async () => {
    const tokens = await signIn('gambling', 'visitor');
    const first = await refresh('gambling', tokens.refresh_token);
    expect(first.status).toBe(200);
    const renewed = (await first.json()) as Tokens;
    expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(renewed.access_token).roles).toEqual(permissionsOf(['visitor']));

    const reused = await refresh('gambling', tokens.refresh_token);
    expect(reused.status).toBe(400);
    expect(((await reused.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await refresh('gambling', renewed.refresh_token)).status).toBe(400);
  });

  it('answers the broker token endpoint: 401 without a token, not linked with one', async () => {
    const url = `${realm('gambling')}/broker/external/token`;
    expect((await fetch(url)).status).toBe(401);
    const { access_token } = await signIn('gambling', 'user');
    const res = await fetch(url, { headers: { authorization: `Bearer ${access_token}` } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('not_linked');
  });
});

describe('API bearer checks and IAM accounts', () => {
  let manager: string;
  let user: string;
  let demoManager: string;

  beforeAll(async () => {
    [manager, user, demoManager] = await Promise.all([
      signIn('gambling', 'accountmanager').then((t) => t.access_token),
      signIn('gambling', 'user').then((t) => t.access_token),
      signIn('demo', 'accountmanager').then((t) => t.access_token),
    ]);
  });

  it('lists the tenant accounts in pages, with a filter', async () => {
    const res = await api('/public/accounts?pageSize=4&pageIndex=0', 'gambling', manager);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { items: { username: string; email: string }[]; totalItems: number };
    expect(page.totalItems).toBeGreaterThanOrEqual(SEED_ACCOUNTS.length);
    expect(page.items).toHaveLength(4);
    const filtered = (await (
      await api('/public/accounts?filter=VISITOR', 'gambling', manager)
    ).json()) as typeof page;
    expect(filtered.items.map((a) => a.email)).toEqual(['visitor@gambling.example']);
    const none = (await (
      await api('/public/accounts?filter=%25', 'gambling', manager)
    ).json()) as typeof page;
    expect(none.totalItems).toBe(0);
  });

  it('gives the same total on every page, the last one and one past the end included', async () => {
    const first = (await (
      await api('/public/accounts?pageSize=4&pageIndex=0', 'gambling', manager)
    ).json()) as {
      items: { username: string }[];
      totalItems: number;
    };
    const total = first.totalItems;
    const last = Math.ceil(total / 4) - 1;
    const end = (await (
      await api(`/public/accounts?pageSize=4&pageIndex=${last}`, 'gambling', manager)
    ).json()) as typeof first;
    expect(end.totalItems).toBe(total);
    expect(end.items).toHaveLength(total - 4 * last);
    const past = (await (
      await api(`/public/accounts?pageSize=4&pageIndex=${last + 1}`, 'gambling', manager)
    ).json()) as typeof first;
    expect(past).toMatchObject({ items: [], totalItems: total, pageIndex: last + 1 });
  });

  it('401 without or with a forged token, 403 without the right, 403 for another tenant', async () => {
    expect((await api('/public/accounts', 'gambling')).status).toBe(401);
    const [head, body] = manager.split('.');
    const forged = `${head}.${body}.${'A'.repeat(342)}`;
    expect((await api('/public/accounts', 'gambling', forged)).status).toBe(401);
    const forbidden = await api('/public/accounts', 'gambling', user);
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { code: string }).code).toBe('forbidden');
    const crossTenant = await api('/public/accounts', 'gambling', demoManager);
    expect(crossTenant.status).toBe(403);
    expect(((await crossTenant.json()) as { code: string }).code).toBe('tenant_mismatch');
    expect((await api('/public/accounts', 'demo', demoManager)).status).toBe(200);
  });

  it('looks accounts up by email and lets a person set their own language', async () => {
    const found = await api('/internal/accounts?email=USER@gambling.example', 'gambling', manager);
    const [account] = (await found.json()) as { id: string; username: string }[];
    expect(account?.username).toBe('user');
    // Spec §5: an existence check answers 200 when the email is taken and 404 when it is free.
    expect((await api('/internal/accounts?email=nobody@x.example', 'gambling', manager)).status).toBe(404);

    const sub = decodeJwt(user).sub ?? '';
    const put = (id: string, token: string, locale: string) =>
      api(`/internal/accounts/${id}/locale`, 'gambling', token, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ locale }),
      });
    expect((await put(sub, user, 'eu')).status).toBe(204);
    const visitor = (await (
      await api('/internal/accounts?email=visitor@gambling.example', 'gambling', manager)
    ).json()) as {
      id: string;
    }[];
    expect((await put(visitor[0]?.id ?? '', user, 'eu')).status).toBe(403);
    const wrong = await put(sub, user, 'fr');
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { errors: unknown }).errors).toEqual([
      { field: 'locale', code: 'wrong_value' },
    ]);
    // The next token carries the new language.
    expect(decodeJwt((await signIn('gambling', 'user')).access_token).locale).toBe('eu');
  });
});

describe('password reset', () => {
  it('mails a link that sets a new password once; the old password stops working', async () => {
    const browser = new Browser();
    const form = await browser.fetch(`${realm('gambling')}/reset?lang=en`);
    expect(await form.text()).toContain('Reset your password');
    const sent = await (
      await browser.post(`${realm('gambling')}/reset?lang=en`, { login: 'usermanager' })
    ).text();
    expect(sent).toContain('If an account exists');
    // An unknown account gets the same answer and no mail.
    const unknown = await (
      await browser.post(`${realm('gambling')}/reset?lang=en`, { login: 'nobody' })
    ).text();
    expect(unknown).toContain('If an account exists');

    const mailbox = await (await fetch(`${started.base}/dev/mailbox`)).text();
    expect(mailbox).toContain('usermanager@gambling.example');
    expect(mailbox).not.toContain('nobody');
    const link = /href="(http:\/\/localhost:\d+\/auth\/realms\/gambling\/reset\/[\w-]+\?lang=en)"/.exec(
      mailbox,
    )?.[1];
    expect(link).toBeTruthy();
    const url = (link ?? '').replace(/&#38;/g, '&');

    const weak = await (await browser.post(url, { password: 'short', confirm: 'short' })).text();
    expect(weak).toContain('The password does not meet the rules.');
    expect(weak).toContain('class="unmet"');
    const mismatch = await (
      await browser.post(url, { password: 'Manager-2026', confirm: 'Manager-2027' })
    ).text();
    expect(mismatch).toContain('The two passwords do not match.');
    const done = await browser.post(url, { password: 'Manager-2026', confirm: 'Manager-2026' });
    expect(await done.text()).toContain('Password changed');

    expect((await browser.fetch(url)).status).toBe(410);
    const tokens = await signIn('gambling', 'usermanager', 'Manager-2026');
    expect(decodeJwt(tokens.access_token).preferred_username).toBe('usermanager');
    const old = new Browser();
    const login = await openLogin(old, 'gambling', randomBytes(32).toString('base64url'));
    const refused = await (
      await old.post(`${login}/login`, { username: 'usermanager', password: 'usermanager' })
    ).text();
    expect(refused).toContain('Usuario o contraseña incorrectos.');
  });
});

describe('production', () => {
  it('seeds no accounts and serves no mailbox', async () => {
    const production = await startServer(
      testServerOptions({ distDir: started.site.distDir }, { nodeEnv: 'production' }),
    );
    try {
      const { rows } = await production.db.query('select count(*)::int as n from accounts');
      expect(rows).toEqual([{ n: 0 }]);
      expect((await fetch(`${production.url}/dev/mailbox`)).status).toBe(404);
    } finally {
      await production.close();
    }
  });
});
