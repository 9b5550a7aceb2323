import { assign, fromPromise, setup } from 'xstate';
import type { SignInReason } from '../contract/api/sign-in-reason';
import type { Session } from '../src/domain/session';
import { outputOf } from './actor-events';

// The session (spec §4 Session, §7 identity provider): sign-in by the OpenID code flow, silent renewal
// before the access token expires, and sign-out. The effects (oidc-client-ts, storage, navigation) are
// named actors and actions provided by src/app/runtime.ts; tests provide fakes. Guards and actions read the
// event and context themselves (no params), so that the Stately visualizer shows each by its name.

export interface StoredSession {
  session: Session | null;
  /** The stored access token has expired (or is about to): renew before using it. */
  expired: boolean;
}

export interface SignInRequest {
  /** Where to go after signing in (a path of this portal); home routing decides when absent. */
  returnTo: string | null;
  /**
   * Why the password is asked for even when the provider's own session is alive, which its sign-in page says: the
   * page needs other rights (to switch account), or the session ended. null: an ordinary sign-in.
   */
  reason: SignInReason | null;
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
  /** Why the next sign-in asks for the password even when the provider's session is alive; null: it does not. */
  signInReason: SignInReason | null;
}

export type SessionEvent =
  /** `reason` 'rights': the person is signed in without the right the page needs (spec §2: sent to login). */
  | { type: 'session.login'; returnTo?: string | null; reason?: 'rights' }
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
    storeRoute: assign(({ context, event }) =>
      event.type === 'route.changed' ? { onPublicRoute: event.isPublic, path: event.path } : context,
    ),
    storeSignInRequest: assign(({ context, event }) =>
      event.type === 'session.login'
        ? { returnTo: event.returnTo ?? null, signInReason: event.reason ?? null }
        : context,
    ),
    storeStoredSession: assign({
      session: ({ event }) => outputOf<StoredSession>(event).session,
    }),
    // returnTo stays for goAfterSignIn, which runs right after; the next sign-in request replaces it.
    storeSignedInSession: assign(({ event }) => {
      const { session, returnTo } = outputOf<SignInResult>(event);
      return { session, returnTo, signInReason: null };
    }),
    storeRenewedSession: assign({ session: ({ event }) => outputOf<Session>(event) }),
    storeUpdatedSession: assign(({ context, event }) =>
      event.type === 'session.updated' ? { session: event.session } : context,
    ),
    forgetSession: assign({ session: null }),
    // After an expiry the person signs in again with the password and comes back to where they were.
    prepareSignInAgain: assign({
      session: null,
      returnTo: ({ context }) => context.path,
      signInReason: 'expired' as const,
    }),
    // Effects, provided by src/app/runtime.ts.
    /** Navigate after signing in: to context.returnTo when the person may go there, else their home screen. */
    goAfterSignIn: () => {},
    /** Navigate from the root to the home screen of the signed-in person (spec §2 home routing). */
    goHome: () => {},
    goToRoot: () => {},
    /** Forget the stored user and everything personal kept in the browser. */
    clearSession: () => {},
    notifySignInFailed: () => {},
    notifySessionExpired: () => {},
    /**
     * Keep "session expired" for the page the sign-out ends on: said before it, the notice would flash and go with
     * the page the provider's sign-out replaces.
     */
    keepSessionExpiredNotice: () => {},
    /**
     * Forget what this tab kept of the person's unsent forms (a document number, a visit's host): kept across an
     * expired session so that nothing typed is lost, and gone when the person logs out on purpose.
     */
    forgetDrafts: () => {},
  },
  guards: {
    onPublicRoute: ({ context }) => context.onPublicRoute,
    // The root (Welcome) is not a place for someone signed in: they go on to their home screen.
    onRootPath: ({ context }) => context.path === '/',
    isRootRoute: ({ event }) => event.type === 'route.changed' && event.path === '/',
    hasNoStoredSession: ({ event }) => outputOf<StoredSession>(event).session === null,
    storedSessionExpired: ({ event }) => outputOf<StoredSession>(event).expired,
  },
  delays: {
    // Until the access token is about to expire; the runtime computes it from the token's expiry.
    renewalDue: 240_000,
  },
}).createMachine({
  id: 'session',
  description:
    'The session of whoever uses the portal (spec §4 Session: "silent renewal when the token is expiring or expired; if it fails the credentials are cleared and the user goes to login unless on a public route"; spec §1 and §7: sign-in through the tenant\'s identity provider, OpenID code flow, scope "openid profile roles email"; spec §2: a signed-in person on the root goes to their home screen, and after login to where they were going or home).',
  context: ({ input }) => ({
    session: null,
    onPublicRoute: input.onPublicRoute,
    path: input.path,
    returnTo: null,
    signInReason: null,
  }),
  initial: 'checking',
  on: {
    'route.changed': { actions: 'storeRoute' },
  },
  states: {
    checking: {
      description: 'Start-up: the stored user is read from localStorage; screens wait with a spinner.',
      on: { 'session.callback': 'completingSignIn' },
      invoke: {
        id: 'loadStoredSession',
        src: 'loadStoredSession',
        onDone: [
          { guard: 'hasNoStoredSession', target: 'anonymous' },
          { guard: 'storedSessionExpired', target: 'authenticated.renewing', actions: 'storeStoredSession' },
          { guard: 'onRootPath', target: 'authenticated', actions: ['storeStoredSession', 'goHome'] },
          { target: 'authenticated', actions: 'storeStoredSession' },
        ],
        onError: 'anonymous',
      },
    },
    anonymous: {
      description:
        'Nobody is signed in: public screens show, the Welcome screen offers "Log in"; a guarded screen asks to sign in.',
      on: {
        'session.login': { target: 'signingIn', actions: 'storeSignInRequest' },
      },
    },
    signingIn: {
      description:
        'The browser goes to the login page of the identity provider; if it cannot, an error notification (session.signInFailed) says so.',
      // The provider's login page replaces this page; the actor only settles if the redirect failed.
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ context }) => ({ returnTo: context.returnTo, reason: context.signInReason }),
        onError: { target: 'anonymous', actions: 'notifySignInFailed' },
      },
    },
    completingSignIn: {
      description:
        'Callback screen (a spinner): the code from the identity provider is exchanged for tokens; on failure an error notification (session.signInFailed) and the root.',
      invoke: {
        id: 'completeSignIn',
        src: 'completeSignIn',
        onDone: { target: 'authenticated', actions: ['storeSignedInSession', 'goAfterSignIn'] },
        onError: { target: 'anonymous', actions: ['notifySignInFailed', 'goToRoot'] },
      },
    },
    authenticated: {
      description: "Signed in: the screens the person's rights allow, the menu and the logout button.",
      initial: 'active',
      on: {
        // Logging out on purpose forgets the forms' drafts; a 401 keeps them for the person's return.
        'session.logout': { target: 'signingOut', actions: 'forgetDrafts' },
        'session.unauthorized': { target: 'signingOut', actions: 'keepSessionExpiredNotice' },
        'session.ended': '#session.signedOut',
        'session.updated': { actions: 'storeUpdatedSession' },
        'route.changed': [
          { guard: 'isRootRoute', actions: ['storeRoute', 'goHome'] },
          { actions: 'storeRoute' },
        ],
      },
      states: {
        active: {
          description: 'The access token is valid; it is renewed before it expires.',
          after: { renewalDue: 'renewing' },
          on: {
            'session.renew': 'renewing',
            // A guarded screen this account may not see: sign in again, possibly as someone else.
            'session.login': { target: '#session.signingIn', actions: 'storeSignInRequest' },
          },
        },
        renewing: {
          description: 'Silent renewal of the access token; the person goes on with what they were doing.',
          invoke: {
            id: 'renewSession',
            src: 'renewSession',
            onDone: [
              { guard: 'onRootPath', target: 'active', actions: ['storeRenewedSession', 'goHome'] },
              { target: 'active', actions: 'storeRenewedSession' },
            ],
            onError: '#session.expired',
          },
        },
      },
    },
    // A renewal that fails (a revoked or spent refresh token, an ended provider session) asks for the password
    // again, and brings the person back to where they were.
    expired: {
      description:
        'The renewal failed: the stored credentials are cleared and the login page follows; on a public route the person stays, and a warning notification (session.expired) says why. The login page says why itself (signInReason expired): a notice before it would only flash.',
      entry: ['clearSession', 'prepareSignInAgain'],
      always: [
        { guard: 'onPublicRoute', target: 'anonymous', actions: 'notifySessionExpired' },
        { target: 'signingIn' },
      ],
    },
    signingOut: {
      description:
        'Logging out at the identity provider, which then sends the browser back to the root; after a 401 the root says once that the session expired (session.expired), and nothing is said before the page leaves.',
      // Ends the provider's session (the stored user goes with it) and the provider sends the browser
      // back to the root; if the provider cannot be reached, the local session is cleared all the same.
      invoke: { id: 'signOut', src: 'signOut', onDone: 'signedOut', onError: 'signedOut' },
      exit: 'forgetSession',
    },
    signedOut: {
      description: 'Logged out: everything personal kept in the browser is forgotten and the root shows.',
      entry: ['clearSession', 'goToRoot'],
      always: 'anonymous',
    },
  },
});
