import { deviceHandoffLogic, phoneHandoffLogic } from '../../actors/device-handoff';
import type { MachineImplementations } from '../../runtime/machines';

/** DeviceDetect's hand-off machines (computer and phone) with their real calls. */
export const deviceHandoffMachines = {
  deviceHandoff: deviceHandoffLogic,
  phoneHandoff: phoneHandoffLogic,
} satisfies Partial<MachineImplementations>;
