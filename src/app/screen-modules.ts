// What a signed-in screen loads before it can draw and make its first call, by module path from the project's root
// as the build's manifest names them (dist/.vite/manifest.json). The server links their files from the page it
// paints for the screen's address (server/screen-preloads.ts), so that the browser downloads them beside the entry
// script instead of one after another once the entry has run (the screen's chunk, then the first calls' modules,
// then the API client). It mirrors two tables of code: src/app/routes.ts (the area each screen's lazy component
// loads, its machines included) and src/actors/preload.ts (the modules of a screen's first calls). The journeys of
// tests/e2e/screen-preloads.spec.ts hold them together: a screen asks for nothing before its first call that its page
// did not link, and for everything its page linked. Welcome and Landing are not here: their code is in the entry's
// own files, within the first screens' budget.
import type { ScreenName } from '../domain/screens';

/**
 * The modules of each area's lazy component (src/app/routes.ts): its screens and the machines it registers (the staff
 * portal: each screen's own, after the table of its imports, src/app/portal-routes.ts).
 */
const AREAS = {
  account: ['src/features/account/screens.tsx', 'src/app/machines/account.ts'],
  visits: ['src/features/visits/screens.tsx', 'src/app/machines/visits.ts'],
  accreditations: ['src/features/accreditations/screens.tsx', 'src/app/machines/accreditations.ts'],
  accredit: ['src/features/accreditations/accredit.tsx', 'src/app/machines/accreditations.ts'],
  portalManagement: ['src/app/portal-routes.ts', 'src/features/portal/management.tsx'],
  portalAccounts: [
    'src/app/portal-routes.ts',
    'src/features/portal/accounts.tsx',
    'src/app/machines/portal-accounts.ts',
  ],
  portalUsers: [
    'src/app/portal-routes.ts',
    'src/features/portal/users.tsx',
    'src/app/machines/portal-users.ts',
  ],
  portalUserDetail: [
    'src/app/portal-routes.ts',
    'src/features/portal/user-detail.tsx',
    'src/app/machines/portal-users.ts',
  ],
  administration: [
    'src/app/portal-routes.ts',
    'src/features/portal/administration.tsx',
    'src/app/machines/portal-users.ts',
  ],
  singleRegistration: [
    'src/app/portal-routes.ts',
    'src/features/portal/single-registration.tsx',
    'src/app/machines/registration.ts',
  ],
  delegatedFinishRegister: [
    'src/app/portal-routes.ts',
    'src/features/portal/delegated-finish-register.tsx',
    'src/app/machines/registration.ts',
  ],
  addUsersFromPhotos: [
    'src/app/portal-routes.ts',
    'src/features/portal/bulk-registration.tsx',
    'src/app/machines/registration.ts',
  ],
  auditAccesses: [
    'src/app/portal-routes.ts',
    'src/features/audit/audit-accesses.tsx',
    'src/app/machines/audit.ts',
  ],
  activateUsers: [
    'src/app/portal-routes.ts',
    'src/features/portal/activate-users.tsx',
    'src/app/machines/staff-actions.ts',
  ],
  checkInterdictions: [
    'src/app/portal-routes.ts',
    'src/features/audit/check-interdictions.tsx',
    'src/app/machines/watchlists.ts',
  ],
  assistantAccountCancellation: [
    'src/app/portal-routes.ts',
    'src/features/portal/assistant-account-cancellation.tsx',
    'src/app/machines/staff-actions.ts',
  ],
  uploadWatchlist: [
    'src/app/portal-routes.ts',
    'src/features/audit/upload-watchlist.tsx',
    'src/app/machines/watchlists.ts',
  ],
  uploadWatchlistResult: [
    'src/app/portal-routes.ts',
    'src/features/audit/upload-watchlist-result.tsx',
    'src/app/machines/watchlists.ts',
  ],
} as const satisfies Record<string, readonly string[]>;

/**
 * The area of the screens the server paints for someone signed in (src/app/shell.tsx SHELL_SCREENS), but for the
 * enrolment's steps: the app resumes an enrolment at the step it has kept, which need not be the address opened.
 */
const AREA_OF: Partial<Record<ScreenName, keyof typeof AREAS>> = {
  UserHome: 'accreditations',
  MyAccreditations: 'accreditations',
  AccreditationDetail: 'accreditations',
  AccreditFace: 'accredit',
  UserProfile: 'account',
  DeleteAccount: 'account',
  ProcessVisit: 'visits',
  VisitList: 'visits',
  MyVisits: 'visits',
  NewVisit: 'visits',
  VisitDetail: 'visits',
  PortalManagement: 'portalManagement',
  PortalAccounts: 'portalAccounts',
  PortalUsers: 'portalUsers',
  PortalUserDetail: 'portalUserDetail',
  Administration: 'administration',
  SingleRegistration: 'singleRegistration',
  DelegatedFinishRegister: 'delegatedFinishRegister',
  AddUsersFromPhotos: 'addUsersFromPhotos',
  AuditAccesses: 'auditAccesses',
  ActivateUsers: 'activateUsers',
  CheckInterdictions: 'checkInterdictions',
  AssistantAccountCancellation: 'assistantAccountCancellation',
  UploadWatchlist: 'uploadWatchlist',
  UploadWatchlistResult: 'uploadWatchlistResult',
};

/**
 * The actor module of each screen that makes calls as it opens: its first calls leave from the preload
 * (src/actors/preload.ts FIRST_CALLS). The modules of its calls are the ones the actor module imports lazily
 * (src/api/*, its lazyCalls): the manifest names them, and the app downloads them all with its first call (src/api/lazy.ts
 * loadCallModules).
 */
const CALLS_AT_START: Partial<Record<ScreenName, string>> = {
  UserHome: 'src/actors/accreditations.ts',
  MyAccreditations: 'src/actors/accreditations.ts',
  UserProfile: 'src/actors/account.ts',
  MyVisits: 'src/actors/visits.ts',
  VisitList: 'src/actors/visits.ts',
  NewVisit: 'src/actors/visits.ts',
  PortalUsers: 'src/actors/users.ts',
  PortalAccounts: 'src/actors/accounts.ts',
  AuditAccesses: 'src/actors/audit.ts',
};

/**
 * The modules `screen` loads at start, in the order they are needed: the preload of first calls (src/app/main.tsx
 * asks for it on every signed-in screen), the screen's actor module and the API client when it makes calls as it opens,
 * then the screen's area; and among them, the modules whose calls' modules come too (`withCalls`: that actor module).
 * Nothing for a screen that is not here.
 */
export function screenModules(screen: ScreenName): {
  modules: readonly string[];
  withCalls: readonly string[];
} {
  const area = AREA_OF[screen];
  if (!area) return { modules: [], withCalls: [] };
  const actor = CALLS_AT_START[screen];
  return {
    modules: ['src/actors/preload.ts', ...(actor ? [actor, 'src/api/client.ts'] : []), ...AREAS[area]],
    withCalls: actor ? [actor] : [],
  };
}

/** The catalogue's modules for a language (src/i18n/catalogue.ts): the first screens' part and the rest. */
export const catalogueModules = (locale: string): readonly string[] => [
  `src/i18n/messages/${locale}.json?first`,
  `src/i18n/messages/${locale}.json?rest`,
];
