// The machines of the signed-in screens as the server's first paint needs them (src/app/shell.tsx): the pure
// machines of machines/, without the calls src/actors provides. The server renders each screen once, never starts
// an actor, so every screen draws its machine's first state, the one the app's first render draws before its calls
// go out (the actor starts in an effect, after that render). Server-side only, like shell.tsx.
import { createActor, fromPromise } from 'xstate';
import { emptyNewVisitForm } from '../../contract/domain/visits';
import { accountDeletionMachine } from '../../machines/account-deletion.machine';
import { accountProfileMachine } from '../../machines/account-profile.machine';
import { accreditationMachine } from '../../machines/accreditation.machine';
import { accreditationRequestMachine } from '../../machines/accreditation-request.machine';
import { activateUsersMachine } from '../../machines/activate-users.machine';
import { administrationMachine } from '../../machines/administration.machine';
import { assistantAccountCancellationMachine } from '../../machines/assistant-account-cancellation.machine';
import { auditExportMachine } from '../../machines/audit-export.machine';
import { bulkRegistrationMachine } from '../../machines/bulk-registration.machine';
import { credentialResetMachine } from '../../machines/credential-reset.machine';
import { interdictionCheckMachine } from '../../machines/interdiction-check.machine';
import { listMachine } from '../../machines/list.machine';
import { singleRegistrationMachine } from '../../machines/single-registration.machine';
import { visitMachine } from '../../machines/visit.machine';
import { visitConfirmationMachine } from '../../machines/visit-confirmation.machine';
import { visitFacilitiesMachine } from '../../machines/visit-facilities.machine';
import { visitRequestMachine } from '../../machines/visit-request.machine';
import { watchlistUploadMachine } from '../../machines/watchlist-upload.machine';
import type { MachineId, MachineImplementations } from '../runtime/machines';

// A one-shot call the paint never makes: its screen draws it pending, as the app does before the answer.
function pending<K extends MachineId>(): MachineImplementations[K] {
  return (() => fromPromise(() => new Promise<never>(() => {}))) as unknown as MachineImplementations[K];
}

/** Every machine the painted screens start, unprovided; drafts are empty (the server holds none). */
export const shellMachines = {
  accountDeletion: () => accountDeletionMachine,
  accountProfile: () => accountProfileMachine,
  accreditation: () => accreditationMachine,
  accreditationRequest: () => accreditationRequestMachine,
  activateUsers: () => activateUsersMachine,
  addLocation: pending<'addLocation'>(),
  administration: () => administrationMachine,
  assistantAccountCancellation: () => assistantAccountCancellationMachine,
  auditExport: () => auditExportMachine,
  staffActionsExport: () => auditExportMachine,
  auditFacilities: pending<'auditFacilities'>(),
  bulkRegistration: () => bulkRegistrationMachine,
  completeOnboarding: pending<'completeOnboarding'>(),
  credentialChange: pending<'credentialChange'>(),
  credentialReset: () => credentialResetMachine,
  formDraft: () => ({ load: () => null, save: () => undefined, clear: () => undefined }),
  interdictionCheck: () => interdictionCheckMachine,
  'list.accounts': () => listMachine,
  'list.accreditations': () => listMachine,
  'list.audit': () => listMachine,
  'list.staffActions': () => listMachine,
  'list.users': () => listMachine,
  'list.visits': () => listMachine,
  singleRegistration: () => singleRegistrationMachine,
  userDetail: pending<'userDetail'>(),
  userEvidence: pending<'userEvidence'>(),
  visit: () => visitMachine,
  visitArrival: pending<'visitArrival'>(),
  visitQr: pending<'visitQr'>(),
  visitConfirmation: () => visitConfirmationMachine,
  visitDraft: () => ({ load: emptyNewVisitForm, save: () => undefined, clear: () => undefined }),
  visitFacilities: () => visitFacilitiesMachine,
  visitRequest: () => visitRequestMachine,
  watchlistUpload: () => createActor(watchlistUploadMachine),
} satisfies Partial<MachineImplementations>;
