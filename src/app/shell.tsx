// The first paint of a screen, drawn by the server into index.html (the SPA paints nothing until its JS has run,
// ~200 KB on a signed-in screen, so the first thing a phone showed came 3-4 s late). The same components as the app
// (the screen inside ScreenFrame), rendered with react-dom/server for one tenant and language: Welcome for a first
// visitor, Landing for a person who has not enrolled, and every other signed-in screen as the app's first render
// draws it, the header and the screen in its machine's first state (loading), for someone signed in whom the server
// does not know. The app renders into `#root` beside it and takes its place when its own screen is drawn
// (src/app/shell-release.ts). Server-side only: no part of the browser's bundle imports this module.
import type { ComponentType, ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { Router } from 'wouter';
import { createActor, createMachine } from 'xstate';
import type { BrowserSettings, LocaleCode, TenantSettings } from '../../contract/api/settings';
import type { Session } from '../auth/access';
import { pathFor, type ScreenName, screenAt, screenNames, screens } from '../domain/screens';
import { DeleteAccount, UserProfile } from '../features/account/screens';
import { AccreditFace } from '../features/accreditations/accredit';
import { MyAccreditations, UserHome } from '../features/accreditations/screens';
import { AuditAccesses } from '../features/audit/audit-accesses';
import { Landing } from '../features/onboarding/landing';
import * as portal from '../features/portal/screens';
import { Welcome } from '../features/public/screens';
import * as visits from '../features/visits/screens';
import { type Runtime, RuntimeProvider } from '../runtime/context';
import { registerMachines } from '../runtime/machines';
import { ScreenFrame } from './layout/frame';
import { shellMachines } from './shell-machines';

/**
 * The screens the server draws: the public root, a newcomer's home, and every screen a signed-in person opens in
 * the portal's frame (not the sign-in return, nor the public screens, whose header depends on a session the server
 * cannot see).
 */
export const SHELL_SCREENS: readonly ScreenName[] = screenNames.filter(
  (name) =>
    // The sign-in return (Callback, Silent) is public and bare: no frame to paint.
    name === 'Welcome' || screens[name].guard !== 'public',
);
export type ShellScreen = ScreenName;

/**
 * The screens whose first state the server draws inside the frame: the same component the app renders, whose
 * machine is in its first state (loading), with nothing in it that depends on who is signed in or on the address's
 * parameters. Every other painted screen gets the frame alone (the header, the empty main area): the app then adds
 * the screen below the header, and nothing that was painted moves.
 */
const COMPONENTS: Partial<Record<ScreenName, ComponentType>> = {
  Welcome,
  Landing,
  UserHome,
  MyAccreditations,
  AccreditFace,
  UserProfile,
  DeleteAccount,
  MyVisits: visits.MyVisits,
  NewVisit: visits.NewVisit,
  VisitList: visits.VisitList,
  ProcessVisit: visits.ProcessVisit,
  PortalManagement: portal.PortalManagement,
  PortalAccounts: portal.PortalAccounts,
  PortalUsers: portal.PortalUsers,
  Administration: portal.Administration,
  SingleRegistration: portal.SingleRegistration,
  DelegatedFinishRegister: portal.DelegatedFinishRegister,
  AddUsersFromPhotos: portal.AddUsersFromPhotos,
  ActivateUsers: portal.ActivateUsers,
  CheckInterdictions: portal.CheckInterdictions,
  AssistantAccountCancellation: portal.AssistantAccountCancellation,
  UploadWatchlist: portal.UploadWatchlist,
};

/**
 * The screens whose first state depends on who is signed in all through (AuditAccesses: the person's scope, its
 * tabs, the range up to the instant it opens): never drawn for nobody, only with the person's data
 * (src/app/shell-data.tsx); their generic paint is the frame.
 */
const WITH_DATA_ONLY: Partial<Record<ScreenName, ComponentType>> = { AuditAccesses };

registerMachines(shellMachines);

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

// Any other screen is drawn for someone signed in whom the server does not know: no name, no rights. A screen's parts
// that depend on them (a name, the entries a right opens) are what the app adds when it takes over.
const SOMEONE: Session = { ...NEWCOMER, roles: [], enrolled: true, userId: 'someone' };
// The rights a screen's own audience always holds, where its first render reads them: reception's list has the
// visitor's filter.
const RIGHTS: Partial<Record<ScreenName, readonly string[]>> = { VisitList: ['post_visits_all'] };
/**
 * The rights whose holders' first render of a painted screen is another than the paint's, which is drawn for the
 * screen's main audience: NewVisit's form is a visitor's (their own name and email, read-only, from their account);
 * reception's (post_visits_all) books for anyone. The page's inline script (server/shell-script.ts) takes the paint
 * away before it shows when the stored session holds one of them.
 */
export const PAINT_NOT_FOR: Partial<Record<ScreenName, readonly string[]>> = {
  NewVisit: ['post_visits_all'],
};
// The screens whose content below the heading is the person's alone (the portal's entries follow from their rights):
// painted for nobody, their heading alone; the app adds the greeting and the entries below it.
const NOBODY_YET: readonly ScreenName[] = ['PortalManagement'];

export interface ShellInput {
  tenant: string;
  settings: TenantSettings;
  locale: LocaleCode;
  /** The portal's texts in that language with the tenant's overrides (strings, as react-intl parses them). */
  messages: Record<string, string>;
  screen: ShellScreen;
  /** The header and an empty main area only (an address with parameters or a query the server does not read). */
  frameOnly?: boolean;
}

function stubRuntime({ tenant, settings, locale, screen }: ShellInput): Runtime {
  const browsers: BrowserSettings = {};
  const app = createActor(
    createMachine({ id: 'app', context: { tenant: { tenant, settings, browsers, locale }, locale } }),
  ).start();
  const signedIn = screen !== 'Welcome';
  const session = createActor(
    createMachine({
      id: 'session',
      context: {
        session:
          screen === 'Landing'
            ? NEWCOMER
            : signedIn && !NOBODY_YET.includes(screen)
              ? { ...SOMEONE, roles: RIGHTS[screen] ?? SOMEONE.roles }
              : null,
      },
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
  const Screen = input.frameOnly ? undefined : COMPONENTS[input.screen];
  if (Screen) {
    try {
      return renderScreen(input, Screen);
    } catch {
      // A screen that cannot draw without the browser: its frame, as for any screen without its content here.
    }
  }
  return renderScreen(input, () => null);
}

/** What the server paints for an address: which screen, and whether its frame alone. */
export interface Painted {
  screen: ShellScreen;
  frameOnly: boolean;
  /** The screen's own address, without parameters or a query: what a paint with the person's data may be for. */
  plain: boolean;
}

/**
 * The paint of the screen at `pathname` (`search`: the query, '' or '?…'), if any. Welcome and Landing as always.
 * Another screen's content is drawn for its plain address only: a parameter or a query may change what its first
 * render draws (UserHome's saloon, a detail's id), which the page, made once per screen, cannot hold; such an address
 * gets the frame alone.
 */
export function paintedAt(pathname: string, search: string): Painted | undefined {
  if (pathname === '/') return { screen: 'Welcome', frameOnly: false, plain: true };
  if (pathname === '/landing' || pathname === '/landing/')
    return { screen: 'Landing', frameOnly: false, plain: true };
  const screen = screenAt(pathname);
  if (!screen || screen === 'Landing' || !SHELL_SCREENS.includes(screen)) return undefined;
  const plain = search === '' && pathFor(screen) === pathname.replace(/(.)\/$/, '$1');
  return { screen, frameOnly: !plain || COMPONENTS[screen] === undefined, plain };
}

/**
 * The screen drawn with a runtime of the caller's (the paint with the person's data, src/app/shell-data.tsx: their
 * session, the API); whatever the screen throws is the caller's to handle.
 */
export function renderShellWith(
  input: ShellInput,
  adapt: (runtime: Runtime) => Runtime,
  wrap: (screen: ReactNode) => ReactNode = (screen) => screen,
): string {
  const Screen = COMPONENTS[input.screen] ?? WITH_DATA_ONLY[input.screen];
  if (!Screen) throw new Error(`${input.screen} has no first state to draw`);
  return renderScreen(input, () => wrap(<Screen />), adapt(stubRuntime(input)));
}

function renderScreen(input: ShellInput, Screen: ComponentType, runtime = stubRuntime(input)): string {
  const path = pathFor(input.screen) ?? '/';
  return renderToStaticMarkup(
    <IntlProvider
      locale={input.locale}
      defaultLocale="es"
      messages={input.messages}
      onError={() => undefined}
    >
      <RuntimeProvider runtime={runtime}>
        <Router ssrPath={path}>
          <ScreenFrame
            screen={input.screen}
            layout={screens[input.screen].layout}
            menu={[{ id: 'home', href: '/', messageId: 'menu.home' }]}
            onLogout={input.screen === 'Welcome' ? undefined : () => undefined}
          >
            <Screen />
          </ScreenFrame>
        </Router>
      </RuntimeProvider>
    </IntlProvider>,
  );
}
