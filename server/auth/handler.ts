// The node handler behind /auth: the tenant's login and password-reset pages, the broker token endpoint, the
// logout script, and everything else of /auth/realms/{tenant} handed to that tenant's oidc-provider.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { getOrCreate } from '../get-or-create';
import { makeProblem, PROBLEM_CONTENT_TYPE, problemJson } from '../http/problem';
import { requestOrigin } from '../origins';
import type { RawHandler } from '../raw-handlers';
import { stripPrefix } from '../raw-handlers';
import { findAccountByLogin } from './accounts';
import {
  loginBody,
  messageBody,
  newPasswordBody,
  type PageLanguage,
  page,
  pickLanguage,
  readTheme,
  resetRequestBody,
  type TenantTheme,
  text,
} from './pages';
import { hashPassword, passwordProblems, verifyPassword } from './passwords';
import {
  API_RESOURCE,
  CLIENT_ID,
  type IdentityProviders,
  issuerOf,
  LOGOUT_SCRIPT,
  PORTAL_SCOPE,
  REALMS_PREFIX,
  USERINFO_PATH,
} from './provider';
import { createThrottle, databaseThrottleStore, type Throttle } from './throttle';
import { answerUserInfo } from './userinfo';
import { createTokenVerifier } from './verify';

export const RESET_TTL_MS = 30 * 60 * 1000;
const FORM_LIMIT = 16 * 1024;

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

class FormTooLarge extends Error {}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > FORM_LIMIT) throw new FormTooLarge('form too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-store');
  res.end(body);
}

function sendProblem(res: ServerResponse, status: number, detail: string, code?: string): void {
  send(res, status, PROBLEM_CONTENT_TYPE, problemJson(makeProblem(status, detail, code)));
}

const REALM_PATH = new RegExp(`^${REALMS_PREFIX}/([a-z0-9][a-z0-9-]*)(/.*)?$`);

const methodNotAllowed = (res: ServerResponse) => sendProblem(res, 405, 'Method not allowed.');

