// Development only (not mounted in production): switches the reference prohibited-list service off and on,
// so that enforcement_source_unavailable can be seen without a real outage; and answers one account's next image
// upload 429 busy, so that the portal's "busy, retrying" can be seen without loading the machine. Besides answering only loopback
// callers (server/dev-routes.ts), the switch turns a tenant's prohibited-list check off for everyone of that tenant: only the
// tenant's administrator may touch it.
import { type } from 'arktype';
import { Hono } from 'hono';
import type { Permission } from '../../../contract/api/permissions';
import type { AuthEnv } from '../../auth/verify';
import { faultOn } from '../../enforcement/source';
import { switchFault } from '../../enforcement/store';
import { readBody } from '../../http/validation';
import { personOf } from '../heavy-work';
import type { OnboardingAuth } from '../options';
import type { OnboardingRuntime } from '../runtime';

/** POST /api/dev/faults/enforcement (development only, not part of the portal's contract). */
export const faultBody = type({ on: 'boolean' });

/** POST /api/dev/faults/busy (development only): whose next image upload is answered busy, and the wait asked. */
export const busyFaultBody = type({
  account: '0 < string <= 64',
  'retry_after?': '1 <= number.integer <= 30',
});

/**
 * The administrator's token: delete_users_all is the one permission of spec §6 that only the admin holds
 * ("Admins manage the tenant: activate, deactivate, delete all users and data"); no staff role carries it.
 */
export const FAULT_SWITCH_PERMISSION: Permission = 'delete_users_all';

export function devFaultsRouter(rt: OnboardingRuntime, auth: OnboardingAuth): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const admin = auth.requireAuth(FAULT_SWITCH_PERMISSION);
  // The switch is a row of the database (every process of a cluster sees it), per tenant.
  app.get('/dev/faults/enforcement', admin, async (c) =>
    c.json({ on: await faultOn(rt.db, rt.faults, c.get('tenant'), 'enforcement') }),
  );
  app.post('/dev/faults/enforcement', admin, async (c) => {
    const body = await readBody(c, faultBody);
    await switchFault(rt.db, c.get('tenant'), 'enforcement', body.on);
    return c.json({ on: await faultOn(rt.db, rt.faults, c.get('tenant'), 'enforcement') });
  });
  // One refusal of this process's queue (not a row: it is about this process's load), for an account of the
  // admin's own tenant.
  app.post('/dev/faults/busy', admin, async (c) => {
    const body = await readBody(c, busyFaultBody);
    const retryAfter = body.retry_after ?? 2;
    rt.heavy.refuseNext(personOf(c.get('tenant'), body.account), retryAfter);
    return c.json({ account: body.account, retry_after: retryAfter });
  });
  return app;
}
