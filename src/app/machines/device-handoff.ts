import { deviceHandoffLogic, phoneHandoffLogic } from '../../actors/device-handoff';
import { formDraft } from '../../actors/form-draft';
import type { MachineImplementations } from '../../runtime/machines';

/** DeviceDetect's hand-off machines (computer and phone) with their real calls, and the phone's typed code's draft. */
export const deviceHandoffMachines = {
  deviceHandoff: deviceHandoffLogic,
  phoneHandoff: phoneHandoffLogic,
  formDraft: () => formDraft,
} satisfies Partial<MachineImplementations>;
