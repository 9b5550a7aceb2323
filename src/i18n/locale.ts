import type { LocaleCode } from '../../contract/api/settings';
import { LOCALE_COOKIE, LOCALES } from '../../contract/i18n/locale';

// The choice itself (resolveLocale) is the contract's: the server's first paint makes it too. Where it is kept
// is the browser's.
const STORAGE_KEY = 'portal.locale';

export function readStoredLocale(storage: Storage = localStorage): string | null {
  try {
    return storage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

type CookieJar = Pick<Document, 'cookie'> & { location: Pick<Location, 'protocol'> };

/** A year: the choice is the browser's until it makes another. */
const COOKIE_MAX_AGE = 365 * 24 * 3600;

/** What document.cookie is set to for the server to paint in `locale` (server/shell.ts). */
export function localeCookie(locale: LocaleCode, { secure }: { secure: boolean }): string {
  // Lax: a link from another site opens the portal in this browser's language too (the value is no secret).
  return `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${COOKIE_MAX_AGE}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function storeLocale(
  locale: LocaleCode,
  storage: Storage = localStorage,
  jar: CookieJar = document,
): void {
  try {
    storage.setItem(STORAGE_KEY, locale);
  } catch {
    // Private mode or full storage: the choice lasts for this page only.
  }
  jar.cookie = localeCookie(locale, { secure: jar.location.protocol === 'https:' });
}

/** The cookie of a language stored before the portal wrote one (or one removed since): written at start. */
export function keepLocaleCookie(storage: Storage = localStorage, jar: CookieJar = document): void {
  const stored = LOCALES.find((locale) => locale === readStoredLocale(storage));
  if (stored && !jar.cookie.split('; ').includes(`${LOCALE_COOKIE}=${stored}`))
    jar.cookie = localeCookie(stored, { secure: jar.location.protocol === 'https:' });
}
