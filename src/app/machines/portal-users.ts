import { addLocationLogic } from '../../actors/staff-actions';
import {
  administrationLogic,
  credentialChangeLogic,
  evidenceLogic,
  userDetailLogic,
  usersListLogic,
} from '../../actors/users';
import type { MachineImplementations } from '../../runtime/machines';

/** The machines of PortalUsers, PortalUserDetail and Administration, with their real effects. */
export const portalUsersMachines = {
  'list.users': usersListLogic,
  userDetail: userDetailLogic,
  userEvidence: evidenceLogic,
  credentialChange: credentialChangeLogic,
  addLocation: addLocationLogic,
  administration: administrationLogic,
} satisfies Partial<MachineImplementations>;
