// What visits need from a tenant's settings.json (spec §3 Tenant settings: visits {locations, mustAcceptPlan}),
// read leniently: a missing or odd field means no limit and no plan to accept.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface VisitSettings {
  /** Facility ids or aliases a visit may be booked at; empty means every facility of the tenant. */
  locations: string[];
  mustAcceptPlan: boolean;
}

export function parseVisitSettings(raw: unknown): VisitSettings {
  const visits = (raw as { visits?: { locations?: unknown; mustAcceptPlan?: unknown } } | null)?.visits;
  const locations = Array.isArray(visits?.locations)
    ? visits.locations.filter((item): item is string => typeof item === 'string')
    : [];
  return { locations, mustAcceptPlan: visits?.mustAcceptPlan === true };
}

export function visitSettingsLoader(publicDir: string): (tenant: string) => Promise<VisitSettings> {
  const cache = new Map<string, Promise<VisitSettings>>();
  return (tenant) => {
    let entry = cache.get(tenant);
    if (!entry) {
      entry = readFile(join(publicDir, 'tenants', tenant, 'settings.json'), 'utf8')
        .then((text) => parseVisitSettings(JSON.parse(text)))
        .catch(() => parseVisitSettings({}));
      cache.set(tenant, entry);
    }
    return entry;
  };
}
