// The first paint of a screen comes with the HTML. index.html's empty `#root` would paint nothing until the app's JS
// has been fetched and run (~2 s for Welcome on a mid-range phone, 3-4 s for a signed-in screen); here the server puts
// beside it the screen as the app draws it (src/app/shell.tsx: the same components, so the same elements, classes and
// texts): Welcome at `/`, Landing at `/landing`, and at the address of every other screen a signed-in person opens,
// the portal's header and the screen's first state (its heading and loading state; the frame alone where the address
// has parameters or a query, which may change that first state). The page also holds links to the files the screen loads
// at start (server/screen-preloads.ts), which its inline script adds once the paint is on screen, so that they
// download beside the entry script. It is drawn for the request's
// tenant (the host, as everywhere: contract/tenant/resolve.ts, shipped tenants only) and language (the app's own rule,
// contract/i18n/locale.ts, with no stored choice: Accept-Language counts only for a tenant without Spanish). The app
// renders into `#root`, hidden meanwhile, and the paint gives way to it when its screen is drawn
// (src/app/shell-release.ts); a screen the person may not open keeps the paint until the app sends them on. The
// paint is `inert` (its buttons wait for the app) and carries no ids nor test ids, so nothing in it is mistaken for
// the app's. After it, as data the browser never runs (`#portal-boot`), the page carries what the server read to
// paint it and the app would otherwise ask for before its first API call: the tenant's settings, browsers.json and
// the overrides of the page's language (src/tenant/load.ts takes them), one round trip fewer before that call, and
// the portal's texts the first screens draw in that language (the catalogue's first part, as the build's syntax
// trees: one script fewer to download, ~2 KB with its headers, on every page).
// Pages are made on first request per tenant, language, screen and frame, and kept until a file they come from
// changes.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type } from 'arktype';
import type { Context } from 'hono';
import { type LocaleCode, tenantSettings } from '../contract/api/settings';
import { tenantTitle } from '../contract/domain/tenant-title';
import { LOCALE_COOKIE, resolveLocale } from '../contract/i18n/locale';
import {
  FULL_SHEET_ATTRIBUTE,
  PAINT_TOKEN_COOKIE,
  type PaintedAnswer,
  PORTAL_BOOT_ID,
  type PortalBoot,
  PRELOADS_TEMPLATE_ID,
} from '../contract/tenant/boot';
import { tenantFromHost } from '../contract/tenant/resolve';
import {
  catalogueTrees,
  DATA_SCREENS,
  PAINT_NOT_FOR,
  type Painted,
  paintedAt,
  renderShell,
  renderShellWithData,
  type ShellScreen,
  themeFromBrandColour,
} from '../src/first-paint';
import { CODINGS, type Coding, chooseCoding, type Effort, encodeSync } from './compression';
import { criticalCss } from './critical-css';
import { notModified } from './http/conditional';
import type { AppEnv } from './http/env';
import { ROOT } from './paths';
import { type Manifest, preloadLinks } from './screen-preloads';
import { SHELL_SCRIPT } from './shell-script';

const MESSAGES_DIR = join(ROOT, 'src/i18n/messages');

