import { bulkRegistrationLogic } from '../../actors/bulk';
import { formDraft } from '../../actors/form-draft';
import { singleRegistrationLogic } from '../../actors/singles';
import type { MachineImplementations } from '../../runtime/machines';

/** The machines of SingleRegistration, DelegatedFinishRegister and AddUsersFromPhotos, with their real effects. */
export const registrationMachines = {
  singleRegistration: singleRegistrationLogic,
  bulkRegistration: bulkRegistrationLogic,
  formDraft: () => formDraft,
} satisfies Partial<MachineImplementations>;
