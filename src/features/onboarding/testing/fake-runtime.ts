// Test support for onboarding screens: a runtime whose session, tenant and API the test decides (on
// src/testing/stub-runtime.ts), and an enrolment left in the state the test needs (the real enrolment runtime
// restores it from storage).
import { createActor, type StateValue } from 'xstate';
import type { BrowserSettings } from '../../../../contract/api/settings';
import { type EnrolmentContext, enrolmentMachine } from '../../../../machines/enrolment.machine';
import { enrolmentMachines } from '../../../app/machines/enrolment';
import type { Session } from '../../../auth/access';
import { registerMachines } from '../../../runtime/machines';
import { type FakeApi, type StubRuntimeOptions, stubRuntime } from '../../../testing/stub-runtime';

export type { FakeApi };

// The onboarding screens get the enrolment flow's handle from the registry, as src/app gives it them.
registerMachines(enrolmentMachines);

export const SESSION: Session = {
  accessToken: 'token',
  issuedAt: 0,
  expiresAt: 4_000_000_000,
  roles: ['post_onboardings_auto'],
  email: 'ana@example.com',
  userName: 'ana',
  profile: null,
  userId: 'u-1',
  enrolled: false,
  acsId: null,
  userType: 'user',
  locale: 'es',
  claims: null,
  firstName: 'Ana',
  name: 'Ana',
};

export const SETTINGS = {
  domain: 'gambling',
  showNextSteps: false,
  onboardingSteps: false,
  biometricQR: true,
};

export const tenantWith = (browsers: BrowserSettings = {}) => ({
  tenant: 'gambling',
  locale: 'es',
  browsers,
  settings: SETTINGS,
});

export function fakeRuntime({
  signedIn,
  api,
  client,
  browsers,
  session: person,
  settings,
}: {
  signedIn: boolean;
  api?: FakeApi;
  /** A whole API client instead of `api` (src/testing/stub-runtime.ts apiOverFetch). */
  client?: StubRuntimeOptions['client'];
  browsers?: BrowserSettings;
  /** What differs from SESSION for the signed-in person. */
  session?: Partial<Session>;
  /** Tenant settings beside SETTINGS (another area's screens read their own). */
  settings?: Record<string, unknown>;
}) {
  const tenant = tenantWith(browsers);
  return stubRuntime({
    tenant: { ...tenant, settings: { ...tenant.settings, ...settings } },
    session: signedIn ? { ...SESSION, ...person } : null,
    api,
    client,
  });
}

/**
 * Leaves the signed-in person's enrolment where the test needs it. A state that invokes an actor names it in
 * `running` (with its input), as a snapshot saved while the call was out would: restoring starts it again.
 */
export function storeEnrolment(
  value: StateValue,
  context: Partial<EnrolmentContext> = {},
  running: Record<string, unknown> = {},
) {
  const initial = createActor(enrolmentMachine, {
    input: { settings: SETTINGS, registerMode: 'auto', claims: null, email: SESSION.email },
  }).getSnapshot();
  const snapshot = enrolmentMachine.resolveState({
    value,
    context: { ...initial.context, onboardingId: 'o-1', ...context },
  });
  const persisted = enrolmentMachine.getPersistedSnapshot(snapshot) as unknown as {
    children: Record<string, unknown>;
  };
  for (const [src, input] of Object.entries(running)) {
    persisted.children[src] = {
      src,
      snapshot: { status: 'active', output: undefined, error: undefined, input },
    };
  }
  localStorage.setItem(`portal.enrolment:gambling:${SESSION.userId}`, JSON.stringify(persisted));
}
