// What the audit, the doors and the interdiction check read from a tenant's settings.json (spec §3 Tenant
// settings): auditAccessesLevel, useWatch, watchlistDomains (else the domain), extendedInterdictionForm.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseOnboardingSettings } from '../onboarding/settings';

export type AuditLevel = 'all' | 'myscope' | 'none';

export interface AuditSettings {
  auditAccessesLevel: AuditLevel;
  useWatch: boolean;
  legalDomains: string[];
}

export function parseAuditSettings(tenant: string, raw: unknown): AuditSettings {
  const settings = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const level = settings.auditAccessesLevel;
  return {
    auditAccessesLevel: level === 'myscope' || level === 'none' ? level : 'all',
    useWatch: settings.useWatch === true,
    legalDomains: parseOnboardingSettings(tenant, raw).legalDomains,
  };
}

export function auditSettingsLoader(publicDir: string): (tenant: string) => Promise<AuditSettings> {
  const cache = new Map<string, Promise<AuditSettings>>();
  return (tenant) => {
    let entry = cache.get(tenant);
    if (!entry) {
      entry = readFile(join(publicDir, 'tenants', tenant, 'settings.json'), 'utf8')
        .then((text) => parseAuditSettings(tenant, JSON.parse(text)))
        .catch(() => parseAuditSettings(tenant, {}));
      cache.set(tenant, entry);
    }
    return entry;
  };
}
