// The identity provider's own pages (login, password reset, logout, errors) in the tenant's theme and language.
// Plain HTML with inline styles and no external fonts; the only script is the logout auto-submit, served from
// this origin (CSP script-src 'self').
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SignInReason } from '../../contract/api/sign-in-reason';
import { esc } from '../http/html';
import type { PasswordProblem } from './passwords';

export const PAGE_LANGUAGES = ['es', 'en', 'eu'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/** The pages' and the reset mail's words per language (Spanish in usted: server/spanish-register.test.ts). */
export const TEXTS = {
  es: {
    signInTitle: 'Iniciar sesión',
    username: 'Usuario o correo electrónico',
    password: 'Contraseña',
    signIn: 'Entrar',
    forgot: '¿Ha olvidado su contraseña?',
    incorrect: 'Usuario o contraseña incorrectos.',
    unknown: 'Ha ocurrido un problema desconocido. Inténtelo de nuevo.',
    resetTitle: 'Restablecer la contraseña',
    resetIntro: 'Escriba su usuario o su correo y le enviaremos un enlace para elegir una nueva contraseña.',
    resetLogin: 'Usuario o correo electrónico',
    resetSend: 'Enviar enlace',
    resetSent: 'Si existe una cuenta con esos datos, le hemos enviado un enlace. Caduca en 30 minutos.',
    resetRequired: 'Escriba su usuario o su correo.',
    newPasswordTitle: 'Elija una nueva contraseña',
    newPassword: 'Nueva contraseña',
    repeatPassword: 'Repita la nueva contraseña',
    save: 'Guardar contraseña',
    rules: 'La contraseña debe tener:',
    too_short: 'al menos 8 caracteres',
    no_lower: 'una letra minúscula',
    no_upper: 'una letra mayúscula',
    no_digit: 'un número',
    weak: 'La contraseña no cumple las reglas.',
    mismatch: 'Las dos contraseñas no coinciden.',
    changed: 'Contraseña cambiada. Ya puede entrar con ella.',
    expired: 'El enlace ha caducado o ya se ha usado. Pida uno nuevo.',
    requestAgain: 'Pedir un enlace nuevo',
    backToPortal: 'Volver al portal',
    logoutTitle: 'Cerrando sesión…',
    logout: 'Cerrar sesión',
    loggedOut: 'Ha cerrado la sesión.',
    errorTitle: 'No se ha podido completar',
    mailSubject: 'Restablezca su contraseña',
    mailBody:
      'Hola {name}: para elegir una nueva contraseña abra este enlace (caduca en 30 minutos). Si no lo ha pedido usted, ignore este mensaje.',
    language: 'Idioma',
    reasonRights:
      'La página que ha abierto necesita otros permisos. Inicie sesión con una cuenta que los tenga.',
    reasonExpired: 'Su sesión ha terminado. Inicie sesión de nuevo para seguir donde estaba.',
  },
  en: {
    signInTitle: 'Sign in',
    username: 'Username or email',
    password: 'Password',
    signIn: 'Sign in',
    forgot: 'Forgot your password?',
    incorrect: 'Incorrect username or password.',
    unknown: 'An unknown problem occurred. Please try again.',
    resetTitle: 'Reset your password',
    resetIntro: 'Type your username or email and we will send you a link to choose a new password.',
    resetLogin: 'Username or email',
    resetSend: 'Send link',
    resetSent: 'If an account exists with those details, we have sent you a link. It expires in 30 minutes.',
    resetRequired: 'Type your username or email.',
    newPasswordTitle: 'Choose a new password',
    newPassword: 'New password',
    repeatPassword: 'Repeat the new password',
    save: 'Save password',
    rules: 'The password must have:',
    too_short: 'at least 8 characters',
    no_lower: 'a lower-case letter',
    no_upper: 'an upper-case letter',
    no_digit: 'a digit',
    weak: 'The password does not meet the rules.',
    mismatch: 'The two passwords do not match.',
    changed: 'Password changed. You can now sign in with it.',
    expired: 'The link has expired or has already been used. Ask for a new one.',
    requestAgain: 'Ask for a new link',
    backToPortal: 'Back to the portal',
    logoutTitle: 'Signing out…',
    logout: 'Sign out',
    loggedOut: 'You have signed out.',
    errorTitle: 'This could not be completed',
    mailSubject: 'Reset your password',
    mailBody:
      'Hello {name}: to choose a new password open this link (it expires in 30 minutes). If you did not ask for it, ignore this message.',
    language: 'Language',
    reasonRights: 'The page you opened needs other rights. Sign in with an account that has them.',
    reasonExpired: 'Your session has ended. Sign in again to continue where you were.',
  },
  eu: {
    signInTitle: 'Hasi saioa',
    username: 'Erabiltzailea edo helbide elektronikoa',
    password: 'Pasahitza',
    signIn: 'Sartu',
    forgot: 'Pasahitza ahaztu duzu?',
    incorrect: 'Erabiltzailea edo pasahitza okerra da.',
    unknown: 'Arazo ezezagun bat gertatu da. Saiatu berriro.',
    resetTitle: 'Berrezarri pasahitza',
    resetIntro:
      'Idatzi zure erabiltzailea edo helbide elektronikoa, eta pasahitz berri bat aukeratzeko esteka bidaliko dizugu.',
    resetLogin: 'Erabiltzailea edo helbide elektronikoa',
    resetSend: 'Bidali esteka',
    resetSent: 'Datu horiekin konturen bat badago, esteka bat bidali dizugu. 30 minututan iraungitzen da.',
    resetRequired: 'Idatzi zure erabiltzailea edo helbide elektronikoa.',
    newPasswordTitle: 'Aukeratu pasahitz berri bat',
    newPassword: 'Pasahitz berria',
    repeatPassword: 'Errepikatu pasahitz berria',
    save: 'Gorde pasahitza',
    rules: 'Pasahitzak hau izan behar du:',
    too_short: 'gutxienez 8 karaktere',
    no_lower: 'letra xehe bat',
    no_upper: 'letra larri bat',
    no_digit: 'zenbaki bat',
    weak: 'Pasahitzak ez ditu arauak betetzen.',
    mismatch: 'Bi pasahitzak ez datoz bat.',
    changed: 'Pasahitza aldatu da. Orain harekin sar zaitezke.',
    expired: 'Esteka iraungi da edo dagoeneko erabili da. Eskatu beste bat.',
    requestAgain: 'Eskatu esteka berri bat',
    backToPortal: 'Itzuli atarira',
    logoutTitle: 'Saioa ixten…',
    logout: 'Itxi saioa',
    loggedOut: 'Saioa itxi duzu.',
    errorTitle: 'Ezin izan da osatu',
    mailSubject: 'Berrezarri zure pasahitza',
    mailBody:
      'Kaixo {name}: pasahitz berri bat aukeratzeko, ireki esteka hau (30 minututan iraungitzen da). Zuk eskatu ez baduzu, ez egin kasurik mezu honi.',
    language: 'Hizkuntza',
    reasonRights:
      'Ireki duzun orriak beste baimen batzuk behar ditu. Hasi saioa baimen horiek dituen kontu batekin.',
    reasonExpired: 'Zure saioa amaitu da. Hasi saioa berriro zeunden tokian jarraitzeko.',
  },
} as const satisfies Record<PageLanguage, Record<string, string>>;

export type TextKey = keyof (typeof TEXTS)['es'];

export function text(lang: PageLanguage, key: TextKey): string {
  return TEXTS[lang][key];
}

export interface TenantTheme {
  tenant: string;
  title: string;
  /** The title per language (settings `titles`); a language without one uses `title`. */
  titles: Partial<Record<PageLanguage, string>>;
  brandColor: string;
  logoUrl: string | null;
  locales: PageLanguage[];
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The tenant's title, brand colour, logo and languages from its settings.json (defaults when it is odd). */
export function readTheme(publicDir: string, tenant: string): TenantTheme {
  let raw: Record<string, unknown> = {};
  try {
    raw = JSON.parse(readFileSync(join(publicDir, 'tenants', tenant, 'settings.json'), 'utf8')) as Record<
      string,
      unknown
    >;
  } catch {
    // An unreadable settings file still gets a working login page.
  }
  const theme = (raw.theme ?? {}) as Record<string, unknown>;
  const locales = (Array.isArray(raw.locales) ? raw.locales : []).filter((l): l is PageLanguage =>
    (PAGE_LANGUAGES as readonly unknown[]).includes(l),
  );
  const logo = typeof theme.logo === 'string' && /^[\w.-]+$/.test(theme.logo) ? theme.logo : null;
  return {
    tenant,
    title: typeof raw.title === 'string' ? raw.title : tenant,
    titles: Object.fromEntries(
      Object.entries((raw.titles ?? {}) as Record<string, unknown>).filter(
        (entry): entry is [PageLanguage, string] =>
          (PAGE_LANGUAGES as readonly string[]).includes(entry[0]) &&
          typeof entry[1] === 'string' &&
          entry[1].length > 0,
      ),
    ),
    brandColor:
      typeof theme.brandColor === 'string' && HEX.test(theme.brandColor) ? theme.brandColor : '#0D55FF',
    logoUrl: logo ? `/tenants/${tenant}/${logo}` : null,
    locales: locales.length > 0 ? locales : ['es'],
  };
}

/** The page language: the asked one when the tenant offers it, else the first offered of Accept-Language, else es. */
export function pickLanguage(
  theme: TenantTheme,
  asked: string | undefined,
  acceptLanguage: string | undefined,
): PageLanguage {
  const candidates = [
    ...(asked ?? '').split(/[\s,]+/),
    ...(acceptLanguage ?? '').split(',').map((part) => part.split(';')[0] ?? ''),
  ];
  for (const candidate of candidates) {
    const lang = candidate.trim().toLowerCase().slice(0, 2);
    if ((theme.locales as string[]).includes(lang)) return lang as PageLanguage;
  }
  return theme.locales.includes('es') ? 'es' : (theme.locales[0] ?? 'es');
}

interface PageOptions {
  theme: TenantTheme;
  lang: PageLanguage;
  title: string;
  body: string;
  /** Where the language links point (the same page with ?lang=); none when omitted. */
  languageHref?: (lang: PageLanguage) => string;
  scripts?: string[];
}

export function page({ theme, lang, title, body, languageHref, scripts = [] }: PageOptions): string {
  const languages =
    languageHref && theme.locales.length > 1
      ? `<nav class="langs" aria-label="${esc(text(lang, 'language'))}">${theme.locales
          .map((l) =>
            l === lang
              ? `<span aria-current="true" lang="${l}">${l.toUpperCase()}</span>`
              : `<a href="${esc(languageHref(l))}" lang="${l}" hreflang="${l}">${l.toUpperCase()}</a>`,
          )
          .join('')}</nav>`
      : '';
  const name = theme.titles[lang] ?? theme.title;
  const logo = theme.logoUrl
    ? `<img src="${esc(theme.logoUrl)}" alt="${esc(name)}" height="40">`
    : `<strong>${esc(name)}</strong>`;
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · ${esc(name)}</title>
<style>
:root{--brand:${theme.brandColor}}
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f5f9;color:#0f172a;line-height:1.5}
header{display:flex;align-items:center;justify-content:space-between;padding:12px 16px;background:#fff;border-bottom:1px solid #e2e8f0}
header img{display:block;max-width:180px}
.langs{display:flex;gap:8px;font-size:14px}.langs a,.langs span{padding:4px 6px;border-radius:6px}
.langs span{background:var(--brand);color:#fff}
main{max-width:420px;margin:24px auto;padding:0 16px}
.card{background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 3px rgba(15,23,42,.12)}
h1{font-size:1.5rem;margin:0 0 16px}
label{display:block;font-weight:600;margin:16px 0 4px}
input{width:100%;font:inherit;padding:10px 12px;border:1px solid #94a3b8;border-radius:8px}
input:focus{outline:3px solid var(--brand);outline-offset:1px}
button,.button{display:block;width:100%;margin-top:20px;padding:12px;border:0;border-radius:8px;background:var(--brand);color:#fff;font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
a{color:#1e3a8a}
.alert{margin:0 0 16px;padding:12px;border-radius:8px;background:#fef2f2;color:#991b1b;border:1px solid #fecaca}
.ok{margin:0 0 16px;padding:12px;border-radius:8px;background:#f0fdf4;color:#166534;border:1px solid #bbf7d0}
.note{margin:0 0 16px;padding:12px;border-radius:8px;background:#eff6ff;color:#1e3a8a;border:1px solid #bfdbfe}
.rules{margin:8px 0 0;padding-left:20px;font-size:14px;color:#334155}
.rules .unmet{color:#991b1b;font-weight:600}
p.links{margin:16px 0 0;text-align:center}
</style>
</head>
<body>
<header>${logo}${languages}</header>
<main data-route="sign-in"><div class="card">
<h1>${esc(title)}</h1>
${body}
</div></main>
${scripts.map((src) => `<script src="${esc(src)}" defer></script>`).join('')}
</body>
</html>`;
}

export function alert(message: string): string {
  return `<p class="alert" role="alert">${esc(message)}</p>`;
}

/** The words of each reason the portal gives for asking the password (contract/api/sign-in-reason.ts). */
const REASON_TEXT = { rights: 'reasonRights', expired: 'reasonExpired' } as const satisfies Record<
  SignInReason,
  TextKey
>;

export function loginBody(
  lang: PageLanguage,
  {
    action,
    username,
    error,
    reason,
    forgotHref,
  }: {
    action: string;
    username: string;
    error?: 'incorrect' | 'unknown';
    /** Said above the form when there is no error to say. */
    reason?: SignInReason;
    forgotHref: string;
  },
): string {
  const note =
    !error && reason ? `<p class="note" role="status">${esc(text(lang, REASON_TEXT[reason]))}</p>` : '';
  return `${error ? alert(text(lang, error)) : note}
<form method="post" action="${esc(action)}" novalidate>
<label for="username">${esc(text(lang, 'username'))}</label>
<input id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${esc(username)}"${error || !username ? ' autofocus' : ''}>
<label for="password">${esc(text(lang, 'password'))}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${username && !error ? ' autofocus' : ''}>
<button type="submit">${esc(text(lang, 'signIn'))}</button>
</form>
<p class="links"><a href="${esc(forgotHref)}">${esc(text(lang, 'forgot'))}</a></p>`;
}

export function resetRequestBody(
  lang: PageLanguage,
  {
    action,
    login,
    sent,
    error,
    portalHref,
  }: {
    action: string;
    login: string;
    sent: boolean;
    error?: 'resetRequired' | 'unknown';
    portalHref: string;
  },
): string {
  if (sent) {
    return `<p class="ok" role="status">${esc(text(lang, 'resetSent'))}</p>
<p class="links"><a href="${esc(portalHref)}">${esc(text(lang, 'backToPortal'))}</a></p>`;
  }
  return `${error ? alert(text(lang, error)) : ''}
<p>${esc(text(lang, 'resetIntro'))}</p>
<form method="post" action="${esc(action)}" novalidate>
<label for="login">${esc(text(lang, 'resetLogin'))}</label>
<input id="login" name="login" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${esc(login)}" autofocus>
<button type="submit">${esc(text(lang, 'resetSend'))}</button>
</form>
<p class="links"><a href="${esc(portalHref)}">${esc(text(lang, 'backToPortal'))}</a></p>`;
}

const RULES: PasswordProblem[] = ['too_short', 'no_lower', 'no_upper', 'no_digit'];

export function newPasswordBody(
  lang: PageLanguage,
  {
    action,
    problems,
    error,
  }: { action: string; problems: PasswordProblem[]; error?: 'weak' | 'mismatch' | 'unknown' },
): string {
  const rules = RULES.map(
    (rule) => `<li${problems.includes(rule) ? ' class="unmet"' : ''}>${esc(text(lang, rule))}</li>`,
  ).join('');
  return `${error ? alert(text(lang, error)) : ''}
<form method="post" action="${esc(action)}" novalidate>
<label for="password">${esc(text(lang, 'newPassword'))}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required aria-describedby="rules" autofocus>
<div id="rules"><p class="rules">${esc(text(lang, 'rules'))}</p><ul class="rules">${rules}</ul></div>
<label for="confirm">${esc(text(lang, 'repeatPassword'))}</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<button type="submit">${esc(text(lang, 'save'))}</button>
</form>`;
}

export function messageBody(
  message: string,
  kind: 'ok' | 'alert',
  link?: { href: string; label: string },
): string {
  const box = kind === 'ok' ? `<p class="ok" role="status">${esc(message)}</p>` : alert(message);
  return `${box}${link ? `<a class="button" href="${esc(link.href)}">${esc(link.label)}</a>` : ''}`;
}
