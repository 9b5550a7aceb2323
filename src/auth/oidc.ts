// The OpenID code flow through oidc-client-ts (spec §1: scope 'openid profile roles email', silent
// renewal). Loaded only when a sign-in, a callback, a renewal or a sign-out happens, never for the first
// screen of someone who is not signed in.
import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { SIGN_IN_REASON_PARAM, type SignInReason } from '../../contract/api/sign-in-reason';
import type { Session } from './access';
import { brokerClaims } from './broker';
import { authorityOf, brokerClaimsKey, type OidcConfig, SCOPE, userStorageKey } from './oidc-config';
import { readBrokerClaims, renewAt, sessionFromAccessToken } from './token';

export type { OidcConfig };

export function createUserManager(config: OidcConfig): UserManager {
  return new UserManager({
    authority: authorityOf(config),
    client_id: config.clientId,
    redirect_uri: `${config.origin}/callback`,
    silent_redirect_uri: `${config.origin}/silent`,
    post_logout_redirect_uri: `${config.origin}/`,
    response_type: 'code',
    scope: SCOPE,
    userStore: new WebStorageStateStore({ store: window.localStorage }),
    // The session machine decides when to renew and what a failure means.
    automaticSilentRenew: false,
    monitorSession: false,
    loadUserInfo: false,
  });
}

interface ReturnState {
  returnTo: string | null;
}

export function createOidc(config: OidcConfig) {
  const manager = createUserManager(config);
  const lockName = `portal.renew.${config.realm}`;
  const brokerKey = brokerClaimsKey(userStorageKey(config));
  const sessionOf = (accessToken: string) =>
    sessionFromAccessToken(accessToken, readBrokerClaims(window.localStorage, userStorageKey(config)));

  return {
    async signIn({
      returnTo,
      reason,
      locale,
    }: {
      returnTo: string | null;
      /** Asks for the password even when the provider's session is alive, and its sign-in page says why. */
      reason: SignInReason | null;
      locale: string;
    }) {
      await manager.signinRedirect({
        state: { returnTo } satisfies ReturnState,
        ui_locales: locale,
        ...(reason ? { prompt: 'login', extraQueryParams: { [SIGN_IN_REASON_PARAM]: reason } } : {}),
      });
    },

    async completeSignIn(): Promise<{ session: Session; returnTo: string | null }> {
      const user = await manager.signinCallback();
      if (!user) throw new Error('the sign-in callback returned no user');
      const state = user.state as Partial<ReturnState> | undefined;
      window.localStorage.removeItem(brokerKey);
      if (config.broker) {
        // Spec §6: the claims of the external identity are copied into enrolment data; without them (the
        // endpoint still refusing after its 3 attempts) the person is signed in all the same.
        const claims = await brokerClaims({
          authority: authorityOf(config),
          provider: config.broker,
          accessToken: user.access_token,
        });
        if (claims) window.localStorage.setItem(brokerKey, JSON.stringify(claims));
      }
      return { session: sessionOf(user.access_token), returnTo: state?.returnTo ?? null };
    },

    /**
     * Renews the access token: with the refresh token when there is one, else through the hidden iframe
     * with prompt=none. Tabs take turns through a Web Lock, and a tab that finds a token another tab has
     * just renewed uses it instead of spending the (rotated, single-use) refresh token again.
     */
    async renew(current: string | undefined): Promise<Session> {
      const run = async () => {
        const stored = await manager.getUser();
        if (stored && stored.access_token !== current) {
          const renewed = sessionOf(stored.access_token);
          if (renewAt(renewed) > Date.now() / 1000) return renewed;
        }
        const user = await manager.signinSilent();
        if (!user) throw new Error('silent renewal returned no user');
        return sessionOf(user.access_token);
      };
      const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
      return locks ? locks.request(lockName, run) : run();
    },

    /** Ends the provider's session; the provider sends the browser back to the root. */
    async signOut() {
      const user = await manager.getUser();
      if (!user?.id_token) {
        await manager.removeUser();
        throw new Error('no provider session to end');
      }
      await manager.signoutRedirect({ id_token_hint: user.id_token });
    },

    async clear() {
      window.localStorage.removeItem(brokerKey);
      await manager.removeUser();
      await manager.clearStaleState();
    },
  };
}

export type Oidc = ReturnType<typeof createOidc>;

/** The Silent route inside the hidden iframe: hand the provider's answer to the parent page. */
export async function completeSilentRenewal(config: OidcConfig): Promise<void> {
  await createUserManager(config).signinCallback();
}
