// One oidc-provider per tenant at /auth/realms/{tenant} (Keycloak's layout), per known origin (origins.ts)
// (localhost:8080 and demo.localhost:8080 are different issuers). Code flow with PKCE S256, a public client,
// refresh tokens that rotate, access tokens as JWTs carrying the permission strings of spec §6.

import Provider, { type Configuration, errors, type KoaContextWithOIDC } from 'oidc-provider';
import { SIGN_IN_REASON_PARAM } from '../../contract/api/sign-in-reason';
import type { Db } from '../db/db';
import { getOrCreate, getOrCreatePromise } from '../get-or-create';
import { esc } from '../http/html';
import type { Logger } from '../logger';
import type { KnownOrigins } from '../origins';
import { findAccountById, tokenClaimsOf } from './accounts';
import { databaseAdapter } from './adapter';
import { loadTenantKeys, type TenantKeys } from './keys';
import { messageBody, page, pickLanguage, readTheme, text } from './pages';

export const CLIENT_ID = 'portal';
/** The audience of the portal's access tokens: the reference API. */
export const API_RESOURCE = 'urn:identity-portal:api';
export const PORTAL_SCOPE = 'openid profile roles email';
export const REALMS_PREFIX = '/auth/realms';
export const LOGOUT_SCRIPT = '/auth/assets/logout.js';
/** The access-token claim naming the grant it was issued under: the API refuses the token once that grant ends. */
export const GRANT_ID_CLAIM = 'grant_id';
/** The UserInfo endpoint under the issuer (oidc-provider's default, named here because userinfo.ts answers it). */
export const USERINFO_PATH = '/me';

/** The claims each scope releases, in the ID token and at UserInfo (OpenID Connect Core §5.4, plus roles). */
export const SCOPE_CLAIMS = {
  openid: ['sub'],
  profile: ['name', 'given_name', 'family_name', 'preferred_username', 'locale'],
  email: ['email', 'email_verified'],
  roles: ['roles'],
} as const satisfies Record<string, readonly string[]>;

/** Every claim the provider knows of an account (each scope then releases its own), or undefined for no account. */
export async function accountClaims(db: Db, tenant: string, id: string) {
  const account = await findAccountById(db, tenant, id);
  if (!account) return undefined;
  const claims = tokenClaimsOf(account, tenant);
  return {
    sub: account.id,
    preferred_username: account.username,
    given_name: account.first_name ?? undefined,
    family_name: account.last_name ?? undefined,
    name: claims.name,
    email: account.email ?? undefined,
    email_verified: Boolean(account.email),
    locale: account.locale ?? undefined,
    roles: claims.roles,
  };
}

export interface IdentityProviderOptions {
  db: Db;
  tenants: readonly string[];
  publicDir: string;
  logger: Logger;
  /** Access-token lifetime in seconds (ACCESS_TOKEN_TTL; 300 by default). */
  accessTokenTtl: number;
  /** TRUST_PROXY: X-Forwarded-Proto says whether the browser came over https (then cookies are Secure). */
  trustProxy?: boolean;
  /** The only origins issuers are made for. */
  origins: KnownOrigins;
}

export function issuerOf(origin: string, tenant: string): string {
  return `${origin}${REALMS_PREFIX}/${tenant}`;
}

type Theme = ReturnType<typeof readTheme>;

/** What a tenant's provider at one origin is made from. */
interface ProviderSetting {
  db: Db;
  tenant: string;
  origin: string;
  keys: TenantKeys;
  theme: Theme;
  /** Access-token lifetime in seconds. */
  ttl: number;
}

/** The language the portal asked for (ui_locales), also when resuming an interaction that carried it. */
function languageOf(theme: Theme, ctx: KoaContextWithOIDC) {
  return pickLanguage(
    theme,
    (ctx.oidc?.params?.ui_locales ?? ctx.oidc?.entities?.Interaction?.params?.ui_locales) as
      | string
      | undefined,
    ctx.get('accept-language'),
  );
}

