import { Hono } from 'hono';
import type { FacilityList } from '../../contract/api/facilities';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import { listFacilities } from './store';

/**
 * GET /internal/facilities: the facilities of the request's tenant, for anyone signed in to it (the visit forms
 * of visitors and receptionists list them); like every other API call, not for anonymous callers. `?mine=1`: only
 * the facilities the caller is in charge of (account_facilities; AuditAccesses for post_accesses_myscope).
 */
export function facilitiesRoutes(deps: AppDeps, auth: ApiAuth): Hono<AuthEnv> {
  return new Hono<AuthEnv>().get('/internal/facilities', auth.requireAuth(), async (c) => {
    const mine = c.req.query('mine') === '1';
    const rows = await listFacilities(deps.db, c.get('tenant'), mine ? c.get('auth').sub : null);
    return c.json<FacilityList>(rows);
  });
}
