// The staff portal's screens, a chunk each, loaded with the machines of their group (src/app/machines/): a screen
// loads its own code, not the whole portal's. This table is a chunk of its own (src/app/routes.ts loads it with the
// first portal screen): each import here carries the list of files it preloads, which in the entry would weigh on
// Welcome and Landing.
import type { ScreenName } from '../domain/screens';
import { withMachines } from './with-machines';

const portalUsersMachines = () => import('./machines/portal-users').then((m) => m.portalUsersMachines);
const auditMachines = () => import('./machines/audit').then((m) => m.auditMachines);
const watchlistMachines = () => import('./machines/watchlists').then((m) => m.watchlistMachines);
const registrationMachines = () => import('./machines/registration').then((m) => m.registrationMachines);
const staffActionMachines = () => import('./machines/staff-actions').then((m) => m.staffActionMachines);
export const portalScreens = {
  PortalManagement: () => import('../features/portal/management'),
  PortalAccounts: withMachines(
    () => import('../features/portal/accounts'),
    () => import('./machines/portal-accounts').then((m) => m.portalAccountsMachines),
  ),
  PortalUsers: withMachines(() => import('../features/portal/users'), portalUsersMachines),
  PortalUserDetail: withMachines(() => import('../features/portal/user-detail'), portalUsersMachines),
  Administration: withMachines(() => import('../features/portal/administration'), portalUsersMachines),
  SingleRegistration: withMachines(
    () => import('../features/portal/single-registration'),
    registrationMachines,
  ),
  DelegatedFinishRegister: withMachines(
    () => import('../features/portal/delegated-finish-register'),
    registrationMachines,
  ),
  AddUsersFromPhotos: withMachines(
    () => import('../features/portal/bulk-registration'),
    registrationMachines,
  ),
  AuditAccesses: withMachines(() => import('../features/audit/audit-accesses'), auditMachines),
  ActivateUsers: withMachines(() => import('../features/portal/activate-users'), staffActionMachines),
  CheckInterdictions: withMachines(() => import('../features/audit/check-interdictions'), watchlistMachines),
  AssistantAccountCancellation: withMachines(
    () => import('../features/portal/assistant-account-cancellation'),
    staffActionMachines,
  ),
  UploadWatchlist: withMachines(() => import('../features/audit/upload-watchlist'), watchlistMachines),
  UploadWatchlistResult: withMachines(
    () => import('../features/audit/upload-watchlist-result'),
    watchlistMachines,
  ),
} satisfies Partial<Record<ScreenName, () => Promise<unknown>>>;

export type PortalScreens = typeof portalScreens;
export type PortalScreen = keyof PortalScreens;
