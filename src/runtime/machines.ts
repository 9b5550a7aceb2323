import { use, useState } from 'react';
import type { Actor, PromiseActorLogic } from 'xstate';
import type { CredentialState } from '../../contract/api/credentials';
import type { Facility } from '../../contract/api/facilities';
import type { EvidenceKind, UserDetail } from '../../contract/api/users';
import type { VisitArrival } from '../../contract/api/visits';
import type { NewVisitForm } from '../../contract/domain/visits';
import type { accountDeletionMachine } from '../../machines/account-deletion.machine';
import type { accountProfileMachine } from '../../machines/account-profile.machine';
import type { accreditationMachine } from '../../machines/accreditation.machine';
import type { accreditationRequestMachine } from '../../machines/accreditation-request.machine';
import type { activateUsersMachine } from '../../machines/activate-users.machine';
import type { administrationMachine } from '../../machines/administration.machine';
import type { assistantAccountCancellationMachine } from '../../machines/assistant-account-cancellation.machine';
import type { auditExportMachine } from '../../machines/audit-export.machine';
import type { bulkRegistrationMachine } from '../../machines/bulk-registration.machine';
import type { captureMachine } from '../../machines/capture.machine';
import type { credentialResetMachine } from '../../machines/credential-reset.machine';
import type { deviceHandoffMachine } from '../../machines/device-handoff.machine';
import type { interdictionCheckMachine } from '../../machines/interdiction-check.machine';
import type { listMachine } from '../../machines/list.machine';
import type { phoneHandoffMachine } from '../../machines/phone-handoff.machine';
import type { singleRegistrationMachine } from '../../machines/single-registration.machine';
import type { visitMachine } from '../../machines/visit.machine';
import type { visitConfirmationMachine } from '../../machines/visit-confirmation.machine';
import type { visitFacilitiesMachine } from '../../machines/visit-facilities.machine';
import type { visitRequestMachine } from '../../machines/visit-request.machine';
import type { watchlistUploadMachine } from '../../machines/watchlist-upload.machine';
import { type Runtime, useRuntime } from './context';
import type { EnrolmentRuntime } from './enrolment';

// Page screens start their own machine (ARCHITECTURE.md, "Two kinds of screen"), but never build its real
// implementation: src/app registers, per area, the machines with their actors provided, and a screen asks for
// one by machine id. This module sits below the features, so it names machines only by their pure type.

/** Where the audit export reports the bytes and rows it has read (src/runtime/export-progress.ts). */
export interface ExportProgressSink {
  report(read: { bytes: number; lines: number }, force?: boolean): void;
}

/** The enrolment a redeemed code goes on with (src/actors/device-handoff.ts). */
export interface OnboardingContinuation {
  send(event: { type: 'onboarding.continue'; onboardingId: string }): void;
}

/** PortalUserDetail's person: the user, their credentials and locations, and the tenant's facilities to name them. */
export interface UserWithCredentials {
  user: UserDetail;
  credentials: {
    sid: string;
    credential_type: string;
    state: string;
    ends_at: string | null;
    valid: boolean;
  }[];
  activated: boolean;
  /** The facility ids added to the credentials (spec §3 locations), and the tenant's facilities to name them. */
  locations: string[];
  facilities: { facility_id: string; alias: string }[];
}

/** Activate or deactivate the user; revoke, or extend (set active again) a credential. */
export type CredentialChange =
  | { kind: 'user'; active: boolean }
  | { kind: 'credential'; sid: string; state: CredentialState };

/** Reception's lookup of a read code: today's visit, or why there is none (refusals are outcomes, not errors). */
export type ArrivalOutcome =
  | { kind: 'found'; arrival: VisitArrival }
  | { kind: 'refused'; code: 'no_visit_today' | 'credential_not_valid' }
  /** Any other failure; when the server answered with a code: that code and its own text (detail, else title). */
  | { kind: 'refused'; code: 'unknown'; problem?: { code: string; text: string } };

/** NewVisit's typed values, kept per tenant and person for the tab's life (a reload keeps them). */
export interface NewVisitDraftStore {
  load(tenant: string, userId: string): NewVisitForm;
  save(tenant: string, userId: string, form: NewVisitForm): void;
  clear(tenant: string, userId: string): void;
}

/**
 * A staff form's typed values, kept per form, tenant and person for the tab's life: a reload, or a sign-out and
 * signing in again, gives them back; sending them for good forgets them.
 */
