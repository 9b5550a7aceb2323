import type { LocaleCode } from '../../contract/api/settings';
import { LOCALE_COOKIE, LOCALES } from '../../contract/i18n/locale';

// The choice itself (resolveLocale) is the contract's: the server's first paint makes it too. Where it is kept
// is the browser's: in its storage, and in a cookie the server paints the page's language by (server/shell.ts).
const STORAGE_KEY = 'portal.locale';

type CookieJar = Pick<Document, 'cookie'> & { location: Pick<Location, 'protocol'> };

/** The page's cookies (none outside a browser: the unit tests without a DOM). */
const pageCookies = (): CookieJar | undefined => (typeof document === 'undefined' ? undefined : document);

/** A year: the choice is the browser's until it makes another. */
const COOKIE_MAX_AGE = 365 * 24 * 3600;

function storedInStorage(storage: Storage): string | null {
  try {
    return storage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * The language stored in this browser; else the one of its cookie (a storage cleared or never writable), which the
 * server painted the page in: the app then shows the same.
 */
export function readStoredLocale(storage: Storage = localStorage, jar = pageCookies()): string | null {
  const cookie = jar?.cookie.split('; ').find((pair) => pair.startsWith(`${LOCALE_COOKIE}=`));
  return storedInStorage(storage) ?? cookie?.slice(LOCALE_COOKIE.length + 1) ?? null;
}

/** What document.cookie is set to for the server to paint in `locale` (server/shell.ts). */
export function localeCookie(locale: LocaleCode, { secure }: { secure: boolean }): string {
  // Lax: a link from another site opens the portal in this browser's language too (the value is no secret).
  return `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${COOKIE_MAX_AGE}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function storeLocale(locale: LocaleCode, storage: Storage = localStorage, jar = pageCookies()): void {
  try {
    storage.setItem(STORAGE_KEY, locale);
  } catch {
    // Private mode or full storage: the cookie keeps the choice.
  }
  if (jar) jar.cookie = localeCookie(locale, { secure: jar.location.protocol === 'https:' });
}

/** The cookie of a language stored before the portal wrote one (or one removed since): written at start. */
export function keepLocaleCookie(storage: Storage = localStorage, jar = pageCookies()): void {
  const stored = LOCALES.find((locale) => locale === storedInStorage(storage));
  if (stored && jar && !jar.cookie.split('; ').includes(`${LOCALE_COOKIE}=${stored}`))
    jar.cookie = localeCookie(stored, { secure: jar.location.protocol === 'https:' });
}
