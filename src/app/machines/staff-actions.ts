import { formDraft } from '../../actors/form-draft';
import { activateUsersLogic, assistantAccountCancellationLogic } from '../../actors/staff-actions';
import type { MachineImplementations } from '../../runtime/machines';

/** The machines of ActivateUsers and AssistantAccountCancellation, with their real effects. */
export const staffActionMachines = {
  activateUsers: activateUsersLogic,
  assistantAccountCancellation: assistantAccountCancellationLogic,
  formDraft: () => formDraft,
} satisfies Partial<MachineImplementations>;
