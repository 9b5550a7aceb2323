// The tenant settings a single registration reads (public/tenants/<tenant>/settings.json), cached per tenant.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AcsIdSchema, acsIdSchemaOf } from '../../contract/domain/singles';
import { parseOnboardingSettings } from '../onboarding/settings';

export interface SinglesSettings {
  acsIdSchema: AcsIdSchema;
  biometricQR: boolean;
  /** The tenant's legal domains: the regions a person registers in (onboarding/store/region.ts). */
  legalDomains: string[];
  /** The tenant's languages, its default first (the QR mail's language when the request names none of them). */
  locales: string[];
}

export function settingsOf(publicDir: string) {
  const cache = new Map<string, Promise<SinglesSettings>>();
  return (tenant: string) => {
    let entry = cache.get(tenant);
    if (!entry) {
      entry = readFile(join(publicDir, 'tenants', tenant, 'settings.json'), 'utf8')
        .then((raw) => {
          const s = JSON.parse(raw) as { acsIdSchema?: unknown; biometricQR?: unknown; locales?: unknown };
          return {
            acsIdSchema: acsIdSchemaOf(typeof s.acsIdSchema === 'string' ? s.acsIdSchema : null),
            biometricQR: s.biometricQR === true,
            legalDomains: parseOnboardingSettings(tenant, s).legalDomains,
            locales: Array.isArray(s.locales)
              ? s.locales.filter((l): l is string => typeof l === 'string')
              : [],
          };
        })
        .catch(() => ({
          acsIdSchema: 'string64' as const,
          biometricQR: false,
          legalDomains: parseOnboardingSettings(tenant, {}).legalDomains,
          locales: [],
        }));
      cache.set(tenant, entry);
    }
    return entry;
  };
}