/**
 * The address a sign-in came from. Behind a trusted proxy (TRUST_PROXY) every connection is the proxy's, so the
 * address is the last one X-Forwarded-For names: the one the proxy itself appended (earlier entries are the
 * client's own word). Without TRUST_PROXY the header is ignored: anyone can send it.
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const socket = req.socket.remoteAddress ?? '';
  if (!trustProxy) return socket;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((a) => a.trim());
  return forwarded.filter(Boolean).at(-1) ?? socket;
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

export function createAuthHandler(idp: IdentityProviders, options: AuthHandlerOptions = {}): RawHandler {
  const { db } = idp;
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
    const origin = requestOrigin(req, options.trustProxy ?? false);
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
    const theme = themeOf(tenant);
    const langOf = (asked?: string | null) =>
      pickLanguage(theme, asked ?? undefined, req.headers['accept-language']);
    const html = (
      status: number,
      lang: PageLanguage,
      title: string,
      body: string,
      languageHref?: (l: PageLanguage) => string,
    ) =>
      send(
        res,
        status,
        'text/html; charset=utf-8',
        page({ theme, lang, title, body, ...(languageHref ? { languageHref } : {}) }),
      );
    const provider = await idp.providerFor(origin, tenant);

    // ── login (the provider's interaction) ──────────────────────────────────────────────────────────
    const interaction = /^\/interaction\/([\w-]+)(\/login)?$/.exec(rest);
    if (interaction?.[1]) {
      const uid = interaction[1];
      const action = `${realm}/interaction/${uid}/login`;
      let details: Awaited<ReturnType<Provider['interactionDetails']>>;
      try {
        details = await provider.interactionDetails(req, res);
        if (details.uid !== uid) throw new Error('interaction mismatch');
      } catch {
        const lang = langOf(url.searchParams.get('lang'));
        html(
          400,
          lang,
          text(lang, 'errorTitle'),
          messageBody(text(lang, 'unknown'), 'alert', {
            href: `${origin}/`,
            label: text(lang, 'backToPortal'),
          }),
        );
        return;
      }
      const lang = langOf(url.searchParams.get('lang') ?? (details.params.ui_locales as string | undefined));
      const forgotHref = `${realm}/reset?lang=${lang}`;
      const languageHref = (l: PageLanguage) => `${realm}/interaction/${uid}?lang=${l}`;

      if (details.prompt.name === 'consent') {
        // Not reached for the portal (loadExistingGrant grants it); kept so an odd request cannot stall here.
        const grant = details.grantId
          ? ((await provider.Grant.find(details.grantId)) ??
            new provider.Grant({ accountId: details.session?.accountId, clientId: CLIENT_ID }))
          : new provider.Grant({ accountId: details.session?.accountId, clientId: CLIENT_ID });
        grant.addOIDCScope(`${PORTAL_SCOPE} offline_access`);
        grant.addResourceScope(API_RESOURCE, PORTAL_SCOPE);
        await provider.interactionFinished(
          req,
          res,
          { consent: { grantId: await grant.save() } },
          { mergeWithLastSubmission: true },
        );
        return;
      }

      if (req.method === 'GET' && !interaction[2]) {
        html(
          200,
          lang,
          text(lang, 'signInTitle'),
          loginBody(lang, {
            action,
            username: (details.params.login_hint as string | undefined) ?? '',
            forgotHref,
          }),
          languageHref,
        );
        return;
      }
      if (req.method !== 'POST' || !interaction[2]) {
        methodNotAllowed(res);
        return;
      }
      let username = '';
      try {
        const form = await readForm(req);
        username = (form.get('username') ?? '').trim().slice(0, 200);
        const password = form.get('password') ?? '';
        const keys = [
          `${tenant}|account|${username.toLowerCase()}`,
          `${tenant}|address|${clientAddress(req, options.trustProxy ?? false)}`,
        ];
        let account: Awaited<ReturnType<typeof findAccountByLogin>>;
        const ok = await throttle.attempt(keys, async () => {
          account = username ? await findAccountByLogin(db, tenant, username) : undefined;
          return Boolean(
            (await verifyPassword(password.slice(0, 1024), account?.password_hash)) && account && password,
          );
        });
        if (!ok || !account) {
          html(
            200,
            lang,
            text(lang, 'signInTitle'),
            loginBody(lang, { action, username, error: 'incorrect', forgotHref }),
            languageHref,
          );
          return;
        }
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: account.id } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        html(
          error instanceof FormTooLarge ? 413 : 500,
          lang,
          text(lang, 'signInTitle'),
          loginBody(lang, { action, username, error: 'unknown', forgotHref }),
          languageHref,
        );
      }
      return;
    }

    // ── password reset ──────────────────────────────────────────────────────────────────────────────
    if (rest === '/reset') {
      const lang = langOf(url.searchParams.get('lang'));
      const action = `${realm}/reset?lang=${lang}`;
      const languageHref = (l: PageLanguage) => `${realm}/reset?lang=${l}`;
      const title = text(lang, 'resetTitle');
      const portalHref = `${origin}/`;
      if (req.method === 'GET') {
        html(
          200,
          lang,
          title,
          resetRequestBody(lang, { action, login: '', sent: false, portalHref }),
          languageHref,
        );
        return;
      }
      if (req.method !== 'POST') {
        methodNotAllowed(res);
        return;
      }
      let login = '';
      try {
        login = ((await readForm(req)).get('login') ?? '').trim().slice(0, 200);
        if (!login) {
          html(
            200,
            lang,
            title,
            resetRequestBody(lang, { action, login, sent: false, error: 'resetRequired', portalHref }),
            languageHref,
          );
          return;
        }
        const account = await findAccountByLogin(db, tenant, login);
        if (account?.email) {
          const token = randomBytes(32).toString('base64url');
          const link = `${origin}${realm}/reset/${token}?lang=${lang}`;
          const name = account.first_name ?? account.username;
          await db.transaction(async (tx) => {
            await tx.query(
              'insert into password_resets (tenant, token_hash, account_id, expires_at) values ($1, $2, $3, $4)',
              [tenant, tokenHash(token), account.id, new Date(now() + RESET_TTL_MS)],
            );
            await tx.query(
              'insert into outbox (tenant, recipient, subject, body, link) values ($1, $2, $3, $4, $5)',
              [
                tenant,
                account.email,
                text(lang, 'mailSubject'),
                text(lang, 'mailBody').replace('{name}', name),
                link,
              ],
            );
          });
        }
        // The same answer whether or not the account exists.
        html(200, lang, title, resetRequestBody(lang, { action, login, sent: true, portalHref }));
      } catch (error) {
        html(
          error instanceof FormTooLarge ? 413 : 500,
          lang,
          title,
          resetRequestBody(lang, { action, login, sent: false, error: 'unknown', portalHref }),
          languageHref,
        );
      }
      return;
    }

    const reset = /^\/reset\/([\w-]{20,100})$/.exec(rest);
    if (reset?.[1]) {
      const lang = langOf(url.searchParams.get('lang'));
      const hash = tokenHash(reset[1]);
      const action = `${realm}/reset/${reset[1]}?lang=${lang}`;
      const title = text(lang, 'newPasswordTitle');
      const { rows } = await db.query<{ account_id: string }>(
        'select account_id::text as account_id from password_resets where tenant = $1 and token_hash = $2 and used_at is null and expires_at > $3',
        [tenant, hash, new Date(now())],
      );
      const linkExpired = () =>
        html(
          410,
          lang,
          title,
          messageBody(text(lang, 'expired'), 'alert', {
            href: `${realm}/reset?lang=${lang}`,
            label: text(lang, 'requestAgain'),
          }),
        );
      const accountId = rows[0]?.account_id;
      if (!accountId) {
        linkExpired();
        return;
      }
      if (req.method === 'GET') {
        html(200, lang, title, newPasswordBody(lang, { action, problems: [] }));
        return;
      }
      if (req.method !== 'POST') {
        methodNotAllowed(res);
        return;
      }
      try {
        const form = await readForm(req);
        const password = (form.get('password') ?? '').slice(0, 1024);
        const problems = passwordProblems(password);
        if (problems.length > 0) {
          html(200, lang, title, newPasswordBody(lang, { action, problems, error: 'weak' }));
          return;
        }
        if (password !== form.get('confirm')) {
          html(200, lang, title, newPasswordBody(lang, { action, problems: [], error: 'mismatch' }));
          return;
        }
        const passwordHash = await hashPassword(password);
        const changed = await db.transaction(async (tx) => {
          const used = await tx.query(
            'update password_resets set used_at = $3 where tenant = $1 and token_hash = $2 and used_at is null returning 1',
            [tenant, hash, new Date(now())],
          );
          if (used.rows.length === 0) return false;
          await tx.query('update accounts set password_hash = $3 where tenant = $1 and id = $2', [
            tenant,
            accountId,
            passwordHash,
          ]);
          // A new password ends every session and refresh token of the account.
          await tx.query("delete from oidc_payloads where tenant = $1 and payload->>'accountId' = $2", [
            tenant,
            accountId,
          ]);
          return true;
        });
        if (!changed) {
          linkExpired();
          return;
        }
        html(
          200,
          lang,
          title,
          messageBody(text(lang, 'changed'), 'ok', { href: `${origin}/`, label: text(lang, 'backToPortal') }),
        );
      } catch (error) {
        const status = error instanceof FormTooLarge ? 413 : 500;
        html(status, lang, title, newPasswordBody(lang, { action, problems: [], error: 'unknown' }));
      }
      return;
    }

    // ── broker token (Keycloak's /broker/{provider}/token) ─────────────────────────────────────────
    const broker = /^\/broker\/([\w.-]+)\/token$/.exec(rest);
    if (broker?.[1]) {
      if (req.method !== 'GET') {
        methodNotAllowed(res);
        return;
      }
      try {
        const claims = await verify(req.headers.authorization);
        if (claims.tenant !== tenant) throw new Error('other tenant');
      } catch {
        sendProblem(res, 401, 'A valid bearer token of this realm is required.', 'unauthorized');
        return;
      }
      // The development provider brokers no external identity providers: no account is linked to one.
      sendProblem(res, 400, `The account is not linked to the identity provider ${broker[1]}.`, 'not_linked');
      return;
    }

    // ── UserInfo: the provider's own refuses the JWT access tokens it issues (userinfo.ts) ──────────
    if (rest === USERINFO_PATH && (req.method === 'GET' || req.method === 'POST')) {
      await answerUserInfo(req, res, { db, tenant, issuer: issuerOf(origin, tenant), origin, verify });
      return;
    }

    // ── the provider itself ─────────────────────────────────────────────────────────────────────────
    stripPrefix(req, realm);
    await getOrCreate(callbacks, provider, () => provider.callback())(req, res);
  };
}
