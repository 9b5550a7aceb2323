import type { LocaleCode } from '../../contract/api/settings';

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

export function storeLocale(locale: LocaleCode, storage: Storage = localStorage): void {
  try {
    storage.setItem(STORAGE_KEY, locale);
  } catch {
    // Private mode or full storage: the choice lasts for this page only.
  }
}
