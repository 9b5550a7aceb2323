import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../context';

export interface Facility {
  facility_id: string;
  alias: string;
  timezone: string;
}

/** GET /internal/facilities: the facilities of the request's tenant. */
export function facilitiesRoutes(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/internal/facilities', async (c) => {
    const { rows } = await deps.db.query<Facility>(
      'select facility_id, alias, timezone from facilities where tenant = $1 order by alias, facility_id',
      [c.get('tenant')],
    );
    return c.json(rows);
  });
}
