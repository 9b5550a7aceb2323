// The node handler behind /auth: the tenant's login and password-reset pages (one handler each, in handlers/),
// the broker token endpoint, the logout script, and everything else of /auth/realms/{tenant} handed to that
// tenant's oidc-provider.
import type Provider from 'oidc-provider';
import { getOrCreate } from '../get-or-create';
import { requestOrigin } from '../origins';
import type { RawHandler } from '../raw-handlers';
import { stripPrefix } from '../raw-handlers';
import { brokerToken } from './handlers/broker-token';
import { loginPage } from './handlers/login';
import { newPasswordPage } from './handlers/new-password';
import { realmRequest, send, sendProblem } from './handlers/realm';
import { resetRequestPage } from './handlers/reset-request';
import { readTheme, type TenantTheme } from './pages';
import { type IdentityProviders, issuerOf, LOGOUT_SCRIPT, REALMS_PREFIX, USERINFO_PATH } from './provider';
import { createThrottle, databaseThrottleStore, type Throttle } from './throttle';
import { answerUserInfo } from './userinfo';
import { createTokenVerifier } from './verify';

const LOGOUT_JS = `// Submits the provider's logout form (the portal already asked the person to sign out).
document.addEventListener('DOMContentLoaded', function () {
  var form = document.getElementById('op.logoutForm');
  if (!form) return;
  var yes = document.createElement('input');
  yes.type = 'hidden'; yes.name = 'logout'; yes.value = 'yes';
  form.appendChild(yes);
  form.submit();
});
`;

export interface AuthHandlerOptions {
  /** TRUST_PROXY: X-Forwarded-Proto says whether the browser's origin is https. */
  trustProxy?: boolean;
  throttle?: Throttle;
  now?: () => number;
}

const REALM_PATH = new RegExp(`^${REALMS_PREFIX}/([a-z0-9][a-z0-9-]*)(/.*)?$`);
const INTERACTION = /^\/interaction\/([\w-]+)(\/login)?$/;
const NEW_PASSWORD = /^\/reset\/([\w-]{20,100})$/;
const BROKER_TOKEN = /^\/broker\/([\w.-]+)\/token$/;

export function createAuthHandler(idp: IdentityProviders, options: AuthHandlerOptions = {}): RawHandler {
  const { db } = idp;
  const trustProxy = options.trustProxy ?? false;
  // Counted in the database: every process behind a load balancer sees the same failures.
  const throttle = options.throttle ?? createThrottle({ store: databaseThrottleStore(db) });
  const now = options.now ?? Date.now;
  const verify = createTokenVerifier(idp);
  const callbacks = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  const themes = new Map<string, TenantTheme>();
  const themeOf = (tenant: string) => getOrCreate(themes, tenant, () => readTheme(idp.publicDir, tenant));

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === LOGOUT_SCRIPT) {
      res.setHeader('Cache-Control', 'no-cache');
      send(res, 200, 'text/javascript; charset=utf-8', LOGOUT_JS);
      return;
    }
    const match = REALM_PATH.exec(url.pathname);
    const tenant = match?.[1];
    if (!match || !tenant || !idp.tenants.includes(tenant)) {
      sendProblem(res, 404, 'No identity provider here.', 'not_found');
      return;
    }
    // The origin the browser used, when it is a known origin (PUBLIC_URL): the provider's issuer, its
    // redirect URIs and every link below (the reset link in mail too) are made for it and no other.
    const origin = requestOrigin(req, trustProxy);
    if (!origin) {
      sendProblem(res, 400, 'Malformed Host header.');
      return;
    }
    if (!idp.origins.has(origin)) {
      sendProblem(
        res,
        400,
        'Unknown host: this server signs in only at its known origins (PUBLIC_URL).',
        'unknown_host',
      );
      return;
    }
    const rest = match[2] ?? '/';
    const realm = `${REALMS_PREFIX}/${tenant}`;
    const provider = await idp.providerFor(origin, tenant);
    const r = realmRequest({
      req,
      res,
      url,
      db,
      tenant,
      realm,
      origin,
      provider,
      now,
      theme: themeOf(tenant),
    });

    const interaction = INTERACTION.exec(rest);
    if (interaction?.[1])
      return loginPage(r, interaction[1], Boolean(interaction[2]), { throttle, trustProxy });
    if (rest === '/reset') return resetRequestPage(r);
    const reset = NEW_PASSWORD.exec(rest);
    if (reset?.[1]) return newPasswordPage(r, reset[1]);
    const broker = BROKER_TOKEN.exec(rest);
    if (broker?.[1]) return brokerToken(r, broker[1], verify);
    // UserInfo: the provider's own refuses the JWT access tokens it issues (userinfo.ts).
    if (rest === USERINFO_PATH && (req.method === 'GET' || req.method === 'POST')) {
      await answerUserInfo(req, res, { db, tenant, issuer: issuerOf(origin, tenant), origin, verify });
      return;
    }
    // The provider itself.
    stripPrefix(req, realm);
    await getOrCreate(callbacks, provider, () => provider.callback())(req, res);
  };
}
