// Every screen of spec §2 by its spec name, with its path, its guard and its layout. The guard names are
// declared here and enforced by the session (see src/auth); the router never decides where a person goes.
// Plain data below the features, so that src/auth, the machines' mirror and every feature can read it
// without importing the app (the lazy components live in src/app/routes.ts).
export type Guard =
  | 'public'
  | 'authenticated'
  | 'onboarding'
  | 'accreditations'
  | 'watchlist'
  | 'watchlistResult'
  | 'audit'
  | 'singleRegistration'
  | 'userManager'
  | 'accounts'
  | 'assistant'
  | 'assistantNotUserManagerGambling'
  | 'profile'
  | 'deleteAccount'
  | 'visits'
  | 'reception'
  | 'staff'
  | 'administration';

export type Layout = 'app' | 'onboarding' | 'bare';

export const screens = {
  // Public (spec §2: no authentication)
  Callback: {
    path: '/callback',
    guard: 'public',
    layout: 'bare',
  },
  Silent: { path: '/silent', guard: 'public', layout: 'bare' },
  VisitConfirmation: {
    path: '/confirmation/:token/:visitId',
    guard: 'public',
    layout: 'app',
  },
  ErrorScreen: {
    path: '/error/:link/:reason',
    guard: 'public',
    layout: 'app',
  },
  ResetCredentials: {
    path: '/reset-credentials',
    guard: 'public',
    layout: 'app',
  },
  // The root: not a screen of the spec but where unknown paths land (spec §2). It greets a visitor who
  // has not signed in and sends a signed-in person to their home screen (spec §2 home routing).
  Welcome: { path: '/', guard: 'public', layout: 'app' },
  // Onboarding and user area
  Landing: {
    path: '/landing',
    guard: 'authenticated',
    layout: 'app',
  },
  PrivacyOnboarding: {
    path: '/privacy-onboarding',
    guard: 'onboarding',
    layout: 'onboarding',
  },
  RegisterDocuments: {
    path: '/register-documents',
    guard: 'onboarding',
    layout: 'onboarding',
  },
  DocumentScan: {
    path: '/document-scan',
    guard: 'onboarding',
    layout: 'onboarding',
  },
  RegisterSelfie: {
    path: '/register-selfie',
    guard: 'onboarding',
    layout: 'onboarding',
  },
  TakeSelfie: {
    path: '/take-selfie',
    guard: 'onboarding',
    layout: 'onboarding',
  },
  TakeSelfieAlive: {
    path: '/take-selfie-alive',
    guard: 'onboarding',
    layout: 'onboarding',
  },
  ReviewRegister: {
    path: '/review-register',
    guard: 'onboarding',
    layout: 'onboarding',
  },
  RegisterForm: {
    path: '/register-form',
    guard: 'onboarding',
    layout: 'onboarding',
  },
  IdentityProofingStep: {
    path: '/id-proofing-step',
    guard: 'public',
    layout: 'onboarding',
  },
  NextSteps: {
    path: '/next-steps',
    guard: 'onboarding',
    layout: 'onboarding',
  },
  FinishRegisterWithQr: {
    path: '/finish-register/:userId/:qrId',
    guard: 'onboarding',
    layout: 'onboarding',
  },
  FinishRegister: {
    path: '/finish-register/:userId',
    guard: 'onboarding',
    layout: 'onboarding',
  },
  FinishRegisterWithError: {
    path: '/finish-register-error/:errorCode',
    guard: 'public',
    layout: 'onboarding',
  },
  DeviceDetect: {
    path: '/device-detect',
    guard: 'public',
    layout: 'onboarding',
  },
  UserHome: {
    path: '/home',
    guard: 'authenticated',
    layout: 'app',
  },
  UserProfile: {
    path: '/profile',
    guard: 'profile',
    layout: 'app',
  },
  DeleteAccount: {
    path: '/delete-account',
    guard: 'deleteAccount',
    layout: 'app',
  },
  ProcessVisit: {
    path: '/process-visit',
    guard: 'reception',
    layout: 'app',
  },
  // Visits
  VisitList: { path: '/visits', guard: 'reception', layout: 'app' },
  MyVisits: { path: '/my-visits', guard: 'visits', layout: 'app' },
  NewVisit: {
    path: '/new-visit/:userId?',
    guard: 'visits',
    layout: 'app',
  },
  VisitDetail: {
    path: '/visit-detail',
    guard: 'visits',
    layout: 'app',
  },
  // Accreditations
  MyAccreditations: {
    path: '/my-accreditations',
    guard: 'accreditations',
    layout: 'app',
  },
  AccreditationDetail: {
    path: '/accreditation-detail/:accreditationId',
    guard: 'accreditations',
    layout: 'app',
  },
  AccreditFace: {
    path: '/accredit-face',
    guard: 'accreditations',
    layout: 'app',
  },
  AccreditProof: {
    path: '/accredit-proof',
    guard: 'public',
    layout: 'app',
  },
  // Portal (staff)
  PortalManagement: {
    path: '/portal-management',
    guard: 'staff',
    layout: 'app',
  },
  PortalAccounts: {
    path: '/accounts',
    guard: 'accounts',
    layout: 'app',
  },
  PortalUsers: {
    path: '/users',
    guard: 'userManager',
    layout: 'app',
  },
  PortalUserDetail: {
    path: '/user-detail/:id',
    guard: 'userManager',
    layout: 'app',
  },
  Administration: {
    path: '/administration',
    guard: 'administration',
    layout: 'app',
  },
  SingleRegistration: {
    path: '/new-user-credential',
    guard: 'singleRegistration',
    layout: 'app',
  },
  DelegatedFinishRegister: {
    path: '/delegated-finish-register',
    guard: 'singleRegistration',
    layout: 'app',
  },
  // The portal menu's "add users from photos" (spec §2; bulk import): post_singles, like single enrolment.
  AddUsersFromPhotos: {
    path: '/bulk-registration',
    guard: 'singleRegistration',
    layout: 'app',
  },
  AuditAccesses: {
    path: '/audit-accesses',
    guard: 'audit',
    layout: 'app',
  },
  ActivateUsers: {
    path: '/activate-users',
    guard: 'assistantNotUserManagerGambling',
    layout: 'app',
  },
  CheckInterdictions: {
    path: '/check-interdictions',
    guard: 'assistantNotUserManagerGambling',
    layout: 'app',
  },
  AssistantAccountCancellation: {
    path: '/delete-account-assistant',
    guard: 'assistantNotUserManagerGambling',
    layout: 'app',
  },
  UploadWatchlist: {
    path: '/upload-watchlist',
    guard: 'watchlist',
    layout: 'app',
  },
  // The id of the upload (a stored version or a kept refusal) makes the result survive a reload; auditors open it
  // too, as the enforcement source of a refusal in the audit (spec §3 Audit access: enforcement source URL).
  UploadWatchlistResult: {
    path: '/upload-watchlist-result/:success/:id?',
    guard: 'watchlistResult',
    layout: 'app',
  },
} satisfies Record<string, { path: string; guard: Guard; layout: Layout }>;

export type ScreenName = keyof typeof screens;
export const screenNames = Object.keys(screens) as ScreenName[];

/** The path of a screen with its parameters filled in; undefined when a required one is missing. */
export function pathFor(
  screen: ScreenName,
  params: Record<string, string | undefined> = {},
): string | undefined {
  let missing = false;
  const path = screens[screen].path.replace(/\/:(\w+)(\?)?/g, (_all, name: string, optional?: string) => {
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
  const source = screens[screen].path
    .replace(/[.*+^${}()|[\]\\]/g, '\\$&')
    .replace(/\/:(\w+)\?/g, '(?:/[^/]+)?')
    .replace(/\/:(\w+)/g, '/[^/]+');
  return { screen, regex: new RegExp(`^${source}/?$`) };
});

/** The screen whose route matches a path (without query or hash), if any. */
export function screenAt(path: string): ScreenName | undefined {
  return patterns.find((p) => p.regex.test(path))?.screen;
}
