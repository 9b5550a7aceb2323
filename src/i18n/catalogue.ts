import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { LocaleCode } from '../../contract/api/settings';
import { firstTextsOfPage, loadTenantTexts } from '../tenant/load';

/** Message id → its ICU text, or (the portal's own catalogues, precompiled by the build) its syntax tree. */
export type Messages = Record<string, string | MessageFormatElement[]>;

type Bundle = () => Promise<{ default: Messages }>;

// Two chunks per language: what the first screens draw (src/i18n/first-screen.ts), and the rest, which loads with
// the first screen that needs it. Only the chosen language is downloaded, and its first part not even then when the
// server's page carries it (the page's language).
const bundles: Record<LocaleCode, Bundle> = {
  es: () => import('./messages/es.json?first'),
  en: () => import('./messages/en.json?first'),
  eu: () => import('./messages/eu.json?first'),
};
/** A language's first part: as the page carries it (server/shell.ts) when it is the page's, else downloaded. */
function firstPart(locale: LocaleCode): Promise<{ default: Messages }> {
  const given = firstTextsOfPage(locale);
  return given ? Promise.resolve({ default: given }) : bundles[locale]();
}
const restBundles: Record<LocaleCode, Bundle> = {
  es: () => import('./messages/es.json?rest'),
  en: () => import('./messages/en.json?rest'),
  eu: () => import('./messages/eu.json?rest'),
};

/** The catalogue given to the app last, and whether a screen has asked for the rest of its language. */
let current: { locale: LocaleCode; messages: Messages } | undefined;
let restWanted = false;
/** The language whose catalogue was preloaded: the one the portal expects to show. */
let preloaded: LocaleCode | undefined;
const restAdded = new WeakMap<Messages, Promise<void>>();

/**
 * Adds the rest of a language's texts to a catalogue, keeping what is there (the first part and the tenant's
 * overrides, which were loaded whole). The object is the one react-intl holds: screens drawn after this see all.
 */
async function addRest(locale: LocaleCode, messages: Messages): Promise<void> {
  const rest = (await restBundles[locale]()).default;
  for (const [id, text] of Object.entries(rest)) {
    if (!Object.hasOwn(messages, id)) messages[id] = text;
  }
}

/**
 * Loads the texts of screens other than the first ones (Welcome, Landing, errors) into the catalogue in use;
 * src/app/lazy-screen.ts awaits it before drawing such a screen. Later catalogues (another language) come whole.
 */
export async function loadRestOfCatalogue(): Promise<void> {
  restWanted = true;
  if (!current) {
    // The catalogue is not loaded yet (the tenant's settings come first): the rest downloads now, beside them and
    // the tenant's overrides, and loadCatalogue finds it ready.
    if (preloaded) restBundles[preloaded]().catch(() => undefined);
    return;
  }
  const { locale, messages } = current;
  // Once per catalogue; a failed load is tried again by the next screen (loadChunk retries it too).
  let adding = restAdded.get(messages);
  if (!adding) {
    adding = addRest(locale, messages).catch((error: unknown) => {
      restAdded.delete(messages);
      throw error;
    });
    restAdded.set(messages, adding);
  }
  await adding;
}

// A message with nothing in it: react-intl treats an empty string as absent (and shows the id), not a syntax tree.
const EMPTY: MessageFormatElement[] = [];

/**
 * What react-intl is given: a missing text (a catalogue part that failed to load, an id typed wrong) shows as
 * nothing, never as its id (react-intl prints the id when a message is absent).
 */
export function withoutIds(messages: Messages): Messages {
  return new Proxy(messages, {
    get: (target, id) =>
      typeof id === 'string' && !Object.hasOwn(target, id) ? EMPTY : Reflect.get(target, id),
    getOwnPropertyDescriptor: (target, id) =>
      Reflect.getOwnPropertyDescriptor(target, id) ??
      (typeof id === 'string'
        ? { value: EMPTY, writable: true, enumerable: false, configurable: true }
        : undefined),
  });
}

/**
 * Starts downloading a language's catalogue now (the module is kept, so loadCatalogue finds it ready): the first
 * screen fetches it beside the tenant's settings instead of after them.
 */
export function preloadCatalogue(locale: LocaleCode): void {
  preloaded = locale;
  firstPart(locale).catch(() => undefined);
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
  // The rest, when a screen has asked for it, downloads beside the first part and the overrides, not after them.
  const [base, overrides, rest] = await Promise.all([
    firstPart(locale).then((m) => m.default),
    assetsUrl ? loadTenantTexts(assetsUrl, locale).then(parsed) : Promise.resolve({}),
    restWanted ? restBundles[locale]().then((m) => m.default) : undefined,
  ]);
  const messages: Messages = { ...rest, ...base, ...overrides };
  current = { locale, messages };
  if (rest) restAdded.set(messages, Promise.resolve());
  return withoutIds(messages);
}
