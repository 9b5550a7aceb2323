import {
  auditExportLogic,
  auditFacilitiesLogic,
  auditListLogic,
  staffActionsExportLogic,
  staffActionsListLogic,
} from '../../actors/audit';
import type { MachineImplementations } from '../../runtime/machines';

/** The machines of AuditAccesses (its accesses and its staff actions tab), with their real effects. */
export const auditMachines = {
  'list.audit': auditListLogic,
  auditExport: auditExportLogic,
  auditFacilities: auditFacilitiesLogic,
  'list.staffActions': staffActionsListLogic,
  staffActionsExport: staffActionsExportLogic,
} satisfies Partial<MachineImplementations>;
