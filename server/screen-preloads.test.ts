import { describe, expect, it } from 'vitest';
import { filesOf, type Manifest, preloadLinks } from './screen-preloads';

// The shape of a Vite manifest: keys are modules (or `_name-hash.js` for shared chunks), `imports` other keys.
const manifest: Manifest = {
  'index.html': { file: 'assets/index-E.js', imports: ['_first-screen-F.js'] },
  '_first-screen-F.js': { file: 'assets/first-screen-F.js' },
  '_shared-S.js': { file: 'assets/shared-S.js', imports: ['_first-screen-F.js', 'index.html'] },
  'src/actors/preload.ts': { file: 'assets/preload-P.js', imports: ['_shared-S.js', 'index.html'] },
  'src/actors/accreditations.ts': {
    file: 'assets/accreditations-A.js',
    imports: ['_shared-S.js'],
    dynamicImports: ['src/api/credentials.ts', 'src/api/portrayals.ts', 'src/features/elsewhere.tsx'],
  },
  'src/api/portrayals.ts': { file: 'assets/portrayals-R.js' },
  'src/features/elsewhere.tsx': { file: 'assets/elsewhere-W.js' },
  'src/api/credentials.ts': { file: 'assets/credentials-C.js' },
  'src/api/client.ts': { file: 'assets/client-K.js', imports: ['_first-screen-F.js'] },
  'src/features/accreditations/screens.tsx': { file: 'assets/screens-X.js', imports: ['_shared-S.js'] },
  'src/app/machines/accreditations.ts': {
    file: 'assets/machines-M.js',
    imports: ['src/actors/accreditations.ts'],
  },
  'src/features/portal/administration.tsx': { file: 'assets/administration-Y.js' },
  'src/app/machines/portal-users.ts': { file: 'assets/portal-users-Z.js' },
  'src/i18n/messages/en.json?first': { file: 'assets/en-1.js' },
  'src/i18n/messages/en.json?rest': { file: 'assets/en-2.js' },
  'src/i18n/messages/es.json?first': { file: 'assets/es-1.js' },
  'src/i18n/messages/es.json?rest': { file: 'assets/es-2.js' },
};
const indexHtml =
  '<script type="module" crossorigin src="/assets/index-E.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/first-screen-F.js">';
const hrefs = (links: string) => [...links.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

describe("a painted screen's page links the files the screen loads at start", () => {
  it("UserHome: its first calls' files first (the preload, the actor and the modules of its calls, the client), then its area's, then the rest of the language's catalogue (its first part is in the page), each once", () => {
    const links = preloadLinks(manifest, { screen: 'UserHome', locale: 'en', indexHtml });
    expect(links).toMatch(/^(<link rel="modulepreload" crossorigin href="\/assets\/[\w.-]+\.js">)+$/);
    expect(hrefs(links)).toEqual([
      '/assets/preload-P.js',
      '/assets/shared-S.js',
      '/assets/accreditations-A.js',
      '/assets/credentials-C.js',
      '/assets/portrayals-R.js',
      '/assets/client-K.js',
      '/assets/screens-X.js',
      '/assets/machines-M.js',
      '/assets/en-2.js',
    ]);
    // A page painted with the person's data does not carry the first part: it links it too.
    const withData = preloadLinks(manifest, {
      screen: 'UserHome',
      locale: 'en',
      indexHtml,
      firstTexts: true,
    });
    expect(hrefs(withData).slice(-2)).toEqual(['/assets/en-1.js', '/assets/en-2.js']);
  });

  it('never links the entry nor a file index.html names already', () => {
    const all = hrefs(preloadLinks(manifest, { screen: 'UserHome', locale: 'es', indexHtml }));
    expect(all).not.toContain('/assets/index-E.js');
    expect(all).not.toContain('/assets/first-screen-F.js');
    expect(all).toContain('/assets/es-2.js');
    expect(all).not.toContain('/assets/es-1.js');
    expect(all).not.toContain('/assets/en-2.js');
  });

  it('a screen without first calls links the preload, its own code and machines and the catalogue’s rest, and no module of calls', () => {
    expect(hrefs(preloadLinks(manifest, { screen: 'Administration', locale: 'es', indexHtml }))).toEqual([
      '/assets/preload-P.js',
      '/assets/shared-S.js',
      '/assets/administration-Y.js',
      '/assets/portal-users-Z.js',
      '/assets/es-2.js',
    ]);
  });

  it('Welcome and Landing, whose code is the entry’s, link nothing; nor does any page without a manifest', () => {
    expect(preloadLinks(manifest, { screen: 'Welcome', locale: 'es', indexHtml })).toBe('');
    expect(preloadLinks(manifest, { screen: 'Landing', locale: 'es', indexHtml })).toBe('');
    expect(preloadLinks({}, { screen: 'UserHome', locale: 'es', indexHtml })).toBe('');
  });

  it('follows imports through shared chunks without looping, and skips what the manifest does not know', () => {
    const looping: Manifest = {
      a: { file: 'assets/a.js', imports: ['b', 'missing'] },
      b: { file: 'assets/b.js', imports: ['a'] },
    };
    expect(filesOf(looping, ['a', 'b', 'a'])).toEqual(['/assets/a.js', '/assets/b.js']);
    // Only the modules named `withCalls` bring their calls' modules.
    expect(filesOf(manifest, ['src/actors/accreditations.ts'])).toEqual([
      '/assets/accreditations-A.js',
      '/assets/shared-S.js',
      '/assets/first-screen-F.js',
    ]);
  });
});
