import { accountsListLogic } from '../../actors/accounts';
import { auditExportLogic, auditListLogic } from '../../actors/audit';
import { bulkRegistrationLogic } from '../../actors/bulk';
import { interdictionCheckLogic } from '../../actors/interdictions';
import { singleRegistrationLogic } from '../../actors/singles';
import { activateUsersLogic, assistantAccountCancellationLogic } from '../../actors/staff-actions';
import { administrationLogic, usersListLogic } from '../../actors/users';
import type { MachineImplementations } from '../../runtime/machines';

/** The machines of the staff portal's screens (users, accounts, registration, audit) with their real calls. */
export const portalMachines = {
  'list.accounts': accountsListLogic,
  'list.users': usersListLogic,
  'list.audit': auditListLogic,
  auditExport: auditExportLogic,
  interdictionCheck: interdictionCheckLogic,
  singleRegistration: singleRegistrationLogic,
  bulkRegistration: bulkRegistrationLogic,
  activateUsers: activateUsersLogic,
  assistantAccountCancellation: assistantAccountCancellationLogic,
  administration: administrationLogic,
} satisfies Partial<MachineImplementations>;
