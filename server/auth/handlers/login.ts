// The sign-in page: the provider's login interaction (GET shows the form, POST checks the password).

import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import { SIGN_IN_REASON_PARAM, signInReasonOf } from '../../../contract/api/sign-in-reason';
import { findAccountByLogin } from '../accounts';
import { loginBody, messageBody, type PageLanguage, text } from '../pages';
import { verifyPassword } from '../passwords';
import { API_RESOURCE, CLIENT_ID, PORTAL_SCOPE } from '../provider';
import type { Throttle } from '../throttle';
import { FormTooLarge, methodNotAllowed, type RealmRequest, readForm } from './realm';

export interface LoginOptions {
  throttle: Throttle;
  /** TRUST_PROXY: the throttle counts the address the proxy saw, not the proxy's. */
  trustProxy: boolean;
}

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

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

/** /interaction/{uid} (GET) and /interaction/{uid}/login (POST). */
export async function loginPage(
  r: RealmRequest,
  uid: string,
  submitted: boolean,
  options: LoginOptions,
): Promise<void> {
  const { req, res, url, realm, origin, provider } = r;
  let details: Interaction;
  try {
    details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
  } catch {
    const lang = r.langOf(url.searchParams.get('lang'));
    r.html(
      400,
      lang,
      text(lang, 'errorTitle'),
      messageBody(text(lang, 'unknown'), 'alert', { href: `${origin}/`, label: text(lang, 'backToPortal') }),
    );
    return;
  }
  const lang = r.langOf(url.searchParams.get('lang') ?? (details.params.ui_locales as string | undefined));
  const form: LoginForm = {
    lang,
    action: `${realm}/interaction/${uid}/login`,
    forgotHref: `${realm}/reset?lang=${lang}`,
    languageHref: (l: PageLanguage) => `${realm}/interaction/${uid}?lang=${l}`,
  };

  if (details.prompt.name === 'consent') {
    await grantConsent(r, details);
    return;
  }
  if (req.method === 'GET' && !submitted) {
    const username = (details.params.login_hint as string | undefined) ?? '';
    const reason = signInReasonOf(details.params[SIGN_IN_REASON_PARAM]);
    r.html(
      200,
      lang,
      text(lang, 'signInTitle'),
      loginBody(lang, { ...form, username, reason }),
      form.languageHref,
    );
    return;
  }
  if (req.method !== 'POST' || !submitted) {
    methodNotAllowed(res);
    return;
  }
  await submitLogin(r, form, options);
}

interface LoginForm {
  lang: PageLanguage;
  action: string;
  forgotHref: string;
  languageHref: (l: PageLanguage) => string;
}

/** Not reached for the portal (loadExistingGrant grants it); kept so an odd request cannot stall here. */
async function grantConsent(r: RealmRequest, details: Interaction): Promise<void> {
  const { provider } = r;
  const grant = details.grantId
    ? ((await provider.Grant.find(details.grantId)) ??
      new provider.Grant({ accountId: details.session?.accountId, clientId: CLIENT_ID }))
    : new provider.Grant({ accountId: details.session?.accountId, clientId: CLIENT_ID });
  grant.addOIDCScope(`${PORTAL_SCOPE} offline_access`);
  grant.addResourceScope(API_RESOURCE, PORTAL_SCOPE);
  await provider.interactionFinished(
    r.req,
    r.res,
    { consent: { grantId: await grant.save() } },
    { mergeWithLastSubmission: true },
  );
}

async function submitLogin(r: RealmRequest, form: LoginForm, options: LoginOptions): Promise<void> {
  const { req, res, db, tenant } = r;
  const { lang, action, forgotHref, languageHref } = form;
  let username = '';
  try {
    const fields = await readForm(req);
    username = (fields.get('username') ?? '').trim().slice(0, 200);
    const password = fields.get('password') ?? '';
    const keys = [
      `${tenant}|account|${username.toLowerCase()}`,
      `${tenant}|address|${clientAddress(req, options.trustProxy)}`,
    ];
    let account: Awaited<ReturnType<typeof findAccountByLogin>>;
    const ok = await options.throttle.attempt(keys, async () => {
      account = username ? await findAccountByLogin(db, tenant, username) : undefined;
      return Boolean(
        (await verifyPassword(password.slice(0, 1024), account?.password_hash)) && account && password,
      );
    });
    if (!ok || !account) {
      r.html(
        200,
        lang,
        text(lang, 'signInTitle'),
        loginBody(lang, { action, username, error: 'incorrect', forgotHref }),
        languageHref,
      );
      return;
    }
    await r.provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.id } },
      { mergeWithLastSubmission: false },
    );
  } catch (error) {
    r.html(
      error instanceof FormTooLarge ? 413 : 500,
      lang,
      text(lang, 'signInTitle'),
      loginBody(lang, { action, username, error: 'unknown', forgotHref }),
      languageHref,
    );
  }
}
