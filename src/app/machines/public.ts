import { credentialResetLogic } from '../../actors/account';
import type { MachineImplementations } from '../../runtime/machines';

/** ResetCredentials' machine with its real calls. */
export const publicMachines = {
  credentialReset: credentialResetLogic,
} satisfies Partial<MachineImplementations>;
