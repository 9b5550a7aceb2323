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
}

export function settingsOf(publicDir: string) {
  const cache = new Map<string, Promise<SinglesSettings>>();
  return (tenant: string) => {
    let entry = cache.get(tenant);
    if (!entry) {
      entry = readFile(join(publicDir, 'tenants', tenant, 'settings.json'), 'utf8')
        .then((raw) => {
          const s = JSON.parse(raw) as { acsIdSchema?: unknown; biometricQR?: unknown };
          return {
            acsIdSchema: acsIdSchemaOf(typeof s.acsIdSchema === 'string' ? s.acsIdSchema : null),
            biometricQR: s.biometricQR === true,
            legalDomains: parseOnboardingSettings(tenant, s).legalDomains,
          };
        })
        .catch(() => ({
          acsIdSchema: 'string64' as const,
          biometricQR: false,
          legalDomains: parseOnboardingSettings(tenant, {}).legalDomains,
        }));
      cache.set(tenant, entry);
    }
    return entry;
  };
}
