import { accreditationLogic, accreditationRequestLogic } from '../../actors/accreditations';
import type { MachineImplementations } from '../../runtime/machines';

/** The machines of the accreditation screens with their real calls. */
export const accreditationMachines = {
  accreditation: accreditationLogic,
  accreditationRequest: accreditationRequestLogic,
} satisfies Partial<MachineImplementations>;
