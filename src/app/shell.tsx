// The first paint of Welcome and Landing, drawn by the server into index.html (the SPA paints nothing until its JS
// has run, so the largest element of these screens came ~2 s late on a phone). The same components as the app (the
// screen inside ScreenFrame), rendered with react-dom/server for one tenant and language, with the session a first
// visitor (Welcome) or a person who has not enrolled (Landing) has. The app renders into `#root` beside it and takes
// its place when its own screen is drawn (src/app/shell-release.ts). Server-side only: no part of the browser's
// bundle imports this module.
import type { ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { Router } from 'wouter';
import { createActor, createMachine } from 'xstate';
import type { BrowserSettings, LocaleCode, TenantSettings } from '../../contract/api/settings';
import type { Session } from '../auth/access';
import { pathFor, type ScreenName, screens } from '../domain/screens';
import { Landing } from '../features/onboarding/landing';
import { Welcome } from '../features/public/screens';
import { type Runtime, RuntimeProvider } from '../runtime/context';
import { ScreenFrame } from './layout/frame';

/** The screens the server draws: the public root and a newcomer's home. */
export const SHELL_SCREENS = ['Welcome', 'Landing'] as const satisfies readonly ScreenName[];
export type ShellScreen = (typeof SHELL_SCREENS)[number];

const COMPONENTS: Record<ShellScreen, ComponentType> = { Welcome, Landing };

// Landing is drawn for someone who enrols themselves (auto mode); staff who register others see the assisted texts
// once the app has read their session.
const NEWCOMER: Session = {
  accessToken: '',
  issuedAt: 0,
  expiresAt: 0,
  roles: ['post_onboardings_auto'],
  email: '',
  userName: '',
  profile: null,
  userId: '',
  enrolled: false,
  acsId: null,
  userType: 'user',
  locale: null,
  claims: null,
  firstName: '',
  name: '',
};

export interface ShellInput {
  tenant: string;
  settings: TenantSettings;
  locale: LocaleCode;
  /** The portal's texts in that language with the tenant's overrides (strings, as react-intl parses them). */
  messages: Record<string, string>;
  screen: ShellScreen;
}

function stubRuntime({ tenant, settings, locale, screen }: ShellInput): Runtime {
  const browsers: BrowserSettings = {};
  const app = createActor(
    createMachine({ id: 'app', context: { tenant: { tenant, settings, browsers, locale }, locale } }),
  ).start();
  const signedIn = screen === 'Landing';
  const session = createActor(
    createMachine({
      id: 'session',
      context: { session: signedIn ? NEWCOMER : null },
      initial: signedIn ? 'authenticated' : 'anonymous',
      states: { anonymous: {}, authenticated: {} },
    }),
  ).start();
  const never = () => new Promise<never>(() => {});
  return {
    app,
    session,
    notifications: undefined,
    apiClient: never,
    navigate: () => undefined,
    start: () => undefined,
  } as unknown as Runtime;
}

/** The markup of a screen with its header, as the app draws it for that tenant, language and session. */
export function renderShell(input: ShellInput): string {
  const Screen = COMPONENTS[input.screen];
  const path = pathFor(input.screen) ?? '/';
  return renderToStaticMarkup(
    <IntlProvider
      locale={input.locale}
      defaultLocale="es"
      messages={input.messages}
      onError={() => undefined}
    >
      <RuntimeProvider runtime={stubRuntime(input)}>
        <Router ssrPath={path}>
          <ScreenFrame
            screen={input.screen}
            layout={screens[input.screen].layout}
            menu={[{ id: 'home', href: '/', messageId: 'menu.home' }]}
            onLogout={input.screen === 'Landing' ? () => undefined : undefined}
          >
            <Screen />
          </ScreenFrame>
        </Router>
      </RuntimeProvider>
    </IntlProvider>,
  );
}