/** Sign-out in two pages of the tenant's look (confirm, then signed out), back to the portal at `origin`. */
function logoutPages({ origin, theme }: ProviderSetting) {
  return {
    async logoutSource(ctx: KoaContextWithOIDC, form: string) {
      const lang = languageOf(theme, ctx);
      ctx.body = page({
        theme,
        lang,
        title: text(lang, 'logoutTitle'),
        body: `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">${esc(text(lang, 'logout'))}</button>`,
        scripts: [LOGOUT_SCRIPT],
      });
    },
    async postLogoutSuccessSource(ctx: KoaContextWithOIDC) {
      const lang = languageOf(theme, ctx);
      ctx.body = page({
        theme,
        lang,
        title: text(lang, 'logout'),
        body: messageBody(text(lang, 'loggedOut'), 'ok', {
          href: `${origin}/`,
          label: text(lang, 'backToPortal'),
        }),
      });
    },
  };
}

/** The provider's error page, in the tenant's look and the person's language, with a way back to the portal. */
function errorPage({ origin, theme }: ProviderSetting): NonNullable<Configuration['renderError']> {
  return async (ctx, out) => {
    const lang = languageOf(theme, ctx);
    ctx.type = 'html';
    const detail =
      typeof out.error_description === 'string' ? out.error_description : String(out.error ?? '');
    ctx.body = page({
      theme,
      lang,
      title: text(lang, 'errorTitle'),
      body: `${messageBody(text(lang, 'unknown'), 'alert', { href: `${origin}/`, label: text(lang, 'backToPortal') })}<p><small>${esc(detail)}</small></p>`,
    });
  };
}

