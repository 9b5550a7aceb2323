import { assign, fromPromise, setup } from 'xstate';
import type { Session } from '../src/domain/session';

// The session (spec §4 Session, §7 identity provider): sign-in by the OpenID code flow, silent renewal
// before the access token expires, and sign-out. The effects (oidc-client-ts, storage, navigation) are
// named actors and actions provided by src/app/runtime.ts; tests provide fakes.

export interface StoredSession {
  session: Session | null;
  /** The stored access token has expired (or is about to): renew before using it. */
  expired: boolean;
}

export interface SignInRequest {
  /** Where to go after signing in (a path of this portal); home routing decides when absent. */
  returnTo: string | null;
  /** Ask the provider for the login page even when its own session is alive (to switch account). */
  forceLogin: boolean;
}

export interface SignInResult {
  session: Session;
  returnTo: string | null;
}

export interface SessionContext {
  session: Session | null;
  /** The current route needs no sign-in (spec §2 public routes): a failed renewal does not force login. */
  onPublicRoute: boolean;
  /** The path the person is on, where a forced re-login brings them back to. */
  path: string;
  returnTo: string | null;
  /** The next sign-in asks for the password even when the provider's session is alive. */
  forceLogin: boolean;
}

export type SessionEvent =
  | { type: 'session.login'; returnTo?: string | null; forceLogin?: boolean }
  | { type: 'session.logout' }
  /** Renew now (the API client's one renewal after a 403, or the token is about to expire). */
  | { type: 'session.renew' }
  /** The API answered 401: the stored session is worthless. */
  | { type: 'session.unauthorized' }
  /** The session changed elsewhere (another tab renewed it, enrolment set enrolled). */
  | { type: 'session.updated'; session: Session }
  /** Another tab signed out: this one forgets the session too. */
  | { type: 'session.ended' }
  | { type: 'route.changed'; isPublic: boolean; path: string }
  /** The page was opened on the Callback route: the provider sent the person back with a code. */
  | { type: 'session.callback' };

export interface SessionInput {
  onPublicRoute: boolean;
  path: string;
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    // Placeholders: src/app/runtime.ts provides the real ones.
    loadStoredSession: fromPromise<StoredSession>(async () => {
      throw new Error('loadStoredSession is provided by the app');
    }),
    signIn: fromPromise<void, SignInRequest>(async () => {
      throw new Error('signIn is provided by the app');
    }),
    completeSignIn: fromPromise<SignInResult>(async () => {
      throw new Error('completeSignIn is provided by the app');
    }),
    renewSession: fromPromise<Session>(async () => {
      throw new Error('renewSession is provided by the app');
    }),
    signOut: fromPromise<void>(async () => {
      throw new Error('signOut is provided by the app');
    }),
  },
  actions: {
    /** Navigate after signing in: to returnTo when the person may go there, else their home screen. */
    goAfterSignIn: (_, _params: { session: Session; returnTo: string | null }) => {},
    goToRoot: () => {},
    /** Forget the stored user and everything personal kept in the browser. */
    clearSession: () => {},
    notifySignInFailed: () => {},
    notifySessionExpired: () => {},
  },
  guards: {
    onPublicRoute: ({ context }) => context.onPublicRoute,
    hasNoStoredSession: (_, params: { stored: StoredSession }) => params.stored.session === null,
    storedSessionExpired: (_, params: { stored: StoredSession }) => params.stored.expired,
  },
  delays: {
    // Until the access token is about to expire; the runtime computes it from the token's expiry.
    renewalDue: 240_000,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    session: null,
    onPublicRoute: input.onPublicRoute,
    path: input.path,
    returnTo: null,
    forceLogin: false,
  }),
  initial: 'checking',
  on: {
    'route.changed': {
      actions: assign({ onPublicRoute: ({ event }) => event.isPublic, path: ({ event }) => event.path }),
    },
  },
  states: {
    checking: {
      on: { 'session.callback': 'completingSignIn' },
      invoke: {
        id: 'loadStoredSession',
        src: 'loadStoredSession',
        onDone: [
          {
            guard: { type: 'hasNoStoredSession', params: ({ event }) => ({ stored: event.output }) },
            target: 'anonymous',
          },
          {
            guard: { type: 'storedSessionExpired', params: ({ event }) => ({ stored: event.output }) },
            target: 'authenticated.renewing',
            actions: assign({ session: ({ event }) => event.output.session }),
          },
          {
            target: 'authenticated',
            actions: assign({ session: ({ event }) => event.output.session }),
          },
        ],
        onError: 'anonymous',
      },
    },
    anonymous: {
      on: {
        'session.login': {
          target: 'signingIn',
          actions: assign({
            returnTo: ({ event }) => event.returnTo ?? null,
            forceLogin: ({ event }) => event.forceLogin === true,
          }),
        },
      },
    },
    signingIn: {
      // The provider's login page replaces this page; the actor only settles if the redirect failed.
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ context }) => ({ returnTo: context.returnTo, forceLogin: context.forceLogin }),
        onError: { target: 'anonymous', actions: 'notifySignInFailed' },
      },
    },
    completingSignIn: {
      invoke: {
        id: 'completeSignIn',
        src: 'completeSignIn',
        onDone: {
          target: 'authenticated',
          actions: [
            assign({
              session: ({ event }) => event.output.session,
              returnTo: null,
              forceLogin: false,
            }),
            {
              type: 'goAfterSignIn',
              params: ({ event }) => ({ session: event.output.session, returnTo: event.output.returnTo }),
            },
          ],
        },
        onError: {
          target: 'anonymous',
          actions: ['notifySignInFailed', 'goToRoot'],
        },
      },
    },
    authenticated: {
      initial: 'active',
      on: {
        'session.logout': 'signingOut',
        'session.unauthorized': 'signingOut',
        'session.ended': '#session.signedOut',
        'session.updated': { actions: assign({ session: ({ event }) => event.session }) },
      },
      states: {
        active: {
          after: { renewalDue: 'renewing' },
          on: {
            'session.renew': 'renewing',
            // A guarded screen this account may not see: sign in again, possibly as someone else.
            'session.login': {
              target: '#session.signingIn',
              actions: assign({
                returnTo: ({ event }) => event.returnTo ?? null,
                forceLogin: ({ event }) => event.forceLogin === true,
              }),
            },
          },
        },
        renewing: {
          invoke: {
            id: 'renewSession',
            src: 'renewSession',
            onDone: { target: 'active', actions: assign({ session: ({ event }) => event.output }) },
            onError: '#session.expired',
          },
        },
      },
    },
    // A renewal that fails (a revoked or spent refresh token, an ended provider session) asks for the password
    // again, and brings the person back to where they were.
    expired: {
      entry: [
        'clearSession',
        assign({ session: null, returnTo: ({ context }) => context.path, forceLogin: true }),
        'notifySessionExpired',
      ],
      always: [{ guard: 'onPublicRoute', target: 'anonymous' }, { target: 'signingIn' }],
    },
    signingOut: {
      // Ends the provider's session (the stored user goes with it) and the provider sends the browser
      // back to the root; if the provider cannot be reached, the local session is cleared all the same.
      invoke: { id: 'signOut', src: 'signOut', onDone: 'signedOut', onError: 'signedOut' },
      exit: assign({ session: null }),
    },
    signedOut: {
      entry: ['clearSession', 'goToRoot'],
      always: 'anonymous',
    },
  },
});
