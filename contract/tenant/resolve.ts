// Spec §1: the tenant is the first label of the host name; 'gambling' for the label 'app' and for local
// development hosts. `<label>.localhost` picks that tenant so several tenants can be tried locally.
export const DEFAULT_TENANT = 'gambling';

export type TenantFromHost = { kind: 'tenant'; tenant: string } | { kind: 'invalid'; label: string };

const TENANT_LABEL = /^[a-z0-9-]+$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

function isIpAddress(host: string): boolean {
  return IPV4.test(host) || host.includes(':') || (host.startsWith('[') && host.endsWith(']'));
}

export function tenantFromHost(hostname: string): TenantFromHost {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (host === '' || host === 'localhost' || isIpAddress(host))
    return { kind: 'tenant', tenant: DEFAULT_TENANT };
  const label = host.split('.')[0] ?? '';
  if (label === 'app') return { kind: 'tenant', tenant: DEFAULT_TENANT };
  if (!TENANT_LABEL.test(label)) return { kind: 'invalid', label };
  return { kind: 'tenant', tenant: label };
}

export function isTenantLabel(value: string): boolean {
  return TENANT_LABEL.test(value);
}