export interface FormDraftStore {
  load(form: string, tenant: string, userId: string): Record<string, string> | null;
  save(form: string, tenant: string, userId: string, values: Record<string, string>): void;
  clear(form: string, tenant: string, userId: string): void;
}

/**
 * Every machine a screen starts, by machine id: the runtime and what the screen knows give its real logic. The
 * one-shot calls a page starts beside its machine (a promise actor: the screen reads its status and output) and
 * NewVisit's draft store are here too, so no feature imports src/actors.
 */
export interface MachineImplementations {
  accountDeletion: (runtime: Runtime) => typeof accountDeletionMachine;
  accountProfile: (runtime: Runtime) => typeof accountProfileMachine;
  accreditation: (runtime: Runtime) => typeof accreditationMachine;
  /** `subject`: the account the accreditation is asked for. */
  accreditationRequest: (runtime: Runtime, subject: string) => typeof accreditationRequestMachine;
  activateUsers: (runtime: Runtime) => typeof activateUsersMachine;
  /** Adds a facility to the user's credentials; gives the credentials' locations after it. */
  addLocation: (runtime: Runtime) => PromiseActorLogic<string[], { id: string; location: string }>;
  administration: (runtime: Runtime) => typeof administrationMachine;
  assistantAccountCancellation: (runtime: Runtime) => typeof assistantAccountCancellationMachine;
  auditExport: (runtime: Runtime, progress: ExportProgressSink) => typeof auditExportMachine;
  /** The Staff actions tab's csv export, on the access audit's export machine. */
  staffActionsExport: (runtime: Runtime, progress: ExportProgressSink) => typeof auditExportMachine;
  /** The facilities of the audit's filter: every one of the tenant, or only the caller's own (`mine`). */
  auditFacilities: (runtime: Runtime, mine: boolean) => PromiseActorLogic<Facility[]>;
  bulkRegistration: (runtime: Runtime) => typeof bulkRegistrationMachine;
  /** The camera, the frame scorer and the photo checks of this browser; `shownVideo`: the view's video element. */
  capture: (runtime: Runtime, shownVideo: () => HTMLVideoElement | null) => typeof captureMachine;
  /** PortalAccounts: completes an account's onboarding. */
  completeOnboarding: (runtime: Runtime) => PromiseActorLogic<void, { accountId: string }>;
  credentialChange: (runtime: Runtime) => PromiseActorLogic<void, { id: string; change: CredentialChange }>;
  credentialReset: (runtime: Runtime) => typeof credentialResetMachine;
  deviceHandoff: (runtime: Runtime) => typeof deviceHandoffMachine;
  /** The enrolment flow: one handle per runtime, its actor the signed-in person's enrolment. */
  enrolment: (runtime: Runtime) => EnrolmentRuntime;
  formDraft: (runtime: Runtime) => FormDraftStore;
  interdictionCheck: (runtime: Runtime) => typeof interdictionCheckMachine;
  // The list machine pages through several lists: one entry per list, `list.<what it lists>`.
  'list.accounts': (runtime: Runtime) => typeof listMachine;
  /** MyAccreditations: `accountId`'s credentials, one page that holds them all. */
  'list.accreditations': (runtime: Runtime, accountId: string) => typeof listMachine;
  /** `now`: where the default range ends (the first page and the first export share it). */
  'list.audit': (runtime: Runtime, timeZone: string, now: () => Date) => typeof listMachine;
  /** AuditAccesses' Staff actions tab; days of its filter in the tenant's `timeZone`. */
  'list.staffActions': (runtime: Runtime, timeZone: string) => typeof listMachine;
  'list.users': (runtime: Runtime) => typeof listMachine;
  'list.visits': (runtime: Runtime, timeZone: string) => typeof listMachine;
  phoneHandoff: (
    runtime: Runtime,
    enrolment: () => OnboardingContinuation | undefined,
  ) => typeof phoneHandoffMachine;
  singleRegistration: (runtime: Runtime) => typeof singleRegistrationMachine;
  /** PortalUserDetail's person, loaded again after each change. */
  userDetail: (runtime: Runtime) => PromiseActorLogic<UserWithCredentials, { id: string }>;
  /** One evidence image of a user as an object URL, fetched only when its tab opens. */
  userEvidence: (runtime: Runtime) => PromiseActorLogic<string, { id: string; kind: EvidenceKind }>;
  visit: (runtime: Runtime) => typeof visitMachine;
  /** ProcessVisit: today's visit of the person whose code reception read. */
  visitArrival: (runtime: Runtime) => PromiseActorLogic<ArrivalOutcome, { code: string }>;
  /** The visitor's QR of a visit as an object URL, or null when they hold no valid one. */
  visitQr: (runtime: Runtime) => PromiseActorLogic<string | null, { visitId: string }>;
  visitConfirmation: (runtime: Runtime) => typeof visitConfirmationMachine;
  visitDraft: (runtime: Runtime) => NewVisitDraftStore;
  /** NewVisit's places; `locations`: the tenant's visits.locations (none: every facility). */
  visitFacilities: (runtime: Runtime, locations: readonly string[]) => typeof visitFacilitiesMachine;
  /** `onSent`: the request became a visit (NewVisit forgets its draft). */
  visitRequest: (runtime: Runtime, onSent: () => void) => typeof visitRequestMachine;
  /** The watchlist upload flow: one running actor per runtime, which UploadWatchlist and its result share. */
  watchlistUpload: (runtime: Runtime) => Actor<typeof watchlistUploadMachine>;
}

