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
 * A staff portal screen's modules (src/app/portal-routes.ts): the table of the portal's imports, the screen's own
 * feature module (`src/features/<feature>.tsx`) and its group's machines (`src/app/machines/<machines>.ts`).
 */
const portalScreen = (feature: string, machines?: string): readonly string[] => [
  'src/app/portal-routes.ts',
  `src/features/${feature}.tsx`,
  ...(machines ? [`src/app/machines/${machines}.ts`] : []),
];

/**
 * The modules of each area's lazy component (src/app/routes.ts): its screens and the machines it registers (the staff
 * portal: each screen's own, after the table of its imports, src/app/portal-routes.ts).
 */
const AREAS = {
  account: ['src/features/account/screens.tsx', 'src/app/machines/account.ts'],
  visits: ['src/features/visits/screens.tsx', 'src/app/machines/visits.ts'],
  accreditations: ['src/features/accreditations/screens.tsx', 'src/app/machines/accreditations.ts'],
  accredit: ['src/features/accreditations/accredit.tsx', 'src/app/machines/accreditations.ts'],
  portalManagement: portalScreen('portal/management'),
  portalAccounts: portalScreen('portal/accounts', 'portal-accounts'),
  portalUsers: portalScreen('portal/users', 'portal-users'),
  portalUserDetail: portalScreen('portal/user-detail', 'portal-users'),
  administration: portalScreen('portal/administration', 'portal-users'),
  singleRegistration: portalScreen('portal/single-registration', 'registration'),
  delegatedFinishRegister: portalScreen('portal/delegated-finish-register', 'registration'),
  addUsersFromPhotos: portalScreen('portal/bulk-registration', 'registration'),
  auditAccesses: portalScreen('audit/audit-accesses', 'audit'),
  activateUsers: portalScreen('portal/activate-users', 'staff-actions'),
  checkInterdictions: portalScreen('audit/check-interdictions', 'watchlists'),
  assistantAccountCancellation: portalScreen('portal/assistant-account-cancellation', 'staff-actions'),
  uploadWatchlist: portalScreen('audit/upload-watchlist', 'watchlists'),
  uploadWatchlistResult: portalScreen('audit/upload-watchlist-result', 'watchlists'),
} satisfies Record<string, readonly string[]>;

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

/**
 * The catalogue's modules a painted page links for its language (src/i18n/catalogue.ts): the rest, which a
 * signed-in screen draws; the first screens' part travels in the page itself (server/shell.ts), but for a page that
 * does not carry it (`firstTexts`: one painted with the person's data).
 */
export const catalogueModules = (
  locale: string,
  { firstTexts = false }: { firstTexts?: boolean } = {},
): readonly string[] => [
  ...(firstTexts ? [`src/i18n/messages/${locale}.json?first`] : []),
  `src/i18n/messages/${locale}.json?rest`,
];
