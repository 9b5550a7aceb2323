import type { LocaleCode } from '../api/settings';

export const LOCALES: readonly LocaleCode[] = ['es', 'en', 'eu'];
export const DEFAULT_LOCALE: LocaleCode = 'es';

/**
 * The cookie that tells the page server the language this browser chose (src/i18n/locale.ts writes it beside the
 * stored one), so that a screen comes painted in it (server/shell.ts) rather than in the tenant's first language,
 * which the page's inline script would drop.
 */
export const LOCALE_COOKIE = 'portal_locale';

function asLocale(value: string | null | undefined): LocaleCode | undefined {
  const code = value?.toLowerCase().split(/[-_]/)[0];
  return LOCALES.find((l) => l === code);
}

/**
 * Spec §9: stored locale, then es, then the browser's language, then en; default es. Each candidate
 * counts only when the tenant offers it; a tenant offering none of them gets its first locale.
 */
export function resolveLocale(input: {
  stored?: string | null;
  browser?: readonly string[];
  available: readonly LocaleCode[];
}): LocaleCode {
  const offered = (code: LocaleCode | undefined) =>
    code && input.available.includes(code) ? code : undefined;
  const browser = (input.browser ?? []).map(asLocale).find((code) => offered(code));
  return (
    offered(asLocale(input.stored)) ??
    offered(DEFAULT_LOCALE) ??
    browser ??
    offered('en') ??
    input.available[0] ??
    DEFAULT_LOCALE
  );
}
