import { visitConfirmationLogic, visitListLogic, visitLogic, visitRequestLogic } from '../../actors/visits';
import type { MachineImplementations } from '../../runtime/machines';

/** The machines of the visit screens with their real calls. */
export const visitMachines = {
  visit: visitLogic,
  visitConfirmation: visitConfirmationLogic,
  visitRequest: (runtime, onSent) => visitRequestLogic(runtime, { onSent }),
  'list.visits': (runtime, timeZone) => visitListLogic(runtime, timeZone),
} satisfies Partial<MachineImplementations>;
