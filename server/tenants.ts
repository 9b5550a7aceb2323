import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// Tenant ids end up in host names, issuer paths and SQL rows: keep them to a plain slug.
const TENANT_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

export function isTenantId(value: string): boolean {
  return TENANT_ID.test(value);
}

/** The shipped tenants: folders under {publicDir}/tenants that hold a settings.json. */
export function loadTenants(publicDir: string): string[] {
  const root = join(publicDir, 'tenants');
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && isTenantId(entry.name))
    .filter((entry) => existsSync(join(root, entry.name, 'settings.json')))
    .map((entry) => entry.name)
    .sort();
}
