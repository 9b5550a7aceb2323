import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  loadTenant,
  loadTenantTexts,
  preloadTenant,
  preloadTenantTexts,
  TenantLoadError,
  takePreloadedTenant,
} from './load';
import { parseSettings } from './settings-check';

const gambling = JSON.parse(readFileSync('public/tenants/gambling/settings.json', 'utf8'));
const demo = JSON.parse(readFileSync('public/tenants/demo/settings.json', 'utf8'));
const browsers = JSON.parse(readFileSync('public/browsers.json', 'utf8'));

function fakeFetch(files: Record<string, unknown>): typeof fetch {
  return (async (input: RequestInfo | URL) => {
    const url = String(input);
    if (!(url in files)) return new Response('not found', { status: 404 });
    const body = files[url];
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status: 200 });
  }) as typeof fetch;
}

async function problemOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TenantLoadError) return error.problem;
    throw error;
  }
  throw new Error('expected a TenantLoadError');
}

describe('shipped tenant settings', () => {
  it('are valid against the contract', () => {
    expect(parseSettings('gambling', gambling).locales).toEqual(['es', 'en', 'eu']);
    expect(parseSettings('demo', demo).locales).toEqual(['es', 'en']);
  });
});

describe('loadTenant', () => {
  const files = {
    '/tenants/gambling/settings.json': gambling,
    '/tenants/demo/settings.json': demo,
    '/browsers.json': browsers,
  };

  it('loads the tenant named by the host', async () => {
    const loaded = await loadTenant('demo.localhost', fakeFetch(files));
    expect(loaded.settings.title).toBe('Demo Access');
    expect(loaded.browsers.chrome?.minMobileVersion).toBeGreaterThan(0);
  });

  it('names an unknown tenant', async () => {
    expect(await problemOf(loadTenant('nobody.localhost', fakeFetch(files)))).toEqual({
      kind: 'unknown-tenant',
      tenant: 'nobody',
    });
  });

  it('names an invalid label', async () => {
    expect(await problemOf(loadTenant('bad_one.example.com', fakeFetch(files)))).toEqual({
      kind: 'invalid-label',
      label: 'bad_one',
    });
  });

  it('names every problem of a malformed settings file', async () => {
    const broken = { ...gambling, locales: ['es', 'fr'], theme: { brandColor: 'blue', logo: 'logo.svg' } };
    delete broken.title;
    const problem = await problemOf(
      loadTenant('localhost', fakeFetch({ ...files, '/tenants/gambling/settings.json': broken })),
    );
    expect(problem.kind).toBe('invalid-settings');
    const summary = problem.kind === 'invalid-settings' ? problem.summary : '';
    expect(summary).toContain('title');
    expect(summary).toContain('locales[1]');
    expect(summary).toContain('theme.brandColor');
  });

  it('reports settings that are not JSON', async () => {
    const problem = await problemOf(
      loadTenant('localhost', fakeFetch({ ...files, '/tenants/gambling/settings.json': '{ nope' })),
    );
    expect(problem).toEqual({
      kind: 'invalid-settings',
      tenant: 'gambling',
      summary: 'settings.json is not valid JSON',
    });
  });

  it('refuses settings that claim another tenant', async () => {
    const problem = await problemOf(
      loadTenant('localhost', fakeFetch({ ...files, '/tenants/gambling/settings.json': demo })),
    );
    expect(problem.kind).toBe('invalid-settings');
  });

  it('reports an unreachable server', async () => {
    const failing = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    expect(await problemOf(loadTenant('localhost', failing))).toEqual({
      kind: 'unreachable',
      tenant: 'gambling',
    });
  });
});

