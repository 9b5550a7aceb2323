// /reset/{token}: the page a reset link opens, where the person chooses a new password.
import { messageBody, newPasswordBody, text } from '../pages';
import { hashPassword, passwordProblems } from '../passwords';
import { consumeReset, openResetAccount, tokenHash } from '../resets';
import { FormTooLarge, methodNotAllowed, type RealmRequest, readForm } from './realm';

export async function newPasswordPage(r: RealmRequest, token: string): Promise<void> {
  const { req, res, url, db, tenant, realm, origin } = r;
  const lang = r.langOf(url.searchParams.get('lang'));
  const hash = tokenHash(token);
  const action = `${realm}/reset/${token}?lang=${lang}`;
  const title = text(lang, 'newPasswordTitle');
  const linkExpired = () =>
    r.html(
      410,
      lang,
      title,
      messageBody(text(lang, 'expired'), 'alert', {
        href: `${realm}/reset?lang=${lang}`,
        label: text(lang, 'requestAgain'),
      }),
    );
  const accountId = await openResetAccount(db, tenant, hash, new Date(r.now()));
  if (!accountId) {
    linkExpired();
    return;
  }
  if (req.method === 'GET') {
    r.html(200, lang, title, newPasswordBody(lang, { action, problems: [] }));
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
      r.html(200, lang, title, newPasswordBody(lang, { action, problems, error: 'weak' }));
      return;
    }
    if (password !== form.get('confirm')) {
      r.html(200, lang, title, newPasswordBody(lang, { action, problems: [], error: 'mismatch' }));
      return;
    }
    const passwordHash = await hashPassword(password);
    if (!(await consumeReset(db, tenant, { hash, accountId, passwordHash, now: new Date(r.now()) }))) {
      linkExpired();
      return;
    }
    r.html(
      200,
      lang,
      title,
      messageBody(text(lang, 'changed'), 'ok', { href: `${origin}/`, label: text(lang, 'backToPortal') }),
    );
  } catch (error) {
    const status = error instanceof FormTooLarge ? 413 : 500;
    r.html(status, lang, title, newPasswordBody(lang, { action, problems: [], error: 'unknown' }));
  }
}
