// The catalogue's first part comes from the server's page when it carries the page's language (server/shell.ts), and
// from the bundle otherwise.
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh catalogue (and load.ts) on a page whose `#portal-boot` gives `first` as Spanish's first texts. */
async function onPage(first: unknown) {
  vi.resetModules();
  const boot = { tenant: 'demo', texts: { locale: 'es', overrides: {}, first } };
  // The bundle's parts (the build's precompiled trees; here a text of each language).
  for (const locale of ['es', 'en', 'eu'])
    vi.doMock(`./messages/${locale}.json?first`, () => ({
      default: { 'welcome.title': `${locale}: bundle` },
    }));
  vi.stubGlobal('document', {
    getElementById: (id: string) => (id === 'portal-boot' ? { textContent: JSON.stringify(boot) } : null),
  });
  return import('./catalogue');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the first texts', () => {
  const fromPage = [{ type: 0, value: 'Bienvenida de la página' }];

  it('are the page’s in its language, and the bundle’s in another', async () => {
    const catalogue = await onPage({ 'welcome.title': fromPage });
    catalogue.preloadCatalogue('es');
    const es = await catalogue.loadCatalogue('es');
    expect(es['welcome.title']).toEqual(fromPage);
    const en = await catalogue.loadCatalogue('en');
    expect(en['welcome.title']).toBe('en: bundle');
  });

  it('are the bundle’s when the page gives none', async () => {
    const catalogue = await onPage(undefined);
    expect((await catalogue.loadCatalogue('es'))['welcome.title']).toBe('es: bundle');
  });
});
