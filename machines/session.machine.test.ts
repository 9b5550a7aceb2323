import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import type { Session } from '../src/domain/session';
import { type SignInRequest, type SignInResult, sessionMachine } from './session.machine';

const session = { accessToken: 'a1', enrolled: true, roles: [] } as unknown as Session;

function start(options: {
  stored?: { session: Session | null; expired: boolean };
  renew?: () => Promise<Session>;
  onPublicRoute?: boolean;
  path?: string;
}) {
  const spies = {
    clearSession: vi.fn(),
    goAfterSignIn: vi.fn(),
    goHome: vi.fn(),
    goToRoot: vi.fn(),
    notifySessionExpired: vi.fn(),
    keepSessionExpiredNotice: vi.fn(),
    forgetDrafts: vi.fn(),
    signIn: vi.fn<(input: SignInRequest) => void>(),
    signOut: vi.fn(),
  };
  const clock = new SimulatedClock();
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        loadStoredSession: fromPromise(async () => options.stored ?? { session: null, expired: false }),
        signIn: fromPromise(async ({ input }) => {
          spies.signIn(input);
          await new Promise(() => {});
        }),
        completeSignIn: fromPromise(async (): Promise<SignInResult> => ({ session, returnTo: '/profile' })),
        renewSession: fromPromise(async () => (options.renew ?? (async () => session))()),
        signOut: fromPromise(async () => {
          spies.signOut();
        }),
      },
      actions: {
        clearSession: spies.clearSession,
        goAfterSignIn: ({ context }) =>
          spies.goAfterSignIn({ session: context.session, returnTo: context.returnTo }),
        goHome: spies.goHome,
        goToRoot: spies.goToRoot,
        notifySessionExpired: spies.notifySessionExpired,
        keepSessionExpiredNotice: spies.keepSessionExpiredNotice,
        forgetDrafts: spies.forgetDrafts,
      },
      delays: { renewalDue: 60_000 },
    }),
    { input: { onPublicRoute: options.onPublicRoute ?? false, path: options.path ?? '/accounts' }, clock },
  );
  actor.start();
  return { actor, spies, clock };
}

describe('session machine', () => {
  it('completes the sign-in on the Callback route and goes where the person was going', async () => {
    const { actor, spies } = start({});
    actor.send({ type: 'session.callback' });
    await waitFor(actor, (s) => s.matches('authenticated'));
    expect(spies.goAfterSignIn).toHaveBeenCalledWith({ session, returnTo: '/profile' });
  });

  it('sends a signed-in person on the root to their home screen, on start and when they come back to it', async () => {
    const { actor, spies } = start({ stored: { session, expired: false }, onPublicRoute: true, path: '/' });
    await waitFor(actor, (s) => s.matches('authenticated'));
    expect(spies.goHome).toHaveBeenCalledOnce();
    actor.send({ type: 'route.changed', isPublic: false, path: '/home' });
    expect(spies.goHome).toHaveBeenCalledOnce();
    actor.send({ type: 'route.changed', isPublic: true, path: '/' });
    expect(spies.goHome).toHaveBeenCalledTimes(2);
  });

  it('leaves a signed-in person where they are on any other path', async () => {
    const { actor, spies } = start({ stored: { session, expired: false } });
    await waitFor(actor, (s) => s.matches('authenticated'));
    expect(spies.goHome).not.toHaveBeenCalled();
  });

  it('renews when the token is due, and keeps the person signed in', async () => {
    const renewed = { ...session, accessToken: 'a2' };
    const { actor, clock } = start({ stored: { session, expired: false }, renew: async () => renewed });
    await waitFor(actor, (s) => s.matches({ authenticated: 'active' }));
    clock.increment(60_000);
    await waitFor(actor, (s) => s.context.session?.accessToken === 'a2');
    expect(actor.getSnapshot().matches({ authenticated: 'active' })).toBe(true);
  });

  it('a failed renewal on a guarded route clears the credentials and asks for the password again, to come back, with no notice to flash before the login page (which says the session ended)', async () => {
    const { actor, spies } = start({
      stored: { session, expired: true },
      renew: async () => {
        throw new Error('invalid_grant');
      },
    });
    await waitFor(actor, (s) => s.matches('signingIn'));
    expect(spies.clearSession).toHaveBeenCalledOnce();
    expect(spies.notifySessionExpired).not.toHaveBeenCalled();
    expect(spies.signIn).toHaveBeenCalledWith({ returnTo: '/accounts', reason: 'expired' });
    expect(actor.getSnapshot().context.session).toBeNull();
  });

  it('a failed renewal on a public route leaves the person there, signed out', async () => {
    const { actor, spies } = start({
      onPublicRoute: true,
      stored: { session, expired: true },
      renew: async () => {
        throw new Error('login_required');
      },
    });
    await waitFor(actor, (s) => s.matches('anonymous'));
    expect(spies.clearSession).toHaveBeenCalledOnce();
    expect(spies.signIn).not.toHaveBeenCalled();
    expect(spies.notifySessionExpired).toHaveBeenCalledOnce();
  });

  it('a 401 clears the stored session and logs out at the provider', async () => {
    const { actor, spies } = start({ stored: { session, expired: false } });
    await waitFor(actor, (s) => s.matches('authenticated'));
    actor.send({ type: 'session.unauthorized' });
    await waitFor(actor, (s) => s.matches('anonymous'));
    expect(spies.clearSession).toHaveBeenCalledOnce();
    expect(spies.signOut).toHaveBeenCalledOnce();
    expect(spies.goToRoot).toHaveBeenCalledOnce();
    // Said on the page the sign-out ends on, not before it leaves.
    expect(spies.keepSessionExpiredNotice).toHaveBeenCalledOnce();
    expect(spies.notifySessionExpired).not.toHaveBeenCalled();
    // What the person was typing waits for them to sign in again.
    expect(spies.forgetDrafts).not.toHaveBeenCalled();
  });

  it('logging out on purpose forgets the forms kept in the tab, then ends the provider session', async () => {
    const { actor, spies } = start({ stored: { session, expired: false } });
    await waitFor(actor, (s) => s.matches('authenticated'));
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.matches('anonymous'));
    expect(spies.forgetDrafts).toHaveBeenCalledOnce();
    expect(spies.clearSession).toHaveBeenCalledOnce();
    expect(spies.signOut).toHaveBeenCalledOnce();
    expect(spies.keepSessionExpiredNotice).not.toHaveBeenCalled();
  });

  it('a guarded screen the account may not see asks the provider for its login page', async () => {
    const { actor, spies } = start({ stored: { session, expired: false } });
    await waitFor(actor, (s) => s.matches('authenticated'));
    actor.send({ type: 'session.login', returnTo: '/users', reason: 'rights' });
    await waitFor(actor, (s) => s.matches('signingIn'));
    expect(spies.signIn).toHaveBeenCalledWith({ returnTo: '/users', reason: 'rights' });
  });
});