describe('the tenant’s settings asked for in the page’s first task', () => {
  const files = {
    '/tenants/gambling/settings.json': gambling,
    '/tenants/demo/settings.json': demo,
    '/browsers.json': browsers,
  };
  const counting = () => {
    const asked: string[] = [];
    const inner = fakeFetch(files);
    const fetcher = ((input: RequestInfo | URL) => {
      asked.push(String(input));
      return inner(input);
    }) as typeof fetch;
    return { asked, fetcher };
  };

  it('are taken once by the same host, without asking the server again', async () => {
    const { asked, fetcher } = counting();
    preloadTenant('demo.localhost', fetcher);
    expect(asked).toEqual(['/tenants/demo/settings.json', '/browsers.json']);
    const taken = takePreloadedTenant('demo.localhost');
    expect((await taken)?.settings.title).toBe('Demo Access');
    // A retry after a failure asks anew.
    expect(takePreloadedTenant('demo.localhost')).toBeUndefined();
    expect(asked).toHaveLength(2);
  });

  it('are not another host’s, and a failure is the actor’s to report, not an unhandled rejection', async () => {
    preloadTenant('nobody.localhost', fakeFetch(files));
    expect(takePreloadedTenant('demo.localhost')).toBeUndefined();
    preloadTenant('nobody.localhost', fakeFetch(files));
    const taken = takePreloadedTenant('nobody.localhost');
    expect(await problemOf(taken ?? Promise.resolve())).toEqual({ kind: 'unknown-tenant', tenant: 'nobody' });
  });
});

/** A fetch of `files` that notes every address asked for. */
function countingFetch(files: Record<string, unknown>) {
  const asked: string[] = [];
  const inner = fakeFetch(files);
  const fetcher = (async (input: RequestInfo | URL) => {
    asked.push(String(input));
    return inner(input);
  }) as typeof fetch;
  return { asked, fetcher };
}

describe('the tenant’s text overrides asked for beside its settings', () => {
  const overrides = { 'welcome.title': 'Hola' };

  it('are the ones the settings then name: the file is asked for once, before the settings are known', async () => {
    const { asked, fetcher } = countingFetch({ '/tenants/gambling/locales/es.json': overrides });
    preloadTenantTexts('gambling', 'es', fetcher);
    expect(asked).toEqual(['/tenants/gambling/locales/es.json']);
    expect(await loadTenantTexts('/tenants/gambling', 'es', fetcher)).toEqual(overrides);
    expect(asked).toHaveLength(1);
  });

  it('are not used when the settings name another address or the portal shows another language', async () => {
    const { asked, fetcher } = countingFetch({
      '/tenants/gambling/locales/es.json': overrides,
      '/tenants/gambling/locales/en.json': { 'welcome.title': 'Hello' },
    });
    preloadTenantTexts('steps', 'es', fetcher);
    expect(await loadTenantTexts('/tenants/gambling', 'es', fetcher)).toEqual(overrides);
    preloadTenantTexts('gambling', 'es', fetcher);
    expect(await loadTenantTexts('/tenants/gambling', 'en', fetcher)).toEqual({ 'welcome.title': 'Hello' });
    expect(asked).toEqual([
      '/tenants/steps/locales/es.json',
      '/tenants/gambling/locales/es.json',
      '/tenants/gambling/locales/es.json',
      '/tenants/gambling/locales/en.json',
    ]);
  });

  it('are asked for again on the next load (a change of language later asks the server)', async () => {
    const { asked, fetcher } = countingFetch({ '/tenants/gambling/locales/es.json': overrides });
    preloadTenantTexts('gambling', 'es', fetcher);
    await loadTenantTexts('/tenants/gambling', 'es', fetcher);
    expect(await loadTenantTexts('/tenants/gambling', 'es', fetcher)).toEqual(overrides);
    expect(asked).toHaveLength(2);
  });
});

