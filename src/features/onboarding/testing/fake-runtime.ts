// Test support for onboarding screens: a runtime whose session, tenant and API the test decides, and an
// enrolment left in the state the test needs (the real enrolment runtime restores it from storage).
import { vi } from 'vitest';
import { createActor, createMachine, type StateValue } from 'xstate';
import type { BrowserSettings } from '../../../../contract/api/settings';
import { type EnrolmentContext, enrolmentMachine } from '../../../../machines/enrolment.machine';
import { enrolmentMachines } from '../../../app/machines/enrolment';
import type { Session } from '../../../auth/access';
import type { Runtime } from '../../../runtime/context';
import { registerMachines } from '../../../runtime/machines';

// The onboarding screens get the enrolment flow's handle from the registry, as src/app gives it them.
registerMachines(enrolmentMachines);

/** The API client as the runtime hands it to src/actors (screens never import src/api). */
type ApiClient = Awaited<ReturnType<Runtime['apiClient']>>;

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

/** API calls the test answers, by method; the others never settle. */
export type FakeApi = Partial<Record<keyof ApiClient, (...args: never[]) => Promise<unknown>>>;

export function fakeRuntime({
  signedIn,
  api,
  browsers,
  session: person,
  settings,
}: {
  signedIn: boolean;
  api?: FakeApi;
  browsers?: BrowserSettings;
  /** What differs from SESSION for the signed-in person. */
  session?: Partial<Session>;
  /** Tenant settings beside SETTINGS (another area's screens read their own). */
  settings?: Record<string, unknown>;
}) {
  const session = createActor(
    createMachine({
      id: 'session',
      context: { session: signedIn ? { ...SESSION, ...person } : null },
      initial: signedIn ? 'authenticated' : 'anonymous',
      states: { anonymous: {}, authenticated: { initial: 'active', states: { active: {} } } },
    }),
  ).start();
  const tenant = tenantWith(browsers);
  const app = createActor(
    createMachine({
      id: 'app',
      context: { tenant: { ...tenant, settings: { ...tenant.settings, ...settings } } },
    }),
  ).start();
  const pending = () => new Promise<never>(() => {});
  const client = { get: pending, post: pending, put: pending, delete: pending, request: pending, ...api };
  const runtime = {
    app,
    session,
    apiClient: () => Promise.resolve(client as ApiClient),
    navigate: vi.fn(),
  };
  return runtime as unknown as Runtime & { navigate: ReturnType<typeof vi.fn> };
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
