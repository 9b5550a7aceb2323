import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueTrees, isFirstScreenMessage } from '../src/first-paint';
import type { AppEnv } from './http/env';
import { ROOT } from './paths';
import { CONTENT_SECURITY_POLICY } from './security-headers';
import {
  composeShellPage,
  INLINE_LOGO_MAX_BYTES,
  shellPages,
  shellScreenAt,
  withInlineLogo,
  withoutIds,
} from './shell';
import { SHELL_SCRIPT, SHELL_SCRIPT_HASH } from './shell-script';

// The first paint of Welcome, Landing and the signed-in screens in the HTML (server/shell.ts). A dist with index.html as Vite writes it,
// the shipped tenants, and one more tenant without Spanish (where Accept-Language counts).
const INDEX = `<!doctype html>
<html lang="es">
  <head>
    <meta name="theme-color" content="#0D55FF" />
    <title>Portal</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

let dir: string;
let app: Hono<AppEnv>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shell-'));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'index.html'), INDEX);
  mkdirSync(join(dir, 'dist', 'assets'));
  writeFileSync(
    join(dir, 'dist', 'assets', 'index-abc.css'),
    '.h-9{height:2.25rem}.never-drawn{color:red}@media print{.never-drawn{color:blue}}',
  );
  cpSync('public/tenants', join(dir, 'public', 'tenants'), { recursive: true });
  cpSync('public/browsers.json', join(dir, 'public', 'browsers.json'));
  const basque = join(dir, 'public', 'tenants', 'basque');
  cpSync(join(dir, 'public', 'tenants', 'gambling'), basque, { recursive: true });
  const settings = JSON.parse(readFileSync(join(basque, 'settings.json'), 'utf8'));
  writeFileSync(
    join(basque, 'settings.json'),
    JSON.stringify({
      ...settings,
      tenant: 'basque',
      locales: ['eu', 'en'],
      theme: { ...settings.theme, brandColor: '#AA0000' },
    }),
  );
  const shell = shellPages({
    distDir: join(dir, 'dist'),
    publicDir: join(dir, 'public'),
    knownTenants: ['gambling', 'demo', 'basque'],
  });
  app = new Hono<AppEnv>();
  app.get(
    '*',
    async (c) => (await shell.respond(c, new URL(c.req.url).pathname)) ?? c.text('plain index', 200),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The header logo's `<img src` as the paint carries it: the tenant's own SVG file, in the page. */
const inlineLogo = (tenant: string) =>
  `<img src="data:image/svg+xml,${encodeURIComponent(readFileSync(`public/tenants/${tenant}/logo.svg`, 'utf8'))}"`;

const get = (path: string, host: string, headers: Record<string, string> = {}) =>
  app.request(`http://${host}${path}`, { headers: { host, ...headers } });

