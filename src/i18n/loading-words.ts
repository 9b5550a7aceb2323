import type { LocaleCode } from '../../contract/api/settings';

// What a spinner says before any catalogue has arrived (the portal's boot, a screen's chunk on its way): the
// catalogue's own `common.loading`, written out here so that it needs no download. loading-words.test.ts keeps the
// two the same.
const LOADING: Record<LocaleCode, string> = {
  es: 'Cargando…',
  en: 'Loading…',
  eu: 'Kargatzen…',
};

/** "Loading…" in the portal's language. */
export function loadingWords(locale: LocaleCode): string {
  return LOADING[locale] ?? LOADING.es;
}
