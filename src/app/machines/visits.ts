import {
  arrivalLogic,
  facilitiesLogic,
  newVisitDraft,
  visitConfirmationLogic,
  visitListLogic,
  visitLogic,
  visitQrLogic,
  visitRequestLogic,
} from '../../actors/visits';
import type { MachineImplementations } from '../../runtime/machines';

/** The machines of the visit screens, and the calls they start beside them, with their real effects. */
export const visitMachines = {
  visit: visitLogic,
  visitQr: visitQrLogic,
  visitArrival: arrivalLogic,
  visitFacilities: facilitiesLogic,
  visitDraft: () => newVisitDraft,
  visitConfirmation: visitConfirmationLogic,
  visitRequest: (runtime, onSent) => visitRequestLogic(runtime, { onSent }),
  'list.visits': (runtime, timeZone) => visitListLogic(runtime, timeZone),
} satisfies Partial<MachineImplementations>;
