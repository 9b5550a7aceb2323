import { useSelector } from '@xstate/react';
import { Component, type ComponentType, type ReactNode, Suspense, useEffect } from 'react';
import { IntlProvider } from 'react-intl';
import { Redirect, Route, Router, Switch, useLocation } from 'wouter';
import { Spinner } from '../components/ui/spinner';
import { ChunkTimeoutScreen } from '../features/public/chunk-timeout';
import { TenantErrorScreen } from '../features/public/tenant-error';
import { AppHeader, OnboardingHeader } from './layout/header';
import { LoadingBar } from './layout/loading-bar';
import type { MenuEntry } from './layout/main-menu';
import { Toaster } from './layout/toaster';
import { ChunkLoadTimeout } from './lazy-screen';
import { type Layout, routes, screenNames } from './routes';
import { useRuntime } from './runtime-context';

const menu: MenuEntry[] = [{ id: 'home', href: '/', messageId: 'menu.home' }];

class ChunkBoundary extends Component<{ children: ReactNode }, { timedOut: boolean }> {
  override state = { timedOut: false };
  static getDerivedStateFromError(error: unknown) {
    if (error instanceof ChunkLoadTimeout) return { timedOut: true };
    throw error;
  }
  override render() {
    return this.state.timedOut ? <ChunkTimeoutScreen /> : this.props.children;
  }
}

function ScreenFallback() {
  return (
    <div className="flex justify-center py-16">
      <Spinner label="…" />
    </div>
  );
}

function Framed({ layout, screen: Screen }: { layout: Layout; screen: ComponentType }) {
  const body = (
    <ChunkBoundary>
      <Suspense fallback={<ScreenFallback />}>
        <Screen />
      </Suspense>
    </ChunkBoundary>
  );
  if (layout === 'bare') return body;
  return (
    <>
      {layout === 'app' ? <AppHeader menu={menu} /> : <OnboardingHeader />}
      <main
        id="main"
        className={layout === 'app' ? 'mx-auto max-w-5xl px-4 py-6' : 'mx-auto max-w-xl px-4 py-6'}
      >
        {body}
      </main>
    </>
  );
}

/** Every navigation is an event for the app (spec §2: it clears displayed error notifications). */
function NavigationEvents() {
  const [location] = useLocation();
  const { app } = useRuntime();
  useEffect(() => {
    app.send({ type: 'route.changed', path: location });
  }, [app, location]);
  return null;
}

function Screens() {
  return (
    <Router>
      <NavigationEvents />
      <Switch>
        {screenNames.map((name) => (
          <Route key={name} path={routes[name].path}>
            <Framed layout={routes[name].layout} screen={routes[name].component} />
          </Route>
        ))}
        <Route>
          <Redirect to="/" replace />
        </Route>
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
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  if (phase === 'booting') {
    return (
      <div className="flex min-h-dvh items-center justify-center">
        <Spinner label="…" />
      </div>
    );
  }
  return (
    <IntlProvider locale={locale} defaultLocale="es" messages={messages}>
      <LoadingBar />
      {phase === 'failed' ? <TenantErrorScreen /> : <Screens />}
      <Toaster />
    </IntlProvider>
  );
}
