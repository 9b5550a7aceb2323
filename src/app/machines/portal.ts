import { accountsListLogic } from '../../actors/accounts';
import {
  auditExportLogic,
  auditFacilitiesLogic,
  auditListLogic,
  staffActionsExportLogic,
  staffActionsListLogic,
} from '../../actors/audit';
import { bulkRegistrationLogic } from '../../actors/bulk';
import { formDraft } from '../../actors/form-draft';
import { interdictionCheckLogic } from '../../actors/interdictions';
import { singleRegistrationLogic } from '../../actors/singles';
import {
  activateUsersLogic,
  addLocationLogic,
  assistantAccountCancellationLogic,
} from '../../actors/staff-actions';
import {
  administrationLogic,
  completeOnboardingLogic,
  credentialChangeLogic,
  evidenceLogic,
  userDetailLogic,
  usersListLogic,
} from '../../actors/users';
import { watchlistUploadOf } from '../../actors/watchlists';
import type { MachineImplementations } from '../../runtime/machines';

/**
 * The machines of the staff portal's screens (users, accounts, registration, audit), and the calls they start
 * beside them, with their real effects.
 */
export const portalMachines = {
  'list.accounts': accountsListLogic,
  'list.users': usersListLogic,
  'list.audit': auditListLogic,
  auditExport: auditExportLogic,
  auditFacilities: auditFacilitiesLogic,
  'list.staffActions': staffActionsListLogic,
  staffActionsExport: staffActionsExportLogic,
  completeOnboarding: completeOnboardingLogic,
  userDetail: userDetailLogic,
  userEvidence: evidenceLogic,
  credentialChange: credentialChangeLogic,
  addLocation: addLocationLogic,
  interdictionCheck: interdictionCheckLogic,
  singleRegistration: singleRegistrationLogic,
  bulkRegistration: bulkRegistrationLogic,
  activateUsers: activateUsersLogic,
  formDraft: () => formDraft,
  assistantAccountCancellation: assistantAccountCancellationLogic,
  administration: administrationLogic,
  watchlistUpload: watchlistUploadOf,
} satisfies Partial<MachineImplementations>;
