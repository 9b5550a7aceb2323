import { lazyScreen } from './lazy-screen';

// Every screen of spec §2 by its spec name, with its path and its guard. The guard names are declared
// here and enforced by the session (see src/auth); the router never decides where a person goes.
export type Guard =
  | 'public'
  | 'authenticated'
  | 'onboarding'
  | 'accreditations'
  | 'watchlist'
  | 'audit'
  | 'singleRegistration'
  | 'userManager'
  | 'accounts'
  | 'assistant'
  | 'assistantNotUserManagerGambling'
  | 'profile'
  | 'deleteAccount'
  | 'visits';

export type Layout = 'app' | 'onboarding' | 'bare';

const onboarding = () => import('../features/onboarding/screens');
// A phone enrolling never sees DeviceDetect (nor its hand-off machine): its own chunk keeps it off that path.
const deviceDetect = () => import('../features/onboarding/device-detect');
const account = () => import('../features/account/screens');
const visits = () => import('../features/visits/screens');
const accreditations = () => import('../features/accreditations/screens');
const portal = () => import('../features/portal/screens');
const publicArea = () => import('../features/public/screens');

export const routes = {
  // Public (spec §2: no authentication)
  Callback: {
    path: '/callback',
    guard: 'public',
    layout: 'bare',
    component: lazyScreen(publicArea, 'Callback'),
  },
  Silent: { path: '/silent', guard: 'public', layout: 'bare', component: lazyScreen(publicArea, 'Silent') },
  VisitConfirmation: {
    path: '/confirmation/:token/:visitId',
    guard: 'public',
    layout: 'app',
    component: lazyScreen(visits, 'VisitConfirmation'),
  },
  ErrorScreen: {
    path: '/error/:link/:reason',
    guard: 'public',
    layout: 'app',
    component: lazyScreen(publicArea, 'ErrorScreen'),
  },
  ResetCredentials: {
    path: '/reset-credentials',
    guard: 'public',
    layout: 'app',
    component: lazyScreen(publicArea, 'ResetCredentials'),
  },
  // The root: not a screen of the spec but where unknown paths land (spec §2). It greets a visitor who
  // has not signed in and sends a signed-in person to their home screen (spec §2 home routing).
  Welcome: { path: '/', guard: 'public', layout: 'app', component: lazyScreen(publicArea, 'Welcome') },
  // Onboarding and user area
  Landing: {
    path: '/landing',
    guard: 'authenticated',
    layout: 'app',
    component: lazyScreen(onboarding, 'Landing'),
  },
  PrivacyOnboarding: {
    path: '/privacy-onboarding',
    guard: 'onboarding',
    layout: 'onboarding',
    component: lazyScreen(onboarding, 'PrivacyOnboarding'),
  },
  RegisterDocuments: {
    path: '/register-documents',
    guard: 'onboarding',
    layout: 'onboarding',
    component: lazyScreen(onboarding, 'RegisterDocuments'),
  },
  DocumentScan: {
    path: '/document-scan',
    guard: 'onboarding',
    layout: 'onboarding',
    component: lazyScreen(onboarding, 'DocumentScan'),
  },
  RegisterSelfie: {
    path: '/register-selfie',
    guard: 'onboarding',
    layout: 'onboarding',
    component: lazyScreen(onboarding, 'RegisterSelfie'),
  },
  TakeSelfie: {
    path: '/take-selfie',
    guard: 'onboarding',
    layout: 'onboarding',
    component: lazyScreen(onboarding, 'TakeSelfie'),
  },
  TakeSelfieAlive: {
    path: '/take-selfie-alive',
    guard: 'onboarding',
    layout: 'onboarding',
    component: lazyScreen(onboarding, 'TakeSelfieAlive'),
  },
  ReviewRegister: {
    path: '/review-register',
    guard: 'onboarding',
    layout: 'onboarding',
    component: lazyScreen(onboarding, 'ReviewRegister'),
  },
  RegisterForm: {
    path: '/register-form',
    guard: 'onboarding',
    layout: 'onboarding',
    component: lazyScreen(onboarding, 'RegisterForm'),
  },
  IdentityProofingStep: {
    path: '/id-proofing-step',
    guard: 'public',
    layout: 'onboarding',
    component: lazyScreen(onboarding, 'IdentityProofingStep'),
  },
  NextSteps: {
    path: '/next-steps',
    guard: 'onboarding',
    layout: 'onboarding',
    component: lazyScreen(onboarding, 'NextSteps'),
  },
  FinishRegisterWithQr: {
    path: '/finish-register/:userId/:qrId',
    guard: 'onboarding',
    layout: 'onboarding',
    component: lazyScreen(onboarding, 'FinishRegisterWithQr'),
  },
  FinishRegister: {
    path: '/finish-register/:userId',
    guard: 'onboarding',
    layout: 'onboarding',
    component: lazyScreen(onboarding, 'FinishRegister'),
  },
  FinishRegisterWithError: {
    path: '/finish-register-error/:errorCode',
    guard: 'public',
    layout: 'onboarding',
    component: lazyScreen(onboarding, 'FinishRegisterWithError'),
  },
  DeviceDetect: {
    path: '/device-detect',
    guard: 'public',
    layout: 'onboarding',
    component: lazyScreen(deviceDetect, 'DeviceDetect'),
  },
  UserHome: {
    path: '/home',
    guard: 'authenticated',
    layout: 'app',
    component: lazyScreen(account, 'UserHome'),
  },
  UserProfile: {
    path: '/profile',
    guard: 'profile',
    layout: 'app',
    component: lazyScreen(account, 'UserProfile'),
  },
  DeleteAccount: {
    path: '/delete-account',
    guard: 'deleteAccount',
    layout: 'app',
    component: lazyScreen(account, 'DeleteAccount'),
  },
  ProcessVisit: {
    path: '/process-visit',
    guard: 'visits',
    layout: 'app',
    component: lazyScreen(account, 'ProcessVisit'),
  },
  // Visits
  VisitList: { path: '/visits', guard: 'visits', layout: 'app', component: lazyScreen(visits, 'VisitList') },
  MyVisits: { path: '/my-visits', guard: 'visits', layout: 'app', component: lazyScreen(visits, 'MyVisits') },
  NewVisit: {
    path: '/new-visit/:userId?',
    guard: 'visits',
    layout: 'app',
    component: lazyScreen(visits, 'NewVisit'),
  },
  VisitDetail: {
    path: '/visit-detail',
    guard: 'visits',
    layout: 'app',
    component: lazyScreen(visits, 'VisitDetail'),
  },
  // Accreditations
  MyAccreditations: {
    path: '/my-accreditations',
    guard: 'accreditations',
    layout: 'app',
    component: lazyScreen(accreditations, 'MyAccreditations'),
  },
  AccreditationDetail: {
    path: '/accreditation-detail/:accreditationId',
    guard: 'accreditations',
    layout: 'app',
    component: lazyScreen(accreditations, 'AccreditationDetail'),
  },
  AccreditFace: {
    path: '/accredit-face',
    guard: 'accreditations',
    layout: 'app',
    component: lazyScreen(accreditations, 'AccreditFace'),
  },
  AccreditProof: {
    path: '/accredit-proof',
    guard: 'public',
    layout: 'app',
    component: lazyScreen(accreditations, 'AccreditProof'),
  },
  // Portal (staff)
  PortalManagement: {
    path: '/portal-management',
    guard: 'authenticated',
    layout: 'app',
    component: lazyScreen(portal, 'PortalManagement'),
  },
  PortalAccounts: {
    path: '/accounts',
    guard: 'accounts',
    layout: 'app',
    component: lazyScreen(portal, 'PortalAccounts'),
  },
  PortalUsers: {
    path: '/users',
    guard: 'userManager',
    layout: 'app',
    component: lazyScreen(portal, 'PortalUsers'),
  },
  PortalUserDetail: {
    path: '/user-detail/:id',
    guard: 'userManager',
    layout: 'app',
    component: lazyScreen(portal, 'PortalUserDetail'),
  },
  SingleRegistration: {
    path: '/new-user-credential',
    guard: 'singleRegistration',
    layout: 'app',
    component: lazyScreen(portal, 'SingleRegistration'),
  },
  DelegatedFinishRegister: {
    path: '/delegated-finish-register',
    guard: 'singleRegistration',
    layout: 'app',
    component: lazyScreen(portal, 'DelegatedFinishRegister'),
  },
  AuditAccesses: {
    path: '/audit-accesses',
    guard: 'audit',
    layout: 'app',
    component: lazyScreen(portal, 'AuditAccesses'),
  },
  ActivateUsers: {
    path: '/activate-users',
    guard: 'assistantNotUserManagerGambling',
    layout: 'app',
    component: lazyScreen(portal, 'ActivateUsers'),
  },
  CheckInterdictions: {
    path: '/check-interdictions',
    guard: 'assistantNotUserManagerGambling',
    layout: 'app',
    component: lazyScreen(portal, 'CheckInterdictions'),
  },
  AssistantAccountCancellation: {
    path: '/delete-account-assistant',
    guard: 'assistantNotUserManagerGambling',
    layout: 'app',
    component: lazyScreen(portal, 'AssistantAccountCancellation'),
  },
  UploadWatchlist: {
    path: '/upload-watchlist',
    guard: 'watchlist',
    layout: 'app',
    component: lazyScreen(portal, 'UploadWatchlist'),
  },
  UploadWatchlistResult: {
    path: '/upload-watchlist-result/:success',
    guard: 'watchlist',
    layout: 'app',
    component: lazyScreen(portal, 'UploadWatchlistResult'),
  },
} satisfies Record<string, { path: string; guard: Guard; layout: Layout; component: unknown }>;

export type ScreenName = keyof typeof routes;
export const screenNames = Object.keys(routes) as ScreenName[];

/** The path of a screen with its parameters filled in; undefined when a required one is missing. */
export function pathFor(
  screen: ScreenName,
  params: Record<string, string | undefined> = {},
): string | undefined {
  let missing = false;
  const path = routes[screen].path.replace(/\/:(\w+)(\?)?/g, (_all, name: string, optional?: string) => {
    const value = params[name];
    if (value === undefined || value === '') {
      if (!optional) missing = true;
      return '';
    }
    return `/${encodeURIComponent(value)}`;
  });
  return missing ? undefined : path || '/';
}

const patterns = screenNames.map((screen) => {
  const source = routes[screen].path
    .replace(/[.*+^${}()|[\]\\]/g, '\\$&')
    .replace(/\/:(\w+)\?/g, '(?:/[^/]+)?')
    .replace(/\/:(\w+)/g, '/[^/]+');
  return { screen, regex: new RegExp(`^${source}/?$`) };
});

/** The screen whose route matches a path (without query or hash), if any. */
export function screenAt(path: string): ScreenName | undefined {
  return patterns.find((p) => p.regex.test(path))?.screen;
}