/** Revocation, sign-out pages, and access tokens for the reference API only (JWTs of `ttl` seconds). */
function providerFeatures(setting: ProviderSetting): Configuration['features'] {
  return {
    devInteractions: { enabled: false },
    revocation: { enabled: true },
    rpInitiatedLogout: { enabled: true, ...logoutPages(setting) },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => API_RESOURCE,
      useGrantedResource: () => true,
      getResourceServerInfo(_ctx, resource) {
        if (resource !== API_RESOURCE) throw new errors.InvalidTarget();
        return {
          scope: PORTAL_SCOPE,
          audience: API_RESOURCE,
          accessTokenTTL: setting.ttl,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  };
}

/** The portal is the tenant's own application: signing in grants it the portal scope without a consent page. */
const loadPortalGrant: NonNullable<Configuration['loadExistingGrant']> = async (ctx) => {
  const session = ctx.oidc.session;
  const client = ctx.oidc.client;
  if (!session || !client) return undefined;
  const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  if (grantId) {
    const existing = await ctx.oidc.provider.Grant.find(grantId);
    if (existing) return existing;
  }
  if (!session.accountId) return undefined;
  const grant = new ctx.oidc.provider.Grant({
    clientId: client.clientId,
    accountId: session.accountId,
  });
  grant.addOIDCScope(`${PORTAL_SCOPE} offline_access`);
  grant.addResourceScope(API_RESOURCE, PORTAL_SCOPE);
  await grant.save();
  session.ensureClientContainer(client.clientId);
  session.grantIdFor(client.clientId, grant.jti);
  return grant;
};

/** The portal as the one public client of the tenant at `origin`. */
function portalClient({ origin, theme }: ProviderSetting): NonNullable<Configuration['clients']>[number] {
  return {
    client_id: CLIENT_ID,
    client_name: theme.title,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: [`${origin}/callback`, `${origin}/silent`],
    post_logout_redirect_uris: [`${origin}/`],
  };
}

function providerConfiguration(setting: ProviderSetting): Configuration {
  const { db, tenant, origin, keys, ttl } = setting;
  return {
    adapter: databaseAdapter(db, tenant),
    clients: [portalClient(setting)],
    jwks: keys.jwks as Configuration['jwks'],
    // Cross-origin calls (token, revocation, userinfo) only from the portal itself: the origin of its redirect URIs.
    clientBasedCORS: (_ctx, requestOrigin) => requestOrigin === origin,
    cookies: {
      keys: keys.cookieKeys,
      names: {
        session: `_session.${tenant}`,
        interaction: `_interaction.${tenant}`,
        resume: `_interaction_resume.${tenant}`,
      },
    },
    // Code flow only (spec §1): the discovery document then lists no implicit or hybrid response type.
    responseTypes: ['code'],
    pkce: { required: () => true },
    // Why the portal asks for the password (contract/api/sign-in-reason.ts), said on the sign-in page.
    extraParams: [SIGN_IN_REASON_PARAM],
    scopes: ['openid', 'offline_access', 'profile', 'email', 'roles'],
    claims: Object.fromEntries(Object.entries(SCOPE_CLAIMS).map(([scope, names]) => [scope, [...names]])),
    conformIdTokenClaims: false,
    routes: { userinfo: USERINFO_PATH },
    async findAccount(_ctx, sub) {
      const claims = await accountClaims(db, tenant, sub);
      if (!claims) return undefined;
      return { accountId: claims.sub, claims: async () => claims };
    },
    interactions: {
      url: (_ctx, interaction) => `${REALMS_PREFIX}/${tenant}/interaction/${interaction.uid}`,
    },
    features: providerFeatures(setting),
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = await findAccountById(db, tenant, token.accountId);
      return account ? { ...tokenClaimsOf(account, tenant), [GRANT_ID_CLAIM]: token.grantId } : undefined;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Public client: every refresh spends the token and returns a new one; a spent token is refused and
    // revokes the grant.
    rotateRefreshToken: () => true,
    loadExistingGrant: loadPortalGrant,
    ttl: {
      AccessToken: ttl,
      IdToken: ttl,
      AuthorizationCode: 60,
      Interaction: 60 * 60,
      Session: 8 * 60 * 60,
      Grant: 8 * 60 * 60,
      RefreshToken: 8 * 60 * 60,
    },
    renderError: errorPage(setting),
  };
}

/**
 * oidc-provider answers every CORS preflight by echoing the Origin (the client is known only on the real
 * request). No other origin than the portal's gets an Access-Control-* header: its browser then never sends the
 * request.
 */
function onlyPortalCors(provider: Provider, origin: string): void {
  provider.use(async (ctx, next) => {
    await next();
    const requestOrigin = ctx.get('Origin');
    if (!requestOrigin || requestOrigin === origin) return;
    for (const name of Object.keys(ctx.response.headers)) {
      if (name.toLowerCase().startsWith('access-control-')) ctx.remove(name);
    }
  });
}

export function createIdentityProviders(options: IdentityProviderOptions) {
  const { db, logger } = options;
  const keys = new Map<string, Promise<TenantKeys>>();
  const providers = new Map<string, Map<string, Promise<Provider>>>();

  const keysOf = (tenant: string): Promise<TenantKeys> =>
    getOrCreatePromise(keys, tenant, () => loadTenantKeys(db, tenant));

  async function build(origin: string, tenant: string): Promise<Provider> {
    const setting: ProviderSetting = {
      db,
      tenant,
      origin,
      keys: await keysOf(tenant),
      theme: readTheme(options.publicDir, tenant),
      ttl: options.accessTokenTtl,
    };
    const provider = new Provider(issuerOf(origin, tenant), providerConfiguration(setting));
    // Koa's ctx.secure then follows X-Forwarded-Proto, and oidc-provider marks its cookies Secure over https.
    provider.proxy = options.trustProxy ?? false;
    onlyPortalCors(provider, origin);
    provider.on('server_error', (_ctx, error) =>
      logger.log('error', 'identity provider error', { tenant, err: String(error) }),
    );
    return provider;
  }

  /** The provider of a tenant for a known origin, made on first use. */
  function providerFor(origin: string, tenant: string): Promise<Provider> {
    if (!options.origins.has(origin)) return Promise.reject(new Error(`${origin} is not a known origin`));
    const byOrigin = getOrCreate(providers, tenant, () => new Map<string, Promise<Provider>>());
    return getOrCreatePromise(byOrigin, origin, () => build(origin, tenant));
  }

  /** Whether an access token's `iss` is the issuer of a tenant at a known origin. */
  function isKnownIssuer(issuer: string): boolean {
    for (const origin of options.origins.all().keys()) {
      if (options.tenants.some((tenant) => issuerOf(origin, tenant) === issuer)) return true;
    }
    return false;
  }

  return {
    providerFor,
    keysOf,
    isKnownIssuer,
    origins: options.origins,
    tenants: options.tenants,
    publicDir: options.publicDir,
    db,
  };
}

export type IdentityProviders = ReturnType<typeof createIdentityProviders>;
