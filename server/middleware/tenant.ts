import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/env';
import { HttpProblem } from '../http/problem';

export const TENANT_HEADER = 'tenant-id';

/** Every API call names a shipped tenant in the tenant-id header; handlers read it from the context. */
export function requireTenant(tenants: readonly string[]): MiddlewareHandler<AppEnv> {
  const known = new Set(tenants);
  return async (c, next) => {
    const tenant = c.req.header(TENANT_HEADER)?.trim();
    if (!tenant) {
      throw new HttpProblem(400, `The ${TENANT_HEADER} header is required.`, 'tenant_missing');
    }
    if (!known.has(tenant)) {
      throw new HttpProblem(400, `Unknown tenant in the ${TENANT_HEADER} header.`, 'tenant_unknown');
    }
    c.set('tenant', tenant);
    await next();
  };
}
