import type { LocaleCode } from '../api/contract/settings';
import { loadTenantTexts } from '../tenant/load';

export type Messages = Record<string, string>;

// One chunk per language: only the chosen one is downloaded.
const bundles: Record<LocaleCode, () => Promise<{ default: Messages }>> = {
  es: () => import('./messages/es.json'),
  en: () => import('./messages/en.json'),
  eu: () => import('./messages/eu.json'),
};

/** The portal's texts for a language with the tenant's overrides on top (spec §1). */
export async function loadCatalogue(locale: LocaleCode, assetsUrl?: string): Promise<Messages> {
  const [base, overrides] = await Promise.all([
    bundles[locale]().then((m) => m.default),
    assetsUrl ? loadTenantTexts(assetsUrl, locale) : Promise.resolve({}),
  ]);
  return { ...base, ...overrides };
}
