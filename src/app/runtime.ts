import { type ActorRefFrom, createActor, fromPromise, waitFor } from 'xstate';
import type { LocaleCode } from '../../contract/api/settings';
import { tenantTitle } from '../../contract/domain/tenant-title';
import { LOCALES, resolveLocale } from '../../contract/i18n/locale';
import { appMachine, type TenantLoaded } from '../../machines/app.machine';
import { notificationsMachine } from '../../machines/notifications.machine';
import { sessionMachine } from '../../machines/session.machine';
import { forgetDrafts } from '../actors/form-draft';
import type { ApiClient } from '../api/client';
import { loadCallModules } from '../api/lazy';
import { homeScreen, passesGuard, type Session } from '../auth/access';
import type { Oidc } from '../auth/oidc';
import { brokerClaimsKey, type OidcConfig, userStorageKey } from '../auth/oidc-config';
import { paintCookieKeeper } from '../auth/paint-cookie';
import { renewAt } from '../auth/renewal';
import { readStoredUser } from '../auth/token';
import { toSafeSameOriginPath } from '../domain/safe-link';
import { pathFor, screenAt, screens } from '../domain/screens';
import { loadCatalogue } from '../i18n/catalogue';
import { keepLocaleCookie, readStoredLocale, storeLocale } from '../i18n/locale';
import type { Inspect, Navigate, Runtime } from '../runtime/context';
import { loadTenant, takePaintedAnswers, takePreloadedTenant } from '../tenant/load';
import { applyTheme, themeFromBrandColour } from '../tenant/theme';

const browserNavigate: Navigate = (path, options) =>
  options?.replace ? window.history.replaceState(null, '', path) : window.history.pushState(null, '', path);

/** Whether a path needs no sign-in (spec §2 public routes; unknown paths land on the public root). */
export function isPublicPath(path: string): boolean {
  const screen = screenAt(path);
  return screen === undefined || screens[screen].guard === 'public';
}

