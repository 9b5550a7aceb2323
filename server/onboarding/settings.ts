// What onboarding needs from a tenant's settings.json (spec §3 Tenant settings), read leniently: a missing or
// odd field falls back to a default instead of failing the call.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OnboardingMode } from '../../contract/api/onboarding';

export interface OnboardingSettings {
  domain: string;
  registerTypes: string[];
  biometricQR: boolean;
  exclusiveDoc: string | null;
  /** Legal domains whose prohibited lists apply to this tenant (watchlistDomains, else the domain). */
  legalDomains: string[];
  /** Optional `lifeProofing` field of settings.json; undefined when the file does not say. */
  lifeProofing: boolean | undefined;
  /** Spec §3: self-registration (auto onboardings) and assisted registration are open; true unless false. */
  userRegisterEnabled: boolean;
  assistantRegisterEnabled: boolean;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

export function parseOnboardingSettings(tenant: string, raw: unknown): OnboardingSettings {
  const settings = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const domain = typeof settings.domain === 'string' && settings.domain ? settings.domain : tenant;
  const watchlistDomains = strings(settings.watchlistDomains);
  return {
    domain,
    registerTypes: strings(settings.registerTypes),
    biometricQR: settings.biometricQR === true,
    exclusiveDoc: typeof settings.exclusiveDoc === 'string' ? settings.exclusiveDoc : null,
    legalDomains: watchlistDomains.length > 0 ? watchlistDomains : [domain],
    lifeProofing: typeof settings.lifeProofing === 'boolean' ? settings.lifeProofing : undefined,
    userRegisterEnabled: settings.userRegisterEnabled !== false,
    assistantRegisterEnabled: settings.assistantRegisterEnabled !== false,
  };
}

/** Reads {publicDir}/tenants/{tenant}/settings.json once per tenant. */
export function settingsLoader(publicDir: string): (tenant: string) => Promise<OnboardingSettings> {
  const cache = new Map<string, Promise<OnboardingSettings>>();
  return (tenant) => {
    let entry = cache.get(tenant);
    if (!entry) {
      entry = readFile(join(publicDir, 'tenants', tenant, 'settings.json'), 'utf8')
        .then((text) => parseOnboardingSettings(tenant, JSON.parse(text)))
        .catch(() => parseOnboardingSettings(tenant, {}));
      cache.set(tenant, entry);
    }
    return entry;
  };
}

/** identity_proofing: the tenant registers WithIdentityProofing (spec §4: else OnlySelfieWithId). */
export function identityProofing(settings: OnboardingSettings): boolean {
  return settings.registerTypes.includes('WithIdentityProofing');
}

/**
 * supported_docs: the exclusive document when the tenant has one; otherwise ID card, passport and driving
 * licence, plus 'others' for assisted onboardings of tenants with AssistedOtherDocuments, plus 'none'
 * (selfie only) for tenants with the 'none' register type.
 */
export function supportedDocs(settings: OnboardingSettings, mode: OnboardingMode): string[] {
  if (settings.exclusiveDoc) return [settings.exclusiveDoc];
  const docs = ['id_card', 'passport', 'driving_license'];
  if (mode === 'assisted' && settings.registerTypes.includes('AssistedOtherDocuments')) docs.push('others');
  if (settings.registerTypes.includes('none')) docs.push('none');
  return docs;
}
