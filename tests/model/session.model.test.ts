import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../machines/session.machine';
import { sessionMachine } from '../../machines/session.machine';
import type { Session } from '../../src/domain/session';
import { coverMachine, generatePaths, type ModelSpec } from './harness';

const session: Session = {
  accessToken: 'token',
  issuedAt: 1_899_999_700,
  expiresAt: 1_900_000_000,
  roles: ['post_onboardings_auto'],
  email: 'user@gambling.example',
  userName: 'user',
  profile: null,
  userId: 'u-1',
  enrolled: true,
  acsId: 'acs-1',
  userType: 'user',
  locale: 'es',
  claims: null,
  firstName: 'Ana',
  name: 'Ana',
};

const spec = (input: { onPublicRoute: boolean; path: string }): ModelSpec<typeof sessionMachine> => ({
  machine: sessionMachine,
  input,
  events: () => [
    { type: 'xstate.done.actor.loadStoredSession', output: { session: null, expired: false } },
    { type: 'xstate.done.actor.loadStoredSession', output: { session, expired: false } },
    { type: 'xstate.done.actor.loadStoredSession', output: { session, expired: true } },
    { type: 'xstate.error.actor.loadStoredSession', error: new Error('storage unavailable') },
    { type: 'xstate.error.actor.signIn', error: new Error('provider unreachable') },
    { type: 'xstate.done.actor.completeSignIn', output: { session, returnTo: '/profile' } },
    { type: 'xstate.error.actor.completeSignIn', error: new Error('state mismatch') },
    { type: 'xstate.done.actor.renewSession', output: { ...session, accessToken: 'renewed' } },
    { type: 'xstate.error.actor.renewSession', error: new Error('invalid_grant') },
    { type: 'xstate.done.actor.signOut' },
    { type: 'xstate.error.actor.signOut', error: new Error('offline') },
    { type: 'xstate.after.renewalDue.session.authenticated.active' },
    { type: 'session.login', returnTo: '/users' } satisfies SessionEvent,
    { type: 'session.login', returnTo: '/users', reason: 'rights' } satisfies SessionEvent,
    { type: 'session.logout' } satisfies SessionEvent,
    { type: 'session.renew' } satisfies SessionEvent,
    { type: 'session.unauthorized' } satisfies SessionEvent,
    { type: 'session.updated', session: { ...session, enrolled: false } } satisfies SessionEvent,
    { type: 'route.changed', isPublic: true, path: '/' } satisfies SessionEvent,
    { type: 'route.changed', isPublic: false, path: '/accounts' } satisfies SessionEvent,
    { type: 'session.callback' } satisfies SessionEvent,
    { type: 'session.ended' } satisfies SessionEvent,
  ],
  serialize: (s) => ({
    value: s.value,
    onPublicRoute: s.context.onPublicRoute,
    session: s.context.session?.accessToken ?? null,
    enrolled: s.context.session?.enrolled ?? null,
    // A signed-in person on the root is sent home: the path decides which transition is taken.
    onRoot: s.context.path === '/',
  }),
  provide: (control) =>
    sessionMachine.provide({
      actors: {
        loadStoredSession: control.actor('loadStoredSession'),
        signIn: control.actor('signIn'),
        completeSignIn: control.actor('completeSignIn'),
        renewSession: control.actor('renewSession'),
        signOut: control.actor('signOut'),
      },
    }),
});

describe('session machine (generated paths)', () => {
  it('generates paths through sign-in, renewal, expiry and sign-out', () => {
    expect(generatePaths(spec({ onPublicRoute: true, path: '/' })).length).toBeGreaterThan(20);
  });

  it('covers every transition on a real actor', async () => {
    expect((await coverMachine(spec({ onPublicRoute: false, path: '/accounts' }))).missing).toEqual([]);
  });
});