/** The screen the server paints at a path, if any (its frame alone for an address with a query or parameters). */
export function shellScreenAt(pathname: string, search = ''): Painted | undefined {
  return paintedAt(pathname, search);
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The app's markup without what must stay unique to the app's own elements: ids, label targets, test ids, and the
 * names of the screen drawn (`data-screen`, `data-route`), by which the journeys and the bench know the app's screen
 * is on the page.
 */
export function withoutIds(markup: string): string {
  return markup.replace(/ (?:id|for|data-testid|data-screen|data-route)="[^"]*"/g, '');
}

/**
 * The files the app reads at start (src/tenant/load.ts), as a JSON block the browser never runs (so the CSP needs
 * nothing for it). Nothing in the JSON may end the block or open a comment: `<` is written `\u003c`, and U+2028 and
 * U+2029 escaped as well.
 */
export function bootBlock(boot: PortalBoot): string {
  const json = JSON.stringify(boot)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${PORTAL_BOOT_ID}">${json}</script>`;
}

/** The rights whose holders the paint is not drawn for (src/app/shell.tsx PAINT_NOT_FOR), for the inline script. */
const notFor = (screen: ShellScreen) => {
  const rights = PAINT_NOT_FOR[screen];
  return rights?.length ? ` data-not-for="${escapeAttribute(rights.join(','))}"` : '';
};

/** index.html with the paint of a screen beside `#root` (hidden until the app takes over). */
export function composeShellPage(
  indexHtml: string,
  page: {
    markup: string;
    locale: LocaleCode;
    screen: ShellScreen;
    title: string;
    brandColor: string;
    /** `<link rel="modulepreload">` tags of the files the screen loads at start (server/screen-preloads.ts). */
    preloads?: string;
    /** The app's files, after the paint's markup so that the paint's bytes come first. */
    boot?: PortalBoot;
    /** Drawn with the person's data (src/app/shell-data.tsx): the app takes its place once its screen has it. */
    withData?: boolean;
  },
  /**
   * The build's stylesheet, by its path in index.html: the rules the paint uses inlined (one round trip fewer before
   * the first paint), the whole sheet linked after it.
   */
  stylesheets: ReadonlyMap<string, string> = new Map(),
): string | undefined {
  const root = '<div id="root"></div>';
  if (!indexHtml.includes(root)) return undefined;
  const theme = themeFromBrandColour(page.brandColor);
  // The brand colour as the app sets it (src/tenant/theme.ts applyTheme), so the paint has the tenant's colours.
  const style = `--brand:${theme.brand};--brand-fg:${theme.brandFg};--brand-soft:${theme.brandSoft};--brand-strong:${theme.brandStrong}`;
  let html = indexHtml;
  const wholeSheets: string[] = [];
  for (const [href, css] of stylesheets) {
    const link = new RegExp(
      `<link rel="stylesheet"[^>]*href="${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`,
    );
    // A relative url() would resolve against the page instead of /assets/: such a sheet stays a link.
    const relativeUrl = /url\(\s*(?!['"]?(?:data:|\/|https?:))/.test(css);
    if (!css.includes('</style') && !relativeUrl && link.test(html)) {
      // What the paint uses only; the whole sheet is linked after the paint (server/critical-css.ts).
      html = html.replace(link, () => `<style>${criticalCss(css, page.markup)}</style>`);
      wholeSheets.push(`<link rel="stylesheet" href="${escapeAttribute(href)}" ${FULL_SHEET_ATTRIBUTE}>`);
    }
  }
  const linkedLater = wholeSheets.join('') + (page.preloads ?? '');
  return html
    .replace(/<html lang="[a-z]+"/, `<html lang="${page.locale}" style="${style}"`)
    .replace(/<meta name="theme-color" content="[^"]*"/, `<meta name="theme-color" content="${theme.brand}"`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeAttribute(page.title)}</title>`)
    .replace(
      root,
      () =>
        `<div id="shell" inert data-paint="${page.screen}" data-locale="${page.locale}"` +
        // Someone's data shows only once the inline script has found this browser's session to be theirs.
        (page.withData ? ' data-with-data hidden' : notFor(page.screen)) +
        '>' +
        `${withoutIds(page.markup)}</div>` +
        `<div id="root" hidden></div><script>${SHELL_SCRIPT}</script>` +
        // Linked by the inline script once the paint is on screen (a template's content is never fetched).
        (linkedLater ? `<template id="${PRELOADS_TEMPLATE_ID}">${linkedLater}</template>` : '') +
        (page.boot ? bootBlock(page.boot) : ''),
    );
}

/** The largest SVG logo the paint carries in its page rather than by its address. */
export const INLINE_LOGO_MAX_BYTES = 4096;

/**
 * The paint's header logo (`src` = `address`) as a `data:` URL of the tenant's own SVG file (`path`, when the tenant
 * serves its logo from its folder here), so that it shows with the page's first paint: by its address, it came in a
 * frame of its own once its request had ended, after the entry script's on a phone, and it is most screens' largest
 * paint. The app's header asks for the file (the paint's preload link has it on its way). Anything else (no such
 * file, not SVG, over INLINE_LOGO_MAX_BYTES) keeps the address.
 */
export function withInlineLogo(markup: string, address: string, path: string | undefined): string {
  if (!path?.endsWith('.svg')) return markup;
  let svg: string;
  try {
    svg = readFileSync(path, 'utf8');
  } catch {
    return markup;
  }
  if (Buffer.byteLength(svg) > INLINE_LOGO_MAX_BYTES || !svg.includes('<svg')) return markup;
  const src = `src="${escapeAttribute(address)}"`;
  const inline = `src="data:image/svg+xml,${encodeURIComponent(svg)}"`;
  return markup.split(`<img ${src}`).join(`<img ${inline}`);
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** A file's JSON, or `fallback` when the file is missing or not JSON. */
function readJsonOr<T>(path: string, fallback: T): T {
  try {
    return readJson(path) as T;
  } catch {
    return fallback;
  }
}

function versionOf(paths: readonly (string | URL)[]): string {
  return paths
    .map((path) => {
      try {
        const info = statSync(path);
        return `${info.size}-${info.mtimeMs}`;
      } catch {
        return '-';
      }
    })
    .join('/');
}

interface Page {
  version: string;
  etag: string;
  bodies: Map<Coding | 'identity', Uint8Array>;
}

/** A page's bodies: as it is, and in `codings` (a page made for one request: the coding it accepts only). */
function pageOf(
  html: string,
  version: string,
  {
    effort = 'static',
    codings = CODINGS,
  }: { effort?: Effort; codings?: readonly (Coding | 'identity')[] } = {},
): Page {
  const identity = new TextEncoder().encode(html);
  const bodies = new Map<Coding | 'identity', Uint8Array>([['identity', identity]]);
  for (const coding of codings)
    if (coding !== 'identity') bodies.set(coding, encodeSync(identity, coding, effort));
  return {
    version,
    etag: `W/"shell-${createHash('sha256').update(html).digest('base64url').slice(0, 16)}"`,
    bodies,
  };
}

/** A cookie's value in a Cookie header, if it is there once with a value. */
export function cookieOf(header: string | undefined, name: string): string | undefined {
  const values = (header ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1));
  return values.length === 1 && values[0] ? values[0] : undefined;
}

/** What of a request chooses its page's language. */
const requestOf = (c: Context<AppEnv>) => ({
  acceptLanguage: c.req.header('accept-language'),
  cookie: c.req.header('cookie'),
});

/**
 * The page as the request accepts it. A page with the person's data is theirs alone: never stored, by the browser
 * or on the way. Every page varies with the cookies: the language's, and on a data screen the one that brings the
 * person's data.
 */
function send(c: Context<AppEnv>, page: Page, { personal }: { personal: boolean }): Response {
  const coding = chooseCoding(c.req.header('accept-encoding'));
  const body = page.bodies.get(coding) ?? page.bodies.get('identity');
  const etag = coding === 'identity' ? page.etag : page.etag.replace(/"$/, `-${coding}"`);
  const headers = new Headers({
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': personal ? 'no-store' : 'no-cache',
    Vary: 'Accept-Encoding, Accept-Language, Cookie',
  });
  if (!personal) {
    headers.set('ETag', etag);
    if (notModified(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  }
  if (coding !== 'identity') headers.set('Content-Encoding', coding);
  headers.set('Content-Length', String(body?.length ?? 0));
  return new Response(c.req.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), {
    status: 200,
    headers,
  });
}

/** What a page of `tenant` in the request's language is made of, read from the files (undefined: bad settings). */
function inputsOf(
  { distDir, publicDir }: { distDir: string; publicDir: string },
  tenant: string,
  { acceptLanguage, cookie }: { acceptLanguage: string | undefined; cookie: string | undefined },
) {
  const tenantDir = join(publicDir, 'tenants', tenant);
  const settingsPath = join(tenantDir, 'settings.json');
  const indexPath = join(distDir, 'index.html');
  const manifestPath = join(distDir, '.vite', 'manifest.json');
  const browsersPath = join(publicDir, 'browsers.json');
  const rawSettings = readJson(settingsPath);
  const settings = tenantSettings(rawSettings);
  if (settings instanceof type.errors) return undefined;
  const browser = (acceptLanguage ?? '')
    .split(',')
    .map((part) => part.split(';')[0]?.trim() ?? '')
    .filter(Boolean);
  // The language this browser chose, as its cookie tells (src/i18n/locale.ts), else as the app would choose.
  const locale = resolveLocale({
    stored: cookieOf(cookie, LOCALE_COOKIE),
    browser,
    available: settings.locales,
  });
  const overridesPath = join(tenantDir, 'locales', `${locale}.json`);
  const logoPath = join(tenantDir, settings.theme.logo);
  const messagesPath = join(MESSAGES_DIR, `${locale}.json`);
  const indexHtml = readFileSync(indexPath, 'utf8');
  const stylesheetPaths = [
    ...indexHtml.matchAll(/<link rel="stylesheet"[^>]*href="\/(assets\/[\w.-]+\.css)"/g),
  ].map((m) => m[1] ?? '');
  const version = versionOf([
    indexPath,
    manifestPath,
    settingsPath,
    overridesPath,
    messagesPath,
    browsersPath,
    logoPath,
    ...stylesheetPaths.map((path) => join(distDir, path)),
  ]);
  return {
    tenant,
    rawSettings,
    settings,
    locale,
    version,
    indexHtml,
    logoPath,
    /** The rest, read only for a page not kept already. */
    files() {
      // No overrides for this language: none. browsers.json missing or not JSON: the app would check nothing
      // (src/tenant/settings-check.ts parseBrowsers). No manifest (a build without one): the page links nothing
      // more.
      const overrides = readJsonOr<Record<string, string>>(overridesPath, {});
      const portalTexts = readJson(messagesPath) as Record<string, string>;
      return {
        overrides,
        browsers: readJsonOr<unknown>(browsersPath, {}),
        portalTexts,
        messages: { ...portalTexts, ...overrides },
        stylesheets: new Map(
          stylesheetPaths.map((path) => [`/${path}`, readFileSync(join(distDir, path), 'utf8')] as const),
        ),
        manifest: readJsonOr<Manifest>(manifestPath, {}),
      };
    },
  };
}
type Inputs = NonNullable<ReturnType<typeof inputsOf>>;
type Files = ReturnType<Inputs['files']>;

/** The page: `markup` drawn by the caller; `painted`, what it was drawn from when it holds the person's data. */
function compose(
  inputs: Inputs,
  files: Files,
  screen: ShellScreen,
  markup: string,
  painted?: { answers: PaintedAnswer[]; openedAt: Date },
): string | undefined {
  const { tenant, settings, locale } = inputs;
  return composeShellPage(
    inputs.indexHtml,
    {
      markup: withInlineLogo(
        markup,
        `${settings.assetsUrl}/${settings.theme.logo}`,
        settings.assetsUrl === `/tenants/${tenant}` ? inputs.logoPath : undefined,
      ),
      locale,
      screen,
      title: tenantTitle(settings, locale),
      brandColor: settings.theme.brandColor,
      // A page with the person's data leaves the first screens' texts to their file (linked after the paint): the
      // data fills the page's first round trip already (docs/performance.md, eleventh pass).
      preloads: preloadLinks(files.manifest, {
        screen,
        locale,
        indexHtml: inputs.indexHtml,
        firstTexts: painted !== undefined,
      }),
      boot: {
        tenant,
        settings: inputs.rawSettings,
        browsers: files.browsers,
        texts: {
          locale,
          overrides: files.overrides,
          ...(painted ? {} : { first: catalogueTrees(files.portalTexts, 'first') }),
        },
        ...(painted ? { answers: painted.answers, openedAt: painted.openedAt.toISOString() } : {}),
      },
      withData: painted !== undefined,
    },
    files.stylesheets,
  );
}

export interface ShellPages {
  /** The page with the first paint for this request, or undefined when there is none to make (plain index.html). */
  respond(c: Context<AppEnv>, pathname: string): Promise<Response | undefined>;
}

export function shellPages({
  distDir,
  publicDir,
  knownTenants,
  api,
}: {
  distDir: string;
  publicDir: string;
  knownTenants: readonly string[];
  /** The server's own API, for the paint of a data screen with the person's data (none: never painted so). */
  api?: (request: Request, env: unknown) => Response | Promise<Response>;
}): ShellPages {
  const pages = new Map<string, Page | null>();

  function make(
    tenant: string,
    { screen, frameOnly }: Pick<Painted, 'screen' | 'frameOnly'>,
    request: { acceptLanguage: string | undefined; cookie: string | undefined },
  ): Page | null {
    const inputs = inputsOf({ distDir, publicDir }, tenant, request);
    if (!inputs) return null;
    const { settings, locale, version } = inputs;
    const key = `${tenant}\0${screen}\0${locale}\0${frameOnly ? 'frame' : 'screen'}`;
    const kept = pages.get(key);
    if (kept && kept.version === version) return kept;
    const files = inputs.files();
    const html = compose(
      inputs,
      files,
      screen,
      renderShell({ tenant, settings, locale, messages: files.messages, screen, frameOnly }),
    );
    if (!html) return null;
    const page = pageOf(html, version);
    pages.set(key, page);
    return page;
  }

  /**
   * The page of a data screen with the person's data (src/app/shell-data.tsx), never kept: null when it cannot be
   * drawn for this token (the generic page follows).
   */
  async function makeWithData(
    c: Context<AppEnv>,
    tenant: string,
    screen: ShellScreen,
    accessToken: string,
  ): Promise<Page | null> {
    if (!api) return null;
    const inputs = inputsOf({ distDir, publicDir }, tenant, requestOf(c));
    if (!inputs) return null;
    const files = inputs.files();
    const url = new URL(c.req.url);
    const host = c.req.header('host') ?? url.host;
    const headers = new Headers({ authorization: `Bearer ${accessToken}`, host, accept: 'application/json' });
    for (const name of ['accept-language', 'x-forwarded-for', 'x-real-ip']) {
      const value = c.req.header(name);
      if (value) headers.set(name, value);
    }
    const painted = await renderShellWithData({
      tenant,
      settings: inputs.settings,
      locale: inputs.locale,
      messages: files.messages,
      screen,
      accessToken,
      origin: url.origin,
      fetch: (request) => {
        const inner = new Headers(headers);
        request.headers.forEach((value, name) => {
          if (name !== 'host' && name !== 'cookie') inner.set(name, value);
        });
        return Promise.resolve(
          api(new Request(request.url, { method: request.method, headers: inner }), c.env),
        );
      },
    });
    if (!painted) return null;
    const html = compose(inputs, files, screen, painted.markup, painted);
    return html
      ? pageOf(html, inputs.version, {
          effort: 'page',
          codings: [chooseCoding(c.req.header('accept-encoding'))],
        })
      : null;
  }

  return {
    async respond(c, pathname) {
      const painted = shellScreenAt(pathname, new URL(c.req.url).search);
      if (!painted) return undefined;
      const host = tenantFromHost((c.req.header('host') ?? '').replace(/:\d+$/, ''));
      if (host.kind !== 'tenant' || !knownTenants.includes(host.tenant)) return undefined;
      const withData = painted.plain && DATA_SCREENS.includes(painted.screen);
      // A HEAD asks for no body: no calls made for one.
      const token =
        withData && c.req.method === 'GET' ? cookieOf(c.req.header('cookie'), PAINT_TOKEN_COOKIE) : undefined;
      if (token) {
        let page: Page | null = null;
        try {
          page = await makeWithData(c, host.tenant, painted.screen, token);
        } catch {
          // Whatever stops the paint with data: the generic one follows.
        }
        if (page) return send(c, page, { personal: true });
      }
      let page: Page | null;
      try {
        page = make(host.tenant, painted, requestOf(c));
      } catch {
        // index.html missing or unreadable settings: the plain answer (or its own error) follows.
        return undefined;
      }
      if (!page) return undefined;
      return send(c, page, { personal: false });
    },
  };
}
