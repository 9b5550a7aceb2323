import { accountDeletionLogic, accountProfileLogic } from '../../actors/account';
import { formDraft } from '../../actors/form-draft';
import type { MachineImplementations } from '../../runtime/machines';

/** The machines of UserProfile and DeleteAccount with their real calls, and DeleteAccount's draft. */
export const accountMachines = {
  accountProfile: accountProfileLogic,
  accountDeletion: accountDeletionLogic,
  formDraft: () => formDraft,
} satisfies Partial<MachineImplementations>;
