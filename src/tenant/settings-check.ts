import { type } from 'arktype';
import {
  type BrowserSettings,
  browserSettings,
  localeOverrides,
  type TenantSettings,
  tenantSettings,
} from '../api/contract/settings';
import { TenantLoadError } from './tenant-error';

/** Parses settings with the contract schema; the error names every problem found. */
export function parseSettings(tenant: string, raw: unknown): TenantSettings {
  const settings = tenantSettings(raw);
  if (settings instanceof type.errors) {
    throw new TenantLoadError({ kind: 'invalid-settings', tenant, summary: settings.summary });
  }
  if (settings.tenant !== tenant) {
    throw new TenantLoadError({
      kind: 'invalid-settings',
      tenant,
      summary: `tenant must be "${tenant}" (was "${settings.tenant}")`,
    });
  }
  return settings;
}

/** A broken browsers.json must not lock everyone out: the browser check then has nothing to refuse. */
export function parseBrowsers(raw: unknown): BrowserSettings {
  const browsers = browserSettings(raw ?? {});
  return browsers instanceof type.errors ? {} : browsers;
}

/** A tenant's text overrides; a malformed file means no overrides. */
export function parseOverrides(raw: unknown): Record<string, string> {
  const texts = localeOverrides(raw ?? {});
  return texts instanceof type.errors ? {} : texts;
}
