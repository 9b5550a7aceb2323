import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { LocaleCode } from '../api/contract/settings';
import { loadTenantTexts } from '../tenant/load';

/** Message id → its ICU text, or (the portal's own catalogues, precompiled by the build) its syntax tree. */
export type Messages = Record<string, string | MessageFormatElement[]>;

// One chunk per language: only the chosen one is downloaded.
const bundles: Record<LocaleCode, () => Promise<{ default: Messages }>> = {
  es: () => import('./messages/es.json'),
  en: () => import('./messages/en.json'),
  eu: () => import('./messages/eu.json'),
};

/**
 * Starts downloading a language's catalogue now (the module is kept, so loadCatalogue finds it ready): the first
 * screen fetches it beside the tenant's settings instead of after them.
 */
export function preloadCatalogue(locale: LocaleCode): void {
  bundles[locale]().catch(() => undefined);
}

/**
 * A tenant's overrides as syntax trees, like the built catalogues (the bundle formats trees only). The parser
 * loads only for a tenant that has overrides; one that is not valid ICU is left out, so the portal's text shows.
 */
async function parsed(overrides: Record<string, string>): Promise<Messages> {
  if (Object.keys(overrides).length === 0) return {};
  const { parse } = await import('@formatjs/icu-messageformat-parser');
  const trees: Messages = {};
  for (const [id, text] of Object.entries(overrides)) {
    try {
      trees[id] = parse(text);
    } catch {
      // Not valid ICU: the portal's own text stays.
    }
  }
  return trees;
}

/** The portal's texts for a language with the tenant's overrides on top (spec §1). */
export async function loadCatalogue(locale: LocaleCode, assetsUrl?: string): Promise<Messages> {
  const [base, overrides] = await Promise.all([
    bundles[locale]().then((m) => m.default),
    assetsUrl ? loadTenantTexts(assetsUrl, locale).then(parsed) : Promise.resolve({}),
  ]);
  return { ...base, ...overrides };
}
