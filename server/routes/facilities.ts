import { Hono } from 'hono';
import type { ApiAuth } from '../auth/verify';
import type { AppDeps, AppEnv } from '../context';

export interface Facility {
  facility_id: string;
  alias: string;
  timezone: string;
}

/**
 * GET /internal/facilities: the facilities of the request's tenant, for anyone signed in to it (the visit forms
 * of visitors and receptionists list them); like every other API call, not for anonymous callers.
 */
export function facilitiesRoutes(deps: AppDeps, auth: ApiAuth): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/internal/facilities', auth.requireAuth(), async (c) => {
    const { rows } = await deps.db.query<Facility>(
      'select facility_id, alias, timezone from facilities where tenant = $1 order by alias, facility_id',
      [c.get('tenant')],
    );
    return c.json(rows);
  });
}
