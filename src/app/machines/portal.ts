import type { MachineImplementations } from '../../runtime/machines';
import { auditMachines } from './audit';
import { portalAccountsMachines } from './portal-accounts';
import { portalUsersMachines } from './portal-users';
import { registrationMachines } from './registration';
import { staffActionMachines } from './staff-actions';
import { watchlistMachines } from './watchlists';

/**
 * Every machine of the staff portal's screens (users, accounts, registration, audit), for tests that render several
 * of them. The app loads each group with its own screens (src/app/routes.ts).
 */
export const portalMachines = {
  ...portalUsersMachines,
  ...portalAccountsMachines,
  ...auditMachines,
  ...watchlistMachines,
  ...registrationMachines,
  ...staffActionMachines,
} satisfies Partial<MachineImplementations>;
