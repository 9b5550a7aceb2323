import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { BrowserSettings, TenantSettings } from '../../contract/api/settings';
import { type PaintedAnswer, PORTAL_BOOT_ID, type PortalBoot } from '../../contract/tenant/boot';
import { tenantFromHost } from '../../contract/tenant/resolve';
import { parseBrowsers, parseOverrides, parseSettings } from './settings-check';
import { TenantLoadError } from './tenant-error';

export { TenantLoadError };

export interface LoadedTenant {
  tenant: string;
  settings: TenantSettings;
  browsers: BrowserSettings;
}

const NOT_JSON = Symbol('not-json');

async function fetchJson(url: string, fetcher: typeof fetch): Promise<{ status: number; body?: unknown }> {
  const response = await fetcher(url, { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!response.ok) return { status: response.status };
  try {
    return { status: response.status, body: await response.json() };
  } catch {
    return { status: response.status, body: NOT_JSON };
  }
}

export async function loadTenant(hostname: string, fetcher: typeof fetch = fetch): Promise<LoadedTenant> {
  const resolved = tenantFromHost(hostname);
  if (resolved.kind === 'invalid')
    throw new TenantLoadError({ kind: 'invalid-label', label: resolved.label });
  const { tenant } = resolved;
  let settingsResponse: Awaited<ReturnType<typeof fetchJson>>;
  let browsersResponse: Awaited<ReturnType<typeof fetchJson>>;
  try {
    [settingsResponse, browsersResponse] = await Promise.all([
      fetchJson(`${tenantFolder(tenant)}/settings.json`, fetcher),
      fetchJson('/browsers.json', fetcher),
    ]);
  } catch {
    throw new TenantLoadError({ kind: 'unreachable', tenant });
  }
  if (settingsResponse.status === 404) throw new TenantLoadError({ kind: 'unknown-tenant', tenant });
  if (settingsResponse.status >= 400) throw new TenantLoadError({ kind: 'unreachable', tenant });
  if (settingsResponse.body === NOT_JSON) {
    throw new TenantLoadError({
      kind: 'invalid-settings',
      tenant,
      summary: 'settings.json is not valid JSON',
    });
  }
  return {
    tenant,
    settings: parseSettings(tenant, settingsResponse.body),
    browsers: parseBrowsers(browsersResponse.body === NOT_JSON ? {} : browsersResponse.body),
  };
}

/**
 * What the server's page carries (server/shell.ts, `#portal-boot`): read from the page once, each part taken once,
 * so a retry or a later change of language asks the server. None on a page the server did not compose (an address
 * it does not paint, `npm run dev`), or when the block is not JSON of that shape.
 */
interface PageBoot {
  tenant?: Omit<PortalBoot, 'texts'>;
  texts?: { tenant: string; locale: string; overrides: unknown };
  first?: { locale: string; trees: Record<string, MessageFormatElement[]> };
  answers?: PaintedAnswer[];
  openedAt?: Date;
}
let pageBoot: PageBoot | undefined;

function bootOfPage(): PageBoot {
  if (pageBoot) return pageBoot;
  pageBoot = {};
  const text = globalThis.document?.getElementById(PORTAL_BOOT_ID)?.textContent;
  let raw: Partial<PortalBoot> | null = null;
  try {
    raw = text ? (JSON.parse(text) as Partial<PortalBoot>) : null;
  } catch {
    return pageBoot;
  }
  if (typeof raw !== 'object' || raw === null || typeof raw.tenant !== 'string') return pageBoot;
  const { tenant, settings, browsers, texts, answers, openedAt } = raw;
  if (Array.isArray(answers)) pageBoot.answers = answers.filter(isPaintedAnswer);
  const at = typeof openedAt === 'string' ? new Date(openedAt) : undefined;
  if (at && !Number.isNaN(at.getTime())) pageBoot.openedAt = at;
  if ('settings' in raw && 'browsers' in raw) pageBoot.tenant = { tenant, settings, browsers };
  if (typeof texts === 'object' && texts !== null && typeof texts.locale === 'string') {
    const { overrides, first } = texts;
    if (isRecord(overrides)) pageBoot.texts = { tenant, locale: texts.locale, overrides };
    if (isRecord(first) && Object.values(first).every(Array.isArray))
      pageBoot.first = { locale: texts.locale, trees: first as Record<string, MessageFormatElement[]> };
  }
  return pageBoot;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isPaintedAnswer = (value: unknown): value is PaintedAnswer =>
  isRecord(value) &&
  typeof value.url === 'string' &&
  value.url.startsWith('/api/') &&
  typeof value.status === 'number' &&
  typeof value.contentType === 'string' &&
  typeof value.body === 'string' &&
  (value.encoding === undefined || value.encoding === 'base64');

/**
 * The API's answers the server's paint of a data screen was drawn from (src/app/shell-data.tsx), taken once, and
 * only while that paint is on the page: the page's inline script takes it away when this browser's session is not
 * the one it was drawn for (server/shell-script.ts).
 */
export function takePaintedAnswers(): PaintedAnswer[] {
  const boot = bootOfPage();
  const answers = boot.answers ?? [];
  delete boot.answers;
  return paintWithData() ? answers : [];
}

const paintWithData = () =>
  globalThis.document?.getElementById('shell')?.hasAttribute('data-with-data') === true;

/**
 * The instant the paint with the person's data drew its screen as opening at, taken once: the app's first calls
 * are built with it, so that they are the paint's (src/actors/preloaded-calls.ts).
 */
export function takePaintedOpenedAt(): Date | undefined {
  const boot = bootOfPage();
  const at = boot.openedAt;
  delete boot.openedAt;
  return paintWithData() ? at : undefined;
}

/**
 * The portal's own texts the first screens draw in `locale`, as the page carries them (the build's first part of
 * that language's catalogue, as syntax trees), or undefined: another language, or no such block in the page.
 * src/i18n/catalogue.ts takes them instead of downloading that part.
 */
export function firstTextsOfPage(locale: string): Record<string, MessageFormatElement[]> | undefined {
  const { first } = bootOfPage();
  return first?.locale === locale ? first.trees : undefined;
}

/** The page's settings of the host's tenant, checked as fetched ones are; undefined when they cannot be used. */
function tenantOfPage(hostname: string): LoadedTenant | undefined {
  const boot = bootOfPage();
  const given = boot.tenant;
  delete boot.tenant;
  const host = tenantFromHost(hostname);
  if (!given || host.kind !== 'tenant' || given.tenant !== host.tenant) return undefined;
  try {
    return {
      tenant: host.tenant,
      settings: parseSettings(host.tenant, given.settings),
      browsers: parseBrowsers(given.browsers),
    };
  } catch {
    // Settings that fail the check: asked for as on a page without them (a broken file is the actor’s to report).
    return undefined;
  }
}

/** The settings asked for before the runtime's actor asked: by host name, taken once (a retry asks anew). */
let earlyTenant: { hostname: string; loaded: Promise<LoadedTenant> } | undefined;

/**
 * Asks for the host's tenant settings now, in the page's first task, so that they travel while the actors are
 * created (a task of its own on a slow phone); the app's loadTenant actor takes them with takePreloadedTenant. When
 * the page carries them (server/shell.ts), nothing is asked.
 */
export function preloadTenant(hostname: string, fetcher: typeof fetch = fetch): void {
  const given = tenantOfPage(hostname);
  const loaded = given ? Promise.resolve(given) : loadTenant(hostname, fetcher);
  loaded.catch(() => undefined);
  earlyTenant = { hostname, loaded };
}

/** The settings preloadTenant asked for this host, once; undefined when none were asked for. */
export function takePreloadedTenant(hostname: string): Promise<LoadedTenant> | undefined {
  const early = earlyTenant?.hostname === hostname ? earlyTenant.loaded : undefined;
  earlyTenant = undefined;
  return early;
}

/** Where a tenant's settings are, and where its assets (assetsUrl) are unless its settings say otherwise. */
export const tenantFolder = (tenant: string) => `/tenants/${tenant}`;

/** Overrides asked for before the settings named their address: by address and language, taken once. */
const early = new Map<string, Promise<Record<string, string>>>();

/**
 * Asks for the overrides of the host's tenant in `locale` now, beside its settings, at the address every shipped
 * tenant's settings give (its own folder): loadTenantTexts takes them if the settings name that address and the
 * portal shows that language, and asks for the right ones otherwise (one round trip after the settings, as before).
 * The page's own (server/shell.ts, read from that folder) are taken instead when they are this tenant's in `locale`.
 */
export function preloadTenantTexts(tenant: string, locale: string, fetcher: typeof fetch = fetch): void {
  const assetsUrl = tenantFolder(tenant);
  const boot = bootOfPage();
  const given = boot.texts;
  delete boot.texts;
  early.set(
    `${assetsUrl} ${locale}`,
    given?.tenant === tenant && given.locale === locale
      ? Promise.resolve(parseOverrides(given.overrides))
      : fetchTenantTexts(assetsUrl, locale, fetcher),
  );
}

/** A tenant's text overrides for one language; a missing or malformed file means no overrides. */
export async function loadTenantTexts(
  assetsUrl: string,
  locale: string,
  fetcher: typeof fetch = fetch,
): Promise<Record<string, string>> {
  const key = `${assetsUrl} ${locale}`;
  const asked = early.get(key);
  early.clear();
  return asked ?? fetchTenantTexts(assetsUrl, locale, fetcher);
}

async function fetchTenantTexts(
  assetsUrl: string,
  locale: string,
  fetcher: typeof fetch,
): Promise<Record<string, string>> {
  try {
    const { body } = await fetchJson(`${assetsUrl}/locales/${locale}.json`, fetcher);
    return parseOverrides(body === NOT_JSON ? {} : body);
  } catch {
    return {};
  }
}
