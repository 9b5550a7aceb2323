// The variables every /api request carries through the app's middleware and routes.
export type AppEnv = {
  Variables: {
    /** Set by the tenant middleware for every /api request; always a shipped tenant. */
    tenant: string;
    reqId: string;
    /** Set by the app's notFound: no route matched, only middleware (the metrics' route label). */
    unmatched: boolean;
  };
};
