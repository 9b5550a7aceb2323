import { useState } from 'react';
import type { accountDeletionMachine } from '../../machines/account-deletion.machine';
import type { accountProfileMachine } from '../../machines/account-profile.machine';
import type { accreditationMachine } from '../../machines/accreditation.machine';
import type { accreditationRequestMachine } from '../../machines/accreditation-request.machine';
import type { activateUsersMachine } from '../../machines/activate-users.machine';
import type { administrationMachine } from '../../machines/administration.machine';
import type { assistantAccountCancellationMachine } from '../../machines/assistant-account-cancellation.machine';
import type { auditExportMachine } from '../../machines/audit-export.machine';
import type { bulkRegistrationMachine } from '../../machines/bulk-registration.machine';
import type { credentialResetMachine } from '../../machines/credential-reset.machine';
import type { deviceHandoffMachine } from '../../machines/device-handoff.machine';
import type { interdictionCheckMachine } from '../../machines/interdiction-check.machine';
import type { listMachine } from '../../machines/list.machine';
import type { phoneHandoffMachine } from '../../machines/phone-handoff.machine';
import type { singleRegistrationMachine } from '../../machines/single-registration.machine';
import type { visitMachine } from '../../machines/visit.machine';
import type { visitConfirmationMachine } from '../../machines/visit-confirmation.machine';
import type { visitRequestMachine } from '../../machines/visit-request.machine';
import { type Runtime, useRuntime } from './context';

// Page screens start their own machine (ARCHITECTURE.md, "Two kinds of screen"), but never build its real
// implementation: src/app registers, per area, the machines with their actors provided, and a screen asks for
// one by machine id. This module sits below the features, so it names machines only by their pure type.

/** Where the audit export reports the bytes and rows it has read (src/actors/audit.ts ExportProgressStore). */
export interface ExportProgressSink {
  report(read: { bytes: number; lines: number }, force?: boolean): void;
}

/** The enrolment a redeemed code goes on with (src/actors/device-handoff.ts). */
export interface OnboardingContinuation {
  send(event: { type: 'onboarding.continue'; onboardingId: string }): void;
}

/** Every machine a screen starts, by machine id: the runtime and what the screen knows give its real logic. */
export interface MachineImplementations {
  accountDeletion: (runtime: Runtime) => typeof accountDeletionMachine;
  accountProfile: (runtime: Runtime) => typeof accountProfileMachine;
  accreditation: (runtime: Runtime) => typeof accreditationMachine;
  /** `subject`: the account the accreditation is asked for. */
  accreditationRequest: (runtime: Runtime, subject: string) => typeof accreditationRequestMachine;
  activateUsers: (runtime: Runtime) => typeof activateUsersMachine;
  administration: (runtime: Runtime) => typeof administrationMachine;
  assistantAccountCancellation: (runtime: Runtime) => typeof assistantAccountCancellationMachine;
  auditExport: (runtime: Runtime, progress: ExportProgressSink) => typeof auditExportMachine;
  bulkRegistration: (runtime: Runtime) => typeof bulkRegistrationMachine;
  credentialReset: (runtime: Runtime) => typeof credentialResetMachine;
  deviceHandoff: (runtime: Runtime) => typeof deviceHandoffMachine;
  interdictionCheck: (runtime: Runtime) => typeof interdictionCheckMachine;
  // The list machine pages through several lists: one entry per list, `list.<what it lists>`.
  'list.accounts': (runtime: Runtime) => typeof listMachine;
  /** `now`: where the default range ends (the first page and the first export share it). */
  'list.audit': (runtime: Runtime, timeZone: string, now: () => Date) => typeof listMachine;
  'list.users': (runtime: Runtime) => typeof listMachine;
  'list.visits': (runtime: Runtime, timeZone: string) => typeof listMachine;
  phoneHandoff: (
    runtime: Runtime,
    enrolment: () => OnboardingContinuation | undefined,
  ) => typeof phoneHandoffMachine;
  singleRegistration: (runtime: Runtime) => typeof singleRegistrationMachine;
  visit: (runtime: Runtime) => typeof visitMachine;
  visitConfirmation: (runtime: Runtime) => typeof visitConfirmationMachine;
  /** `onSent`: the request became a visit (NewVisit forgets its draft). */
  visitRequest: (runtime: Runtime, onSent: () => void) => typeof visitRequestMachine;
}

export type MachineId = keyof MachineImplementations;
type Rest<F> = F extends (runtime: Runtime, ...rest: infer R) => unknown ? R : never;

const registry: Partial<MachineImplementations> = {};

/** src/app calls it as an area's screens load, with the implementations of the machines they start. */
export function registerMachines(implementations: Partial<MachineImplementations>): void {
  Object.assign(registry, implementations);
}

/** The real logic of machine `id`, built once for the screen that starts it. */
export function useScreenMachine<K extends MachineId>(
  id: K,
  ...rest: Rest<MachineImplementations[K]>
): ReturnType<MachineImplementations[K]> {
  const runtime = useRuntime();
  const [logic] = useState(() => {
    const implement = registry[id] as
      | ((runtime: Runtime, ...rest: unknown[]) => ReturnType<MachineImplementations[K]>)
      | undefined;
    if (!implement)
      throw new Error(`No implementation of the ${id} machine is registered (src/app/machines)`);
    return implement(runtime, ...rest);
  });
  return logic;
}
