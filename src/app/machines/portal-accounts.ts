import { accountsListLogic } from '../../actors/accounts';
import { completeOnboardingLogic } from '../../actors/users';
import type { MachineImplementations } from '../../runtime/machines';

/** The machines of PortalAccounts, with their real effects. */
export const portalAccountsMachines = {
  'list.accounts': accountsListLogic,
  completeOnboarding: completeOnboardingLogic,
} satisfies Partial<MachineImplementations>;
