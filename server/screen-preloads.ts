// The files a painted screen's page links for the browser to download at once (`<link rel="modulepreload">`, in a
// `<template>` the page's inline script appends once the paint is on screen: server/shell-script.ts): the
// modules of src/app/screen-modules.ts (the screen's first calls and its area, the catalogue of the page's language)
// and everything they import, resolved through the build's manifest (dist/.vite/manifest.json, `build.manifest` in
// vite.config.ts). Without them the browser learns of each file only once the file before it has run: the entry,
// then the screen's chunk and the preload of its calls, then the modules of those calls, then the API client: on a
// phone 150 ms away, a round trip each before the screen's first call can leave. Files index.html already names
// (the entry and its own preloads) are not linked again. No manifest (a build without one), no links: the app
// loads as it always did.
import { catalogueModules, type ShellScreen, screenModules } from '../src/first-paint';

/** What the build's manifest says of one module: its file, and the other entries of the manifest it imports. */
export interface ManifestEntry {
  file: string;
  imports?: readonly string[];
  dynamicImports?: readonly string[];
}
export type Manifest = Readonly<Record<string, ManifestEntry>>;

/**
 * The files (under the site's root, e.g. `/assets/x.js`) of `modules` and of all they import, in that order. The
 * modules of `withCalls` bring the modules of their calls too (what they import lazily from src/api/).
 */
export function filesOf(
  manifest: Manifest,
  modules: readonly string[],
  withCalls: readonly string[] = [],
): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const entry = manifest[key];
    if (!entry) return;
    // The entry (index.html) is on the page already, with its imports.
    if (key === 'index.html') return;
    files.push(`/${entry.file}`);
    for (const imported of entry.imports ?? []) visit(imported);
    if (withCalls.includes(key))
      for (const calls of entry.dynamicImports ?? []) if (calls.startsWith('src/api/')) visit(calls);
  };
  for (const module of modules) visit(module);
  return files;
}

/** The `<link rel="modulepreload">` tags of a screen's page in `locale`; '' when there is nothing to link. */
export function preloadLinks(
  manifest: Manifest,
  {
    screen,
    locale,
    indexHtml,
    firstTexts = false,
  }: {
    screen: ShellScreen;
    locale: string;
    indexHtml: string;
    /** The first screens' texts too (a page that does not carry them). */
    firstTexts?: boolean;
  },
): string {
  const { modules, withCalls } = screenModules(screen);
  if (modules.length === 0) return '';
  const onPage = new Set([...indexHtml.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]));
  return filesOf(manifest, [...modules, ...catalogueModules(locale, { firstTexts })], withCalls)
    .filter((file) => file.endsWith('.js') && !onPage.has(file))
    .map((file) => `<link rel="modulepreload" crossorigin href="${file}">`)
    .join('');
}
