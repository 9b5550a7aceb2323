import { accountDeletionLogic, accountProfileLogic } from '../../actors/account';
import type { MachineImplementations } from '../../runtime/machines';

/** The machines of UserProfile and DeleteAccount with their real calls. */
export const accountMachines = {
  accountProfile: accountProfileLogic,
  accountDeletion: accountDeletionLogic,
} satisfies Partial<MachineImplementations>;