export type MachineId = keyof MachineImplementations;
type Rest<F> = F extends (runtime: Runtime, ...rest: infer R) => unknown ? R : never;

const registry: Partial<MachineImplementations> = {};
const loaders = new Map<MachineId, () => Promise<Partial<MachineImplementations>>>();
const loading = new Map<MachineId, Promise<void>>();

/**
 * Implementations that stand in for the registered ones during one synchronous render (the server's paint of a
 * screen with the person's data, src/app/shell.tsx), so that two renders at once never share them.
 */
let standIns: Partial<MachineImplementations> | undefined;

/** Renders with `implementations` in place of the registered ones; the render must be synchronous. */
export function renderWithMachines<T>(implementations: Partial<MachineImplementations>, render: () => T): T {
  const before = standIns;
  standIns = implementations;
  try {
    return render();
  } finally {
    standIns = before;
  }
}

/** src/app calls it as an area's screens load, with the implementations of the machines they start. */
export function registerMachines(implementations: Partial<MachineImplementations>): void {
  Object.assign(registry, implementations);
}

/**
 * For a part that loads apart from its area (Landing's picker of existing users, AccreditFace's camera, the
 * enrolment Landing starts): src/app names where the machines `ids` come from, and the first screen asking for one
 * waits (Suspense) until they have loaded.
 */
export function registerMachineLoader(
  ids: readonly MachineId[],
  load: () => Promise<Partial<MachineImplementations>>,
): void {
  for (const id of ids) loaders.set(id, load);
}

function loadingOf(id: MachineId): Promise<void> | undefined {
  const load = loaders.get(id);
  if (!load) return undefined;
  let pending = loading.get(id);
  if (!pending) {
    pending = load().then(registerMachines);
    // A failed load (the network) is tried again by the next screen that asks.
    pending.catch(() => loading.delete(id));
    loading.set(id, pending);
  }
  return pending;
}

/** Outside React (Landing's Start, before the flow's screens have loaded): machine `id`'s implementation. */
export async function loadMachine<K extends MachineId>(id: K): Promise<MachineImplementations[K]> {
  if (!registry[id]) await loadingOf(id);
  const implement = registry[id];
  if (!implement) throw new Error(`No implementation of the ${id} machine is registered (src/app/machines)`);
  return implement as MachineImplementations[K];
}

/** The real logic of machine `id`, built once for the screen that starts it. */
export function useScreenMachine<K extends MachineId>(
  id: K,
  ...rest: Rest<MachineImplementations[K]>
): ReturnType<MachineImplementations[K]> {
  const runtime = useRuntime();
  const given = standIns?.[id] ?? registry[id];
  const pending = given ? undefined : loadingOf(id);
  if (pending) use(pending);
  const [logic] = useState(() => {
    const implement = (standIns?.[id] ?? registry[id]) as
      | ((runtime: Runtime, ...rest: unknown[]) => ReturnType<MachineImplementations[K]>)
      | undefined;
    if (!implement)
      throw new Error(`No implementation of the ${id} machine is registered (src/app/machines)`);
    return implement(runtime, ...rest);
  });
  return logic;
}
