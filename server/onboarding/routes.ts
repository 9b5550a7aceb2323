// Onboarding and portrayal API of the reference backend (spec §7 Onboarding, Portrayals, challenges, user
// codes), mounted under /api after the tenant middleware: one router per resource over the SQL of ./store and
// the registration rules of ./outcome.ts.
import { Hono } from 'hono';
import type { AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import { type OnboardingAuth, type OnboardingOptions, onboardingOptionsFromEnv } from './options';
import { confirmationRouter } from './routers/confirmation';
import { devFaultsRouter } from './routers/dev-faults';
import { onboardingsRouter } from './routers/onboardings';
import { portrayalImagesRouter } from './routers/portrayal-images';
import { portrayalsRouter } from './routers/portrayals';
import { userCodesRouter } from './routers/user-codes';
import { type OnboardingRuntime, onboardingRuntime } from './runtime';

// The test harness and the app name the options through this mount point.
export type { OnboardingAuth, OnboardingOptions };

/** The runtime is given by the app, which shares its engine and image checks with other routes. */
export function onboardingRoutes(
  deps: AppDeps,
  auth: OnboardingAuth,
  options: OnboardingOptions = onboardingOptionsFromEnv(),
  rt: OnboardingRuntime = onboardingRuntime(deps, auth, options),
): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  app.route('/', onboardingsRouter(rt));
  app.route('/', portrayalsRouter(rt));
  app.route('/', portrayalImagesRouter(rt));
  app.route('/', confirmationRouter(rt));
  app.route('/', userCodesRouter(rt));
  if (!rt.production) app.route('/', devFaultsRouter(rt, auth));
  return app;
}
