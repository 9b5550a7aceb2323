// Every screen of the staff portal, for the server's first paint (src/app/shell.tsx). The app loads each one apart,
// with the machines it starts (src/app/routes.ts).
export { AuditAccesses } from '../audit/audit-accesses';
export { CheckInterdictions } from '../audit/check-interdictions';
export { UploadWatchlist } from '../audit/upload-watchlist';
export { UploadWatchlistResult } from '../audit/upload-watchlist-result';
export { PortalAccounts } from './accounts';
export { ActivateUsers } from './activate-users';
export { Administration } from './administration';
export { AssistantAccountCancellation } from './assistant-account-cancellation';
export { AddUsersFromPhotos } from './bulk-registration';
export { DelegatedFinishRegister } from './delegated-finish-register';
export { PortalManagement } from './management';
export { SingleRegistration } from './single-registration';
export { PortalUserDetail } from './user-detail';
export { PortalUsers } from './users';