describe('the first paint in the HTML', () => {
  it('paints Welcome, Landing and every signed-in screen; the frame alone where the address says more', () => {
    expect(shellScreenAt('/')).toEqual({ screen: 'Welcome', frameOnly: false, plain: true });
    expect(shellScreenAt('/landing')).toEqual({ screen: 'Landing', frameOnly: false, plain: true });
    expect(shellScreenAt('/profile')).toEqual({ screen: 'UserProfile', frameOnly: false, plain: true });
    expect(shellScreenAt('/users/')).toEqual({ screen: 'PortalUsers', frameOnly: false, plain: true });
    // A query or a parameter may change the screen's first render (UserHome's saloon, a detail's id).
    expect(shellScreenAt('/home', '?saloon=Sala%201')).toEqual({
      screen: 'UserHome',
      frameOnly: true,
      plain: false,
    });
    expect(shellScreenAt('/user-detail/42')).toEqual({
      screen: 'PortalUserDetail',
      frameOnly: true,
      plain: false,
    });
    // The onboarding steps follow the person's enrolment, which the server does not know: their frame.
    expect(shellScreenAt('/privacy-onboarding')).toEqual({
      screen: 'PrivacyOnboarding',
      frameOnly: true,
      plain: true,
    });
    // The access audit depends on who opens it all through: its frame, unless painted with their data.
    expect(shellScreenAt('/audit-accesses')).toEqual({
      screen: 'AuditAccesses',
      frameOnly: true,
      plain: true,
    });
    // The sign-in return, the public screens and unknown paths: the plain index.html.
    expect(shellScreenAt('/callback')).toBeUndefined();
    expect(shellScreenAt('/reset-credentials')).toBeUndefined();
    expect(shellScreenAt('/landing/x')).toBeUndefined();
    expect(shellScreenAt('/nowhere')).toBeUndefined();
  });

  it("paints NewVisit's form for a visitor, and names reception's right, for whom the page's script drops it", async () => {
    const page = await (await get('/new-visit', 'localhost:8080')).text();
    expect(page).toContain(
      '<div id="shell" inert data-paint="NewVisit" data-locale="es" data-not-for="post_visits_all">',
    );
    // The visitor's own name and email, read-only and from their account, with the hint that says so.
    expect(page).toContain('Su nombre y su correo se toman de su cuenta.');
    const profile = await (await get('/profile', 'localhost:8080')).text();
    expect(profile).not.toMatch(/data-not-for="/);
  });

  it("paints a signed-in screen's frame: the tenant's logo and title, the menu, its heading and loading state", async () => {
    const profile = await (await get('/profile', 'localhost:8080')).text();
    expect(profile).toContain('<div id="shell" inert data-paint="UserProfile" data-locale="es">');
    expect(profile).toContain('<title>Portal de identidad</title>');
    // The logo in the page, so that it shows with the first paint; its file on its way for the app's header.
    expect(profile).toContain(inlineLogo('gambling'));
    expect(profile).toContain('<link rel="preload" as="image" href="/tenants/gambling/logo.svg"');
    expect(profile).not.toContain('src="/tenants/gambling/logo.svg"');
    expect(profile).toContain('aria-label="Menú"');
    expect(profile).toContain('>Mi perfil</h1>');
    expect(profile).toContain('Cargando su perfil…');
    expect(profile).toContain(`<div id="root" hidden></div><script>${SHELL_SCRIPT}</script>`);
    // Nobody's data: the labels of the personal data wait for their values.
    expect(profile).not.toMatch(/someone/);

    const users = await (await get('/users', 'demo.localhost')).text();
    expect(users).toContain('<title>Demo Access</title>');
    expect(users).toContain(inlineLogo('demo'));
    expect(users).toContain('>Usuarios</h1>');
    expect(users).toContain('Cargando usuarios…');

    // The heading in the page's language (a tenant without Spanish takes Accept-Language).
    const visits = await (await get('/my-visits', 'basque.localhost', { 'Accept-Language': 'en' })).text();
    expect(visits).toContain('<html lang="en"');
    expect(visits).toContain('>My visits</h1>');
    const home = await (await get('/home', 'basque.localhost', { 'Accept-Language': 'eu' })).text();
    expect(home).toContain('data-paint="UserHome" data-locale="eu"');

    // With a query, the frame alone: the header, and an empty main area.
    const saloon = await (await get('/home?saloon=Sala', 'localhost')).text();
    expect(saloon).toContain('data-paint="UserHome"');
    expect(saloon).toContain(inlineLogo('gambling'));
    expect(saloon).toMatch(/<main [^>]*><\/main>/);
  });

  it("keeps the logo's address where the page cannot carry the tenant's own SVG: elsewhere, missing, too large, not SVG", async () => {
    // basque serves its logo from gambling's folder (its settings are a copy of gambling's).
    const basque = await (await get('/profile', 'basque.localhost', { 'Accept-Language': 'eu' })).text();
    expect(basque).toContain('<img src="/tenants/gambling/logo.svg"');
    const markup = '<a><img src="/t/logo.svg" alt=""/></a>';
    const logos = join(dir, 'logos');
    mkdirSync(logos, { recursive: true });
    const small = join(logos, 'small.svg');
    writeFileSync(small, '<svg xmlns="http://www.w3.org/2000/svg"><title>"A" & <B></title></svg>');
    expect(withInlineLogo(markup, '/t/logo.svg', small)).toBe(
      `<a><img src="data:image/svg+xml,${encodeURIComponent(readFileSync(small, 'utf8'))}" alt=""/></a>`,
    );
    const large = join(logos, 'large.svg');
    writeFileSync(
      large,
      `<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(INLINE_LOGO_MAX_BYTES)}</svg>`,
    );
    expect(withInlineLogo(markup, '/t/logo.svg', large)).toBe(markup);
    expect(withInlineLogo(markup, '/t/logo.svg', join(logos, 'missing.svg'))).toBe(markup);
    const png = join(logos, 'logo.png');
    writeFileSync(png, 'not an svg');
    expect(withInlineLogo(markup, '/t/logo.svg', png)).toBe(markup);
    expect(withInlineLogo(markup, '/t/logo.svg', undefined)).toBe(markup);
  });

  it('carries no ids, label targets nor test ids in any paint', async () => {
    for (const path of ['/home', '/profile', '/my-visits', '/visits', '/users', '/administration']) {
      const html = await (await get(path, 'localhost')).text();
      const shell = html.slice(html.indexOf('<div id="shell"'), html.indexOf('<div id="root"'));
      expect(shell, path).toContain('<main');
      expect(shell.slice('<div id="shell"'.length), path).not.toMatch(
        / (?:id|for|data-testid|data-screen|data-route)="/,
      );
    }
  });

  it('paints in the language this browser chose, by its cookie, when the tenant offers it', async () => {
    const english = await (await get('/', 'localhost:8080', { Cookie: 'a=1; portal_locale=en' })).text();
    expect(english).toContain('<html lang="en"');
    expect(english).toContain('data-paint="Welcome" data-locale="en"');
    expect(english).toContain('Welcome to Identity portal');
    const basque = await (await get('/home', 'localhost:8080', { Cookie: 'portal_locale=eu' })).text();
    expect(basque).toContain('data-locale="eu"');
    // A language the tenant does not offer, or no such language at all: the tenant's first choice.
    for (const cookie of ['portal_locale=fr', 'portal_locale=<x>', 'portal_locale=en; portal_locale=eu']) {
      const page = await (await get('/', 'localhost:8080', { Cookie: cookie })).text();
      expect(page, cookie).toContain('data-locale="es"');
    }
  });

  it("answers / with the host tenant's Welcome in Spanish, its title, colour and text overrides", async () => {
    const gambling = await (await get('/', 'localhost:8080')).text();
    expect(gambling).toContain('<html lang="es" style="--brand:#0d55ff;');
    expect(gambling).toContain('<div id="shell" inert data-paint="Welcome" data-locale="es">');
    expect(gambling).toContain('Bienvenido a Portal de identidad');
    expect(gambling).toContain('<title>Portal de identidad</title>');
    expect(gambling).toContain(`<div id="root" hidden></div><script>${SHELL_SCRIPT}</script>`);
    expect(gambling).toContain('<script type="module" crossorigin src="/assets/index-abc.js">');
    // The rules the paint uses come inside the page: no round trip before the first paint. The whole sheet is
    // linked from the template the inline script adds once the paint is on screen, and from nowhere else.
    expect(gambling).toContain('<style>.h-9{height:2.25rem}</style>');
    expect(gambling.match(/index-abc\.css/g)).toHaveLength(1);
    expect(gambling).toContain(
      '<template id="portal-preloads"><link rel="stylesheet" href="/assets/index-abc.css" data-full-sheet>',
    );

    const demo = await (await get('/', 'demo.localhost:8080', { 'Accept-Language': 'en' })).text();
    // Spanish first whenever the tenant offers it (contract/i18n/locale.ts), as the app decides with nothing stored.
    expect(demo).toContain('Bienvenido a Demo Access');
    expect(demo).toContain('instalaciones de la demostración');
    expect(demo).toContain('--brand:#0f7b5f');
  });

  it('takes Accept-Language for a tenant without Spanish, and the title in that language', async () => {
    const en = await (await get('/', 'basque.localhost', { 'Accept-Language': 'en-GB,en;q=0.9' })).text();
    expect(en).toContain('<html lang="en"');
    expect(en).toContain('Welcome to Identity portal');
    expect(en).toContain('<title>Identity portal</title>');
    const eu = await (await get('/', 'basque.localhost', { 'Accept-Language': 'eu-ES' })).text();
    expect(eu).toContain('Ongi etorri Nortasun ataria webgunera');
    expect(eu).toContain('--brand:#aa0000');
    // A language the tenant does not offer: English before the tenant's first (contract/i18n/locale.ts).
    const other = await (await get('/', 'basque.localhost', { 'Accept-Language': 'fr' })).text();
    expect(other).toContain('<html lang="en"');
  });

  it('paints Landing for someone who enrols themselves', async () => {
    const landing = await (await get('/landing', 'localhost')).text();
    expect(landing).toContain('data-paint="Landing"');
    expect(landing).toContain('data-state="&quot;notEnrolled&quot;"');
    expect(landing).toContain('data:image/svg+xml,');
  });

  it('leaves an unknown tenant, an invalid host and other paths to the plain index.html', async () => {
    expect(await (await get('/', 'nobody.localhost')).text()).toBe('plain index');
    expect(await (await get('/', 'bad_label.example.com')).text()).toBe('plain index');
    expect(await (await get('/reset-credentials', 'localhost')).text()).toBe('plain index');
    expect(await (await get('/nowhere', 'localhost')).text()).toBe('plain index');
  });

  it('sends Brotli or gzip with Vary and an ETag per coding, and 304 to a matching If-None-Match', async () => {
    const br = await get('/', 'localhost', { 'Accept-Encoding': 'br, gzip' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding, Accept-Language, Cookie');
    expect(br.headers.get('cache-control')).toBe('no-cache');
    const etag = br.headers.get('etag') ?? '';
    expect(etag).toMatch(/-br"$/);
    const gzip = await get('/', 'localhost', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers.get('etag')).toBe(etag.replace(/-br"$/, '-gzip"'));
    expect((await get('/', 'localhost', { 'Accept-Encoding': 'br', 'If-None-Match': etag })).status).toBe(
      304,
    );
  });

  it('makes the page again when a file it comes from changes', async () => {
    const path = join(dir, 'public', 'tenants', 'demo', 'locales', 'es.json');
    const overrides = JSON.parse(readFileSync(path, 'utf8'));
    writeFileSync(path, JSON.stringify({ ...overrides, 'welcome.title': 'Hola de nuevo' }));
    expect(await (await get('/', 'demo.localhost')).text()).toContain('Hola de nuevo');
  });

  it("links in its head the files a signed-in screen loads at start, by the build's manifest, and none on Welcome", async () => {
    const links = (html: string) =>
      [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    expect(links(await (await get('/profile', 'localhost:8080')).text())).toEqual([]);
    mkdirSync(join(dir, 'dist', '.vite'), { recursive: true });
    writeFileSync(
      join(dir, 'dist', '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-abc.js' },
        'src/actors/preload.ts': { file: 'assets/preload-1.js', imports: ['index.html'] },
        'src/actors/account.ts': { file: 'assets/account-2.js', dynamicImports: ['src/api/accounts.ts'] },
        'src/api/accounts.ts': { file: 'assets/accounts-3.js' },
        'src/api/client.ts': { file: 'assets/client-4.js' },
        'src/features/account/screens.tsx': { file: 'assets/screens-5.js' },
        'src/app/machines/account.ts': { file: 'assets/account-6.js' },
        'src/i18n/messages/es.json?first': { file: 'assets/es-7.js' },
        'src/i18n/messages/es.json?rest': { file: 'assets/es-8.js' },
      }),
    );
    const profile = await (await get('/profile', 'localhost:8080')).text();
    expect(links(profile)).toEqual([
      '/assets/preload-1.js',
      '/assets/account-2.js',
      '/assets/accounts-3.js',
      '/assets/client-4.js',
      '/assets/screens-5.js',
      '/assets/account-6.js',
      // The rest of the catalogue; its first part is in the page (below), not linked.
      '/assets/es-8.js',
    ]);
    // In the template after the paint, which the inline script links once the paint is on screen.
    expect(profile).toMatch(/<template id="portal-preloads">(<link [^>]+>)+<\/template>/);
    expect(profile.indexOf('<template id="portal-preloads">')).toBeGreaterThan(
      profile.indexOf('<div id="root" hidden></div>'),
    );
    expect(links(await (await get('/', 'localhost:8080')).text())).toEqual([]);
  });

  it("carries the tenant's settings, browsers.json and the overrides of its language, as data the page never runs", async () => {
    const bootOf = (html: string) => {
      const block = /<script type="application\/json" id="portal-boot">([^<]*)<\/script>/.exec(html);
      return JSON.parse(block?.[1] ?? 'null');
    };
    const read = (path: string) => JSON.parse(readFileSync(join(dir, 'public', path), 'utf8'));
    // The portal's texts the first screens draw, as the build gives the app its catalogue's first part.
    const firstTexts = (locale: string) =>
      catalogueTrees(
        JSON.parse(readFileSync(join(ROOT, 'src/i18n/messages', `${locale}.json`), 'utf8')),
        'first',
      );
    for (const path of ['/', '/landing', '/home', '/profile', '/home?saloon=Sala']) {
      const html = await (await get(path, 'demo.localhost')).text();
      expect(bootOf(html), path).toEqual({
        tenant: 'demo',
        settings: read('tenants/demo/settings.json'),
        browsers: read('browsers.json'),
        texts: { locale: 'es', overrides: read('tenants/demo/locales/es.json'), first: firstTexts('es') },
      });
      // After the paint and its script, so the paint's bytes come first; once per page.
      expect(html.indexOf('id="portal-boot"'), path).toBeGreaterThan(html.indexOf(SHELL_SCRIPT));
      expect(html.split('id="portal-boot"'), path).toHaveLength(2);
    }
    // The overrides of the page's language; a language the tenant has none for gives none.
    const basque = join(dir, 'public', 'tenants', 'basque', 'locales');
    writeFileSync(join(basque, 'en.json'), JSON.stringify({ 'header.logout': 'Sign out' }));
    const en = bootOf(await (await get('/', 'basque.localhost', { 'Accept-Language': 'en' })).text());
    expect(en.texts).toEqual({
      locale: 'en',
      overrides: { 'header.logout': 'Sign out' },
      first: firstTexts('en'),
    });
    rmSync(join(basque, 'eu.json'));
    const eu = bootOf(await (await get('/', 'basque.localhost', { 'Accept-Language': 'eu' })).text());
    expect(eu.texts).toEqual({ locale: 'eu', overrides: {}, first: firstTexts('eu') });
    // Every text a first screen draws, and no other (the tenant's overrides stay apart, as strings).
    expect(Object.keys(eu.texts.first).sort()).toEqual(
      Object.keys(JSON.parse(readFileSync(join(ROOT, 'src/i18n/messages/eu.json'), 'utf8')))
        .filter(isFirstScreenMessage)
        .sort(),
    );
    expect(eu.texts.first['welcome.title']).toEqual([
      { type: 0, value: 'Ongi etorri ' },
      { type: 1, value: 'title' },
      { type: 0, value: ' webgunera' },
    ]);
    expect(eu.settings.locales).toEqual(['eu', 'en']);
  });

  it('keeps the block closed whatever an override says: no end of script, no comment', () => {
    const hostile = '</script><script>alert(1)</script>';
    const overrides = {
      'welcome.title': hostile,
      'welcome.description': '<!-- x',
      'a.b': 'line\u2028para\u2029',
    };
    const html =
      composeShellPage('<html lang="es"><head></head><body><div id="root"></div></body></html>', {
        markup: '<h1>x</h1>',
        locale: 'es',
        screen: 'Welcome',
        title: 'T',
        brandColor: '#0D55FF',
        boot: { tenant: 'gambling', settings: {}, browsers: {}, texts: { locale: 'es', overrides } },
      }) ?? '';
    const start = html.indexOf('<script type="application/json" id="portal-boot">');
    const block = html.slice(start);
    // Exactly one end for the block: the block's own; nothing in it opens a comment or ends it early.
    expect(block.match(/<\/script/gi)).toHaveLength(1);
    const json = block.slice(block.indexOf('>') + 1, block.indexOf('</script>'));
    expect(json).not.toMatch(/[<\u2028\u2029]/);
    expect(JSON.parse(json).texts.overrides).toEqual(overrides);
  });

  it('makes the page again when browsers.json changes', async () => {
    const path = join(dir, 'public', 'browsers.json');
    const before = await (await get('/profile', 'localhost')).text();
    writeFileSync(
      path,
      JSON.stringify({ opera: { minMobileVersion: 1, minDesktopVersion: 2, downloadUrl: 'x' } }),
    );
    const after = await (await get('/profile', 'localhost')).text();
    expect(after).not.toBe(before);
    expect(after).toContain('"browsers":{"opera":{"minMobileVersion":1,');
  });

  it('keeps ids and test ids out of the paint, and needs the empty #root of index.html', () => {
    expect(
      withoutIds(
        '<main data-route="A"><section data-screen="A"><label for="a">x</label><select id="a" data-testid="m"></select></section></main>',
      ),
    ).toBe('<main><section><label>x</label><select></select></section></main>');
    const page = {
      markup: '<h1>x</h1>',
      locale: 'en',
      screen: 'Welcome',
      title: 'T',
      brandColor: '#0D55FF',
    } as const;
    expect(composeShellPage('<div id="root" class="x"></div>', page)).toBeUndefined();
    // A sheet with a relative url() stays a link (it would resolve against the page).
    const linked = '<link rel="stylesheet" href="/assets/a.css"><div id="root"></div>';
    const relative = new Map([['/assets/a.css', '.x{background:url(bg.png)}']]);
    expect(composeShellPage(linked, page, relative)).toContain(
      '<link rel="stylesheet" href="/assets/a.css">',
    );
    const absolute = new Map([['/assets/a.css', '.x{background:url(/assets/bg.png)}.y{color:red}']]);
    const inlined = composeShellPage(linked, { ...page, markup: '<h1 class="x">x</h1>' }, absolute);
    expect(inlined).toContain('<style>.x{background:url(/assets/bg.png)}</style>');
    expect(inlined).toContain('<link rel="stylesheet" href="/assets/a.css" data-full-sheet>');
  });

  it('allows its one inline script by hash in the CSP, not by unsafe-inline', () => {
    const hash = createHash('sha256').update(SHELL_SCRIPT).digest('base64');
    expect(SHELL_SCRIPT_HASH).toBe(`'sha256-${hash}'`);
    const scriptSrc = CONTENT_SECURITY_POLICY.split('; ').find((d) => d.startsWith('script-src')) ?? '';
    expect(scriptSrc).toContain(SHELL_SCRIPT_HASH);
    expect(scriptSrc).not.toContain('unsafe-inline');
  });
});
