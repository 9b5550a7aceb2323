import { listMachine } from '../../../machines/list.machine';
import {
  accreditationLogic,
  accreditationRequestLogic,
  fetchAccreditations,
} from '../../actors/accreditations';
import type { MachineImplementations } from '../../runtime/machines';

/** The machines of the accreditation screens with their real calls. */
export const accreditationMachines = {
  accreditation: accreditationLogic,
  accreditationRequest: accreditationRequestLogic,
  'list.accreditations': (runtime, accountId) =>
    listMachine.provide({ actors: { fetchPage: fetchAccreditations(runtime, accountId) } }),
} satisfies Partial<MachineImplementations>;
