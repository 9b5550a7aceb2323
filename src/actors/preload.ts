// The first API calls of the screen a page opens on, sent as soon as the route and the session are known (the
// second task of src/app/main.tsx) instead of when the screen's machine starts: after the screen's chunk, the first
// render, the API client chunk and the call modules. The table below names, per screen of the spec, what its
// machine calls first; each entry runs the actor's own code (src/actors/*) with the input the machine starts with,
// so the request is built by the code that builds the machine's. Its calls are kept here, and when the machine's
// actor makes a call, the same call with the same parameters takes the kept answer (or error) instead of going out
// again; a call that differs drops what was kept and goes out as usual. A screen whose first call asks for what
// happened up to the instant it opens (AuditAccesses' range) takes the preload's instant as that one.

import { waitFor } from 'xstate';
import type { Session } from '../auth/access';
import type { ScreenName } from '../domain/screens';
import type { Runtime } from '../runtime/context';
import { type FirstCalls, runPreload } from './preloaded-calls';

/**
 * Per screen, where its first calls are: the actor module (the screen's area loads it too) and, downloading beside
 * it rather than once it has run, the module of the calls it makes (src/api/*, which its lazyCalls would import).
 */
const FIRST_CALLS: Partial<Record<ScreenName, () => Promise<FirstCalls>>> = {
  UserHome: () =>
    both(import('./accreditations'), import('../api/credentials')).then((m) => m.userHomeFirstCalls),
  MyAccreditations: () =>
    both(import('./accreditations'), import('../api/credentials')).then((m) => m.myAccreditationsFirstCalls),
  UserProfile: () =>
    both(import('./account'), import('../api/accounts')).then((m) => m.userProfileFirstCalls),
  MyVisits: () => both(import('./visits'), import('../api/visits')).then((m) => m.visitListFirstCalls),
  VisitList: () => both(import('./visits'), import('../api/visits')).then((m) => m.visitListFirstCalls),
  NewVisit: () => both(import('./visits'), import('../api/facilities')).then((m) => m.newVisitFirstCalls),
  PortalUsers: () => both(import('./users'), import('../api/users')).then((m) => m.portalUsersFirstCalls),
  PortalAccounts: () =>
    both(import('./accounts'), import('../api/accounts')).then((m) => m.portalAccountsFirstCalls),
  AuditAccesses: () =>
    both(import('./audit'), Promise.all([import('../api/audit'), import('../api/facilities')])).then(
      (m) => m.auditAccessesFirstCalls,
    ),
};

const both = <M>(actors: Promise<M>, calls: Promise<unknown>) =>
  Promise.all([actors, calls]).then(([m]) => m);

/** The screens whose first calls are preloaded (for tests and the bench). */
export const PRELOADED_SCREENS = Object.keys(FIRST_CALLS) as ScreenName[];

/** The session once restored and usable (a stored token near its end is renewed first), or null. */
async function activeSession(runtime: Runtime): Promise<Session | null> {
  const settled = await waitFor(
    runtime.session,
    (s) => !s.matches('checking') && !s.matches({ authenticated: 'renewing' }),
  );
  return settled.matches({ authenticated: 'active' }) ? (settled.context.session ?? null) : null;
}

/**
 * Sends the first calls of `screen` (the route the page opened on) once the session is known, if the screen has
 * any and the person may open it. `mayOpen` is the route's guard. Settles when those calls have gone out, or when
 * there are none to wait for: the screen has no first calls, the session is not one to call with yet (nobody
 * signed in, a token being renewed) or the tenant did not load.
 */
export function preloadFirstCalls(
  runtime: Runtime,
  screen: ScreenName | undefined,
  mayOpen: (session: Session) => boolean,
): Promise<void> {
  const load = screen ? FIRST_CALLS[screen] : undefined;
  if (!load) return Promise.resolve();
  // The API client downloads now too, beside the tenant's settings (the session waits for them).
  const client = import('../api/client');
  const sent = runPreload(async (signal, openedAt) => {
    const [firstCalls, session] = await Promise.all([load(), activeSession(runtime), client]);
    if (session && mayOpen(session)) await firstCalls(runtime, session, signal, openedAt);
  });
  // Whichever ends first, the other stops watching its actor.
  const settled = new AbortController();
  const sessionRead = waitFor(runtime.session, (s) => !s.matches('checking'), {
    signal: settled.signal,
  }).then((s) => (s.matches({ authenticated: 'active' }) ? sent : undefined));
  const tenantFailed = waitFor(
    runtime.app,
    (s) => s.context.tenant === undefined && !s.matches({ boot: 'loadingTenant' }),
    { signal: settled.signal },
  );
  return Promise.race([sessionRead, tenantFailed])
    .then(
      () => undefined,
      () => undefined,
    )
    .finally(() => settled.abort());
}
