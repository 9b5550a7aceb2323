import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { accountsRoutes } from './accounts/routes';
import { auditRoutes } from './audit/routes';
import { bulkRoutes } from './bulk/routes';
import type { AppDeps } from './context';
import { credentialResetRoutes } from './credential-resets/routes';
import { credentialsRoutes } from './credentials/routes';
import { facilitiesRoutes } from './facilities/routes';
import { faviconRoutes } from './favicon';
import { healthRoutes } from './health/routes';
import type { AppEnv } from './http/env';
import { HttpProblem, makeProblem, problemResponse } from './http/problem';
import { errorField, logUnexpected } from './logger';
import { apiBodyLimit, apiQueryLimits } from './middleware/request-limits';
import { requestLog } from './middleware/request-log';
import { requireTenant } from './middleware/tenant';
import { onboardingOptionsFromEnv } from './onboarding/options';
import { onboardingRoutes } from './onboarding/routes';
import { onboardingRuntime } from './onboarding/runtime';
import { createReadiness } from './readiness';
import { regionsRoutes } from './regions/routes';
import { applySecurityHeaders, isSubresourceAsset } from './security-headers';
import { shellPages } from './shell';
import { singlesRoutes } from './singles/routes';
import { staffActionsRoutes } from './staff-actions/routes';
import { staticFiles } from './static-files';
import { usersRoutes } from './users/routes';
import { visitsRoutes } from './visits/routes';

export type App = Hono<AppEnv>;

export function createApp(given: AppDeps): App {
  const deps: AppDeps = { ...given, readiness: given.readiness ?? createReadiness() };
  const app = new Hono<AppEnv>();

  if (deps.metrics) app.use(deps.metrics.routeNames);

  app.use(requestLog(deps.logger, { trustProxy: deps.trustProxy ?? false }));
  // After next() so the headers land on every response: handlers, static files, 404s and errors. A script or
  // stylesheet that was found (2xx/304) gets nosniff only; a miss under /assets/ is an error answer with the full set.
  app.use(async (c, next) => {
    await next();
    applySecurityHeaders(c.res.headers, isSubresourceAsset(c.req.path) && c.res.status < 400);
  });

  if (deps.config.serveSpa) {
    // Before the files: dist/favicon.svg is the build's copy in the default colour, this one the tenant's.
    app.route('/', faviconRoutes(deps.config.publicDir, deps.tenants));
    const { distDir, publicDir } = deps.config;
    app.use(
      staticFiles({
        distDir,
        publicDir,
        shell: shellPages({
          distDir,
          publicDir,
          knownTenants: deps.tenants,
          api: (request, env) => app.fetch(request, env),
        }),
      }),
    );
  }

  app.route('/', healthRoutes(deps));

  app.use('/api/*', requireTenant(deps.tenants));
  // Bodies of at most 64 KB (the image uploads have their own limits) and clean query parameters: 413 or 400
  // problems before any handler reads them.
  app.use('/api/*', apiBodyLimit);
  app.use('/api/*', apiQueryLimits);
  // API answers carry personal data: no shared or browser cache unless a handler says otherwise.
  app.use('/api/*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  });
  if (deps.auth) {
    app.route('/api', facilitiesRoutes(deps, deps.auth));
    app.route('/api', accountsRoutes(deps, deps.auth));
    app.route(
      '/api',
      credentialResetRoutes(deps, deps.auth, { origins: deps.origins, trustProxy: deps.trustProxy }),
    );
    app.route('/api', credentialsRoutes(deps, deps.auth));
    app.route('/api', usersRoutes(deps, deps.auth));
    app.route('/api', regionsRoutes(deps, deps.auth));
    // One engine for the process: the registrations check their images with the enrolment's own checks.
    const onboardingOptions = deps.onboarding ?? onboardingOptionsFromEnv();
    const onboarding = onboardingRuntime(deps, deps.auth, onboardingOptions);
    app.route('/api', onboardingRoutes(deps, deps.auth, onboardingOptions, onboarding));
    app.route('/api', visitsRoutes(deps, deps.auth, deps.visits));
    app.route('/api', singlesRoutes(deps, deps.auth, { images: onboarding.images }));
    app.route('/api', bulkRoutes(deps, deps.auth, { images: onboarding.images }));
    app.route('/api', auditRoutes(deps, deps.auth, deps.onboarding));
    app.route('/api', staffActionsRoutes(deps, deps.auth));
  }

  app.notFound((c) => {
    c.set('unmatched', true);
    const path = c.req.path;
    return problemResponse(makeProblem(404, `No resource at ${c.req.method} ${path}.`, 'not_found'));
  });

  app.onError((error, c) => {
    if (error instanceof HttpProblem) return problemResponse(error.problem);
    if (error instanceof HTTPException) {
      return problemResponse(makeProblem(error.status, error.message || 'Request rejected.'));
    }
    // The last resort: whatever a handler throws is logged with its request id and answered as a problem.
    logUnexpected(deps.logger, 'unhandled error', {
      reqId: c.get('reqId'),
      method: c.req.method,
      path: c.req.path,
      err: errorField(error),
    });
    return problemResponse(makeProblem(500, 'An unexpected error occurred.', 'internal_error'));
  });

  return app;
}
