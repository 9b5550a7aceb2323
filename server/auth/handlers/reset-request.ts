// /reset: the page that asks for a password-reset link by mail.
import { randomBytes } from 'node:crypto';
import { findAccountByLogin } from '../accounts';
import { type PageLanguage, resetRequestBody, text } from '../pages';
import { createReset, RESET_TTL_MS } from '../resets';
import { FormTooLarge, methodNotAllowed, type RealmRequest, readForm } from './realm';

export async function resetRequestPage(r: RealmRequest): Promise<void> {
  const { req, res, url, db, tenant, realm, origin } = r;
  const lang = r.langOf(url.searchParams.get('lang'));
  const action = `${realm}/reset?lang=${lang}`;
  const languageHref = (l: PageLanguage) => `${realm}/reset?lang=${l}`;
  const title = text(lang, 'resetTitle');
  const portalHref = `${origin}/`;
  if (req.method === 'GET') {
    r.html(
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
      r.html(
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
      await createReset(
        db,
        tenant,
        { token, accountId: account.id, expiresAt: new Date(r.now() + RESET_TTL_MS) },
        {
          recipient: account.email,
          subject: text(lang, 'mailSubject'),
          body: text(lang, 'mailBody').replace('{name}', account.first_name ?? account.username),
          link: `${origin}${realm}/reset/${token}?lang=${lang}`,
        },
      );
    }
    // The same answer whether or not the account exists.
    r.html(200, lang, title, resetRequestBody(lang, { action, login, sent: true, portalHref }));
  } catch (error) {
    r.html(
      error instanceof FormTooLarge ? 413 : 500,
      lang,
      title,
      resetRequestBody(lang, { action, login, sent: false, error: 'unknown', portalHref }),
      languageHref,
    );
  }
}
