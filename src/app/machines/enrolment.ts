import { enrolmentRuntimeOf } from '../../actors/enrolment';
import type { MachineImplementations } from '../../runtime/machines';

/** The enrolment flow's handle with its real effects, shared by every screen of the flow. */
export const enrolmentMachines = {
  enrolment: enrolmentRuntimeOf,
} satisfies Partial<MachineImplementations>;