/** After signing in: where the person was going if they may go there, else their home (spec §2). */
export function afterSignInPath(session: Session, returnTo: string | null, domain: string): string {
  const safe = returnTo ? toSafeSameOriginPath(returnTo) : undefined;
  const screen = safe ? screenAt(safe.split(/[?#]/)[0] ?? '') : undefined;
  if (safe && screen && screen !== 'Welcome' && screen !== 'Callback' && screen !== 'Silent') {
    if (passesGuard(screens[screen].guard, session, { domain })) return safe;
  }
  return pathFor(homeScreen(session)) ?? '/';
}

/**
 * A notice for the next page this tab shows (sessionStorage): a sign-out the provider ends on the root replaces the
 * page, and a notice shown before it would only flash.
 */
export const keptNotice = {
  key: 'portal.keptNotice',
  keep(messageId: string): void {
    try {
      window.sessionStorage.setItem(keptNotice.key, messageId);
    } catch {
      // No storage: the root shows without the notice.
    }
  },
  /**
   * The kept notice, once. Not while this page is still leaving (the sign-out on its way to the provider): a screen
   * that gives way meanwhile (a step left after the failed call) is not the page it is kept for, and the notice
   * would flash there and be gone when the root shows.
   */
  take({ leaving = false }: { leaving?: boolean } = {}): string | null {
    if (leaving) return null;
    try {
      const messageId = window.sessionStorage.getItem(keptNotice.key);
      window.sessionStorage.removeItem(keptNotice.key);
      return messageId;
    } catch {
      return null;
    }
  },
};

/**
 * The language to show among `available` (every one the portal has, before the tenant's settings say which it
 * offers): the one stored in this browser, else the browser's.
 */
export const initialLocale = (available: readonly LocaleCode[] = LOCALES): LocaleCode =>
  resolveLocale({ stored: readStoredLocale(), browser: navigator.languages, available });

/**
 * The long-lived actors of the application, wired to their real effects, in three steps (the notifications', the
 * app's, then the session's with the wiring): the page runs each step in a task of its own (src/app/main.tsx). An
 * actor's creation computes its first snapshot, and on a slow phone the three together were one task of 150-390 ms,
 * the first one paying for compiling XState's code.
 */
export function* createRuntimeInSteps(
  navigate: Navigate = browserNavigate,
  inspect?: Inspect,
): Generator<void, Runtime, void> {
  const notifications = createActor(notificationsMachine, { inspect });
  yield;
  /** Whether the page has had its first route (the first route.changed). */
  let landed = false;

  const app = createActor(
    appMachine.provide({
      actors: {
        loadTenant: fromPromise(async () => {
          const hostname = window.location.hostname;
          const loaded = await (takePreloadedTenant(hostname) ?? loadTenant(hostname));
          return { ...loaded, locale: initialLocale(loaded.settings.locales) };
        }),
        loadMessages: fromPromise(async ({ input }) => ({
          locale: input.locale,
          messages: await loadCatalogue(input.locale, input.tenant?.settings.assetsUrl),
        })),
      },
      actions: {
        applyTheme: ({ context }) => {
          const settings = context.tenant?.settings;
          if (!settings) return;
          applyTheme(themeFromBrandColour(settings.theme.brandColor));
          document.title = tenantTitle(settings, context.locale);
        },
        persistLocale: ({ context }) => {
          storeLocale(context.locale);
          saveLocaleOfAccount(context.locale);
        },
        // A notice kept for this page (a sign-out that replaced the last one) shows once the navigation that
        // lands here has cleared the last page's: before it, that clearing would take it too. The page's first
        // route is no navigation away from anything: what is shown then (the failure of the screen's first call,
        // sent before the first render by src/actors/preload.ts) belongs to this screen and stays.
        clearErrorNotices: () => {
          if (landed) notifications.send({ type: 'errors.clear' });
          landed = true;
          showKeptNotice(session.getSnapshot().matches('signingOut'));
        },
        notifyLocaleUnavailable: () =>
          notifications.send({ type: 'notify', level: 'error', messageId: 'header.language.unavailable' }),
        goToRoot: () => navigate('/', { replace: true }),
      },
    }),
    { inspect, input: { locale: initialLocale() } },
  );
  yield;

  // The tenant's identity provider is known once its settings have loaded: the stored session is read then, beside
  // the texts (not after them), so that the screen's first calls (src/actors/preload.ts) can go out with its token.
  const tenantReady = new Promise<TenantLoaded>((resolve) => {
    const subscription = app.subscribe((snapshot) => {
      if (snapshot.context.tenant) {
        resolve(snapshot.context.tenant);
        queueMicrotask(() => subscription.unsubscribe());
      }
    });
  });
  const oidcConfigOf = ({ settings }: TenantLoaded): OidcConfig => ({
    origin: window.location.origin,
    realm: settings.identityProvider.realm,
    clientId: settings.identityProvider.clientId,
    broker: settings.identityProvider.broker,
  });
  let oidc: Promise<Oidc> | undefined;
  const getOidc = () => {
    oidc ??= Promise.all([tenantReady, import('../auth/oidc')]).then(([tenant, module]) =>
      module.createOidc(oidcConfigOf(tenant)),
    );
    return oidc;
  };

  const currentToken = (): string | undefined => session.getSnapshot().context.session?.accessToken;
  const session: ActorRefFrom<typeof sessionMachine> = createActor(
    sessionMachine.provide({
      actors: {
        loadStoredSession: fromPromise(async () => {
          const tenant = await tenantReady;
          return readStoredUser(window.localStorage, userStorageKey(oidcConfigOf(tenant)));
        }),
        signIn: fromPromise(async ({ input }) =>
          (await getOidc()).signIn({ ...input, locale: app.getSnapshot().context.locale }),
        ),
        completeSignIn: fromPromise(async () => (await getOidc()).completeSignIn()),
        renewSession: fromPromise(async (): Promise<Session> => (await getOidc()).renew(currentToken())),
        signOut: fromPromise(async () => (await getOidc()).signOut()),
      },
      actions: {
        goAfterSignIn: ({ context }) => {
          if (!context.session) return;
          applyAccountLocale(context.session);
          const domain = app.getSnapshot().context.tenant?.settings.domain ?? '';
          navigate(afterSignInPath(context.session, context.returnTo, domain), { replace: true });
        },
        // The root is where a visitor who has not signed in lands; a signed-in person goes on home (spec §2).
        goHome: ({ context }) => {
          if (context.session) navigate(pathFor(homeScreen(context.session)) ?? '/', { replace: true });
        },
        goToRoot: () => navigate('/', { replace: true }),
        clearSession: () => {
          const tenant = app.getSnapshot().context.tenant;
          if (!tenant) return;
          const key = userStorageKey(oidcConfigOf(tenant));
          window.localStorage.removeItem(key);
          window.localStorage.removeItem(brokerClaimsKey(key));
        },
        notifySignInFailed: () =>
          notifications.send({ type: 'notify', level: 'error', messageId: 'session.signInFailed' }),
        notifySessionExpired: () =>
          notifications.send({ type: 'notify', level: 'warning', messageId: 'session.expired' }),
        keepSessionExpiredNotice: () => keptNotice.keep('session.expired'),
        forgetDrafts: () => forgetDrafts(window.sessionStorage),
      },
      delays: {
        renewalDue: ({ context }) =>
          context.session ? Math.max(0, renewAt(context.session) * 1000 - Date.now()) : 0,
      },
    }),
    {
      inspect,
      input: { onPublicRoute: isPublicPath(window.location.pathname), path: window.location.pathname },
    },
  );

  // The language is the account's: sign-in applies the one stored with the account (the token's locale claim), and a
  // change made while signed in (the header menu or UserProfile) is saved to the account.
  let accountLocale: string | null = null;
  function applyAccountLocale(signedIn: Session) {
    accountLocale = signedIn.locale;
    const wanted = signedIn.locale;
    if (!wanted || !(LOCALES as readonly string[]).includes(wanted)) return;
    // At the Callback the texts may still be loading; the change waits until the portal is ready for it.
    void waitFor(app, (s) => s.matches({ boot: { ready: 'idle' } })).then(() =>
      app.send({ type: 'locale.change', locale: wanted as LocaleCode }),
    );
  }
  function saveLocaleOfAccount(locale: LocaleCode) {
    if (!session.getSnapshot().matches('authenticated') || locale === accountLocale) return;
    accountLocale = locale;
    void import('../actors/account')
      .then(({ saveLocaleToAccount }) => saveLocaleToAccount({ apiClient, session, app }, locale))
      .catch((error: unknown) => {
        // Kept in this browser all the same, and the person is told it is not the account's yet (the next change
        // tries again). A 401 is the session gone: the sign-out says that, and nothing more flashes before it.
        accountLocale = null;
        if ((error as { status?: unknown } | null)?.status === 401) return;
        notifications.send({ type: 'notify', level: 'warning', messageId: 'header.language.notSaved' });
      });
  }

  function showKeptNotice(leaving = false) {
    const messageId = keptNotice.take({ leaving });
    if (messageId) notifications.send({ type: 'notify', level: 'warning', messageId });
  }

  /** One renewal for the API client's 403 rule: true when it produced a fresh token. */
  async function renewOnce(): Promise<boolean> {
    if (!session.getSnapshot().matches('authenticated')) return false;
    session.send({ type: 'session.renew' });
    const settled = await waitFor(
      session,
      (s) => s.matches({ authenticated: 'active' }) || !s.matches('authenticated'),
    );
    return settled.matches({ authenticated: 'active' });
  }

  let api: Promise<ApiClient> | undefined;
  /**
   * The API client of this tenant, loaded with its first call (the welcome screen makes none), and with it the
   * modules of the calls the loaded screens make (src/api/lazy.ts).
   */
  function apiClient(): Promise<ApiClient> {
    const tenant = app.getSnapshot().context.tenant;
    if (!tenant) return Promise.reject(new Error('the API client needs the tenant'));
    if (!api) loadCallModules();
    api ??= import('../api/client').then(({ createApiClient }) =>
      createApiClient({
        baseUrl: '/api',
        tenantId: tenant.tenant,
        painted: takePaintedAnswers(),
        getToken: currentToken,
        renewOnce,
        onUnauthorized: () => session.send({ type: 'session.unauthorized' }),
        notify: (notice) => notifications.send({ type: 'notify', ...notice }),
        navigate,
        loading: {
          start: () => app.send({ type: 'loading.start' }),
          end: () => app.send({ type: 'loading.end' }),
        },
      }),
    );
    return api;
  }

  return {
    app,
    notifications,
    session,
    apiClient,
    navigate,
    inspect,
    start() {
      notifications.start();
      app.start();
      session.start();
      // The server paints the page in the language this browser chose (a choice stored before it had its cookie).
      keepLocaleCookie();
      // The cookie by which the server paints a data screen with the person's data, in step with the usable session:
      // removed when the session ends, left as it is while it is read or renewed.
      const keepPaintCookie = paintCookieKeeper(document);
      session.subscribe((s) => {
        const tenant = app.getSnapshot().context.tenant;
        if (s.matches({ authenticated: 'active' }) && tenant) {
          const key = userStorageKey(oidcConfigOf(tenant));
          keepPaintCookie(s.context.session, window.localStorage.getItem(brokerClaimsKey(key)) !== null);
        } else if (!s.matches('checking') && !s.matches({ authenticated: 'renewing' })) {
          keepPaintCookie(null, false);
        }
      });
      // Another tab renewed or ended the session (spec: the user is kept in localStorage).
      window.addEventListener('storage', (event) => {
        const tenant = app.getSnapshot().context.tenant;
        if (!tenant || event.key !== userStorageKey(oidcConfigOf(tenant))) return;
        if (!session.getSnapshot().matches('authenticated')) return;
        const stored = readStoredUser(window.localStorage, event.key);
        if (stored.session) session.send({ type: 'session.updated', session: stored.session });
        else session.send({ type: 'session.ended' });
      });
      if (window.location.pathname === screens.Callback.path) session.send({ type: 'session.callback' });
    },
  };
}
