// Development only (not mounted in production): switches the reference prohibited-list service off and on,
// so that enforcement_source_unavailable can be seen without a real outage.
import { Hono } from 'hono';
import type { AuthEnv } from '../../auth/verify';
import type { OnboardingRuntime } from '../runtime';
import { faultBody, jsonBodyLimit, readBody } from '../validation';

export function devFaultsRouter(rt: OnboardingRuntime): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  app.get('/dev/faults/enforcement', (c) => c.json({ on: rt.faults.enforcement }));
  app.post('/dev/faults/enforcement', jsonBodyLimit, async (c) => {
    const body = await readBody(c, faultBody);
    rt.faults.enforcement = body.on;
    return c.json({ on: rt.faults.enforcement });
  });
  return app;
}
