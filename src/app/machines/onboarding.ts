import { usersListLogic } from '../../actors/users';
import type { MachineImplementations } from '../../runtime/machines';

/** Landing's picker of existing users (assistants of a tenant with AssistedExistingUsers) with its real calls. */
export const onboardingMachines = {
  'list.users': usersListLogic,
} satisfies Partial<MachineImplementations>;