describe('the tenant’s files the server’s page carries', () => {
  const files = {
    '/tenants/gambling/settings.json': gambling,
    '/tenants/demo/settings.json': demo,
    '/browsers.json': browsers,
    '/tenants/gambling/locales/en.json': { 'welcome.title': 'Hello' },
  };
  const pageOverrides = { 'welcome.title': 'Hola desde la página' };

  const counting = () => countingFetch(files);

  /** A fresh load.ts on a page whose `#portal-boot` holds `text` (none when undefined). */
  async function onPage(text: string | undefined) {
    vi.resetModules();
    vi.stubGlobal('document', {
      getElementById: (id: string) =>
        id === 'portal-boot' && text !== undefined ? { textContent: text } : null,
    });
    return import('./load');
  }

  const block = (boot: object) =>
    JSON.stringify({
      tenant: 'gambling',
      settings: gambling,
      browsers,
      texts: { locale: 'es', overrides: pageOverrides },
      ...boot,
    });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('are used for the same tenant without asking the server, and only once', async () => {
    const load = await onPage(block({}));
    const { asked, fetcher } = counting();
    load.preloadTenant('localhost', fetcher);
    load.preloadTenantTexts('gambling', 'es', fetcher);
    const loaded = await load.takePreloadedTenant('localhost');
    expect(loaded?.settings.title).toBe('Portal de identidad');
    expect(loaded?.browsers).toEqual(browsers);
    expect(await load.loadTenantTexts('/tenants/gambling', 'es', fetcher)).toEqual(pageOverrides);
    expect(asked).toEqual([]);
    // A second start (none in the app) and a later language change ask the server.
    load.preloadTenant('localhost', fetcher);
    load.preloadTenantTexts('gambling', 'es', fetcher);
    expect(asked).toEqual([
      '/tenants/gambling/settings.json',
      '/browsers.json',
      '/tenants/gambling/locales/es.json',
    ]);
  });

  it('are ignored when they are another tenant’s: the host’s are asked for', async () => {
    const load = await onPage(block({ tenant: 'demo', settings: demo }));
    const { asked, fetcher } = counting();
    load.preloadTenant('localhost', fetcher);
    load.preloadTenantTexts('gambling', 'es', fetcher);
    expect((await load.takePreloadedTenant('localhost'))?.settings.title).toBe('Portal de identidad');
    expect(await load.loadTenantTexts('/tenants/gambling', 'es', fetcher)).toEqual({});
    expect(asked).toEqual([
      '/tenants/gambling/settings.json',
      '/browsers.json',
      '/tenants/gambling/locales/es.json',
    ]);
  });

  it('are ignored when the block is not JSON or its settings fail the check', async () => {
    for (const text of [
      '{"tenant":"gambling","settings":',
      block({ settings: { ...gambling, locales: ['fr'] } }),
      block({ settings: undefined }),
      '"gambling"',
    ]) {
      const load = await onPage(text);
      const { asked, fetcher } = counting();
      load.preloadTenant('localhost', fetcher);
      const loaded = await load.takePreloadedTenant('localhost');
      expect(loaded?.settings.locales, text).toEqual(['es', 'en', 'eu']);
      expect(asked, text).toEqual(['/tenants/gambling/settings.json', '/browsers.json']);
    }
  });

  it('give the texts of their language only: another language is asked for', async () => {
    const load = await onPage(block({}));
    const { asked, fetcher } = counting();
    load.preloadTenantTexts('gambling', 'en', fetcher);
    expect(await load.loadTenantTexts('/tenants/gambling', 'en', fetcher)).toEqual({
      'welcome.title': 'Hello',
    });
    expect(asked).toEqual(['/tenants/gambling/locales/en.json']);
  });

  it('give the portal’s first texts of their language, trees only: another language or other values give none', async () => {
    const first = { 'welcome.title': [{ type: 0, value: 'Hola' }], 'menu.home': [] };
    const texts = (given: unknown) => ({ texts: { locale: 'es', overrides: pageOverrides, first: given } });
    const load = await onPage(block(texts(first)));
    expect(load.firstTextsOfPage('es')).toEqual(first);
    // Asked for again (the first part is asked for when preloaded and when loaded): the same texts.
    expect(load.firstTextsOfPage('es')).toEqual(first);
    expect(load.firstTextsOfPage('en')).toBeUndefined();
    for (const given of [undefined, ['Hola'], { 'welcome.title': 'Hola' }, { 'welcome.title': null }]) {
      const other = await onPage(block(texts(given)));
      expect(other.firstTextsOfPage('es'), JSON.stringify(given)).toBeUndefined();
    }
    expect((await onPage(undefined)).firstTextsOfPage('es')).toBeUndefined();
  });

  it('leave a page without them as it was: everything is asked for', async () => {
    const load = await onPage(undefined);
    const { asked, fetcher } = counting();
    load.preloadTenant('localhost', fetcher);
    load.preloadTenantTexts('gambling', 'es', fetcher);
    expect((await load.takePreloadedTenant('localhost'))?.tenant).toBe('gambling');
    expect(asked).toEqual([
      '/tenants/gambling/settings.json',
      '/browsers.json',
      '/tenants/gambling/locales/es.json',
    ]);
  });
});
