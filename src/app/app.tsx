import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { useSelector } from '@xstate/react';
import { Component, type ComponentType, type ReactNode, Suspense, useEffect } from 'react';
import { IntlProvider } from 'react-intl';
import { Route, Router, Switch, useLocation } from 'wouter';
import { tenantTitle } from '../../contract/domain/tenant-title';
import { menuItems, passesGuard } from '../auth/access';
import { Spinner } from '../components/ui/spinner';
import { type Layout, pathFor, type ScreenName, screenNames, screens } from '../domain/screens';
import { ChunkTimeoutScreen } from '../features/public/chunk-timeout';
import { TenantErrorScreen } from '../features/public/tenant-error';
import { loadingWords } from '../i18n/loading-words';
import { useRuntime, useTenant } from '../runtime/context';
import { ScreenFrame } from './layout/frame';
import { LoadingBar } from './layout/loading-bar';
import type { MenuEntry } from './layout/menu-entry';
import { Toaster } from './layout/toaster';
import { ChunkLoadTimeout } from './lazy-screen';
import { screenComponents } from './routes';
import { isPublicPath } from './runtime';
import { ReleaseShell } from './shell-release';

/** The header menu of whoever is signed in (spec §2), home first. */
function useMenu(): MenuEntry[] {
  const { session } = useRuntime();
  const current = useSelector(session, (s) => s.context.session);
  return [
    { id: 'home', href: '/', messageId: 'menu.home' },
    ...menuItems(current).map((item) => ({
      id: item.id,
      href: pathFor(item.screen) ?? '/',
      messageId: item.messageId,
    })),
  ];
}

function useLogout(): (() => void) | undefined {
  const { session } = useRuntime();
  const signedIn = useSelector(session, (s) => s.matches('authenticated'));
  return signedIn ? () => session.send({ type: 'session.logout' }) : undefined;
}

type Gate = 'open' | 'wait' | 'login' | 'switch';

/**
 * Guards (spec §2): a person who may not see a screen is sent to login — to sign in, or, when signed in
 * as someone without the right, to sign in as someone who has it. The session machine does the sending.
 */
function Guarded({ screen, children }: { screen: ScreenName; children: ReactNode }) {
  const { session } = useRuntime();
  const { settings } = useTenant();
  const [location] = useLocation();
  const guard = screens[screen].guard;
  const gate = useSelector(session, (s): Gate => {
    if (guard === 'public') return 'open';
    if (s.matches('authenticated'))
      return passesGuard(guard, s.context.session, settings) ? 'open' : 'switch';
    return s.matches('anonymous') ? 'login' : 'wait';
  });
  useEffect(() => {
    if (gate === 'login' || gate === 'switch') {
      session.send({
        type: 'session.login',
        returnTo: location,
        ...(gate === 'switch' ? { reason: 'rights' as const } : {}),
      });
    }
  }, [gate, location, session]);
  return gate === 'open' ? children : <ScreenFallback />;
}

class ChunkBoundary extends Component<{ children: ReactNode }, { timedOut: boolean }> {
  override state = { timedOut: false };
  static getDerivedStateFromError(error: unknown) {
    if (error instanceof ChunkLoadTimeout) return { timedOut: true };
    throw error;
  }
  override render() {
    return this.state.timedOut ? (
      <>
        <ChunkTimeoutScreen />
        <ReleaseShell />
      </>
    ) : (
      this.props.children
    );
  }
}

// Words that need no catalogue: a screen reader reads "Loading…" in the portal's language, never an ellipsis.
function useLoadingWords(): string {
  const { app } = useRuntime();
  return loadingWords(useSelector(app, (s) => s.context.locale));
}

function ScreenFallback() {
  const label = useLoadingWords();
  return (
    <div className="flex justify-center py-16">
      <Spinner label={label} />
    </div>
  );
}

function Framed({
  name,
  layout,
  screen: Screen,
}: {
  name: ScreenName;
  layout: Layout;
  screen: ComponentType;
}) {
  const menu = useMenu();
  const onLogout = useLogout();
  return (
    <ScreenFrame screen={name} layout={layout} menu={menu} onLogout={onLogout}>
      <ChunkBoundary>
        <Suspense fallback={<ScreenFallback />}>
          <Guarded screen={name}>
            <Screen />
            <ReleaseShell />
          </Guarded>
        </Suspense>
      </ChunkBoundary>
    </ScreenFrame>
  );
}

/** Every navigation is an event for the app (spec §2: it clears displayed error notifications). */
function NavigationEvents() {
  const [location] = useLocation();
  const { app, session } = useRuntime();
  useEffect(() => {
    app.send({ type: 'route.changed', path: location });
    session.send({ type: 'route.changed', isPublic: isPublicPath(location), path: location });
  }, [app, session, location]);
  return null;
}

function Screens() {
  return (
    <Router>
      <NavigationEvents />
      <Switch>
        {screenNames.map((name) => (
          <Route key={name} path={screens[name].path}>
            <Framed name={name} layout={screens[name].layout} screen={screenComponents[name]} />
          </Route>
        ))}
        {/* An unknown path: the app machine sends the person to the root (route.changed, goToRoot). */}
        <Route>{null}</Route>
      </Switch>
    </Router>
  );
}

export function App() {
  const { app } = useRuntime();
  const phase = useSelector(app, (s) =>
    s.matches({ boot: 'ready' }) ? 'ready' : s.matches({ boot: 'failed' }) ? 'failed' : 'booting',
  );
  const locale = useSelector(app, (s) => s.context.locale);
  const messages = useSelector(app, (s) => s.context.messages);
  const loading = useLoadingWords();
  const title = useSelector(app, (s) =>
    s.context.tenant ? tenantTitle(s.context.tenant.settings, s.context.locale) : null,
  );
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  // The tenant's title follows the language (`titles` in the tenant settings).
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
  if (phase === 'booting') {
    return (
      <div className="flex min-h-dvh items-center justify-center">
        <Spinner label={loading} />
      </div>
    );
  }
  return (
    <IntlProvider
      locale={locale}
      defaultLocale="es"
      // Texts or their precompiled syntax trees (src/i18n/catalogue.ts); react-intl formats both.
      messages={messages as Record<string, MessageFormatElement[]>}
    >
      <LoadingBar />
      {phase === 'failed' ? (
        <>
          <TenantErrorScreen />
          <ReleaseShell />
        </>
      ) : (
        <Screens />
      )}
      <Toaster />
    </IntlProvider>
  );
}
