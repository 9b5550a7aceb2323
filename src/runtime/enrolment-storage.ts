// Where an enrolment in progress is kept (spec §3: the onboarding state persists), apart from the enrolment runtime
// (src/actors/enrolment.ts) so that Landing can tell whether there is one to resume without loading the enrolment
// machine and its child machines (they load only when the person starts or resumes, keeping Landing small). Only a
// read of the browser's storage: the runtime layer holds it, below both the screens and the actors.
import type { Runtime } from './context';

const STORAGE_PREFIX = 'portal.enrolment';

/** The localStorage key of the enrolment of one person in one tenant. */
export const enrolmentStorageKey = (tenant: string, userId: string) =>
  `${STORAGE_PREFIX}:${tenant}:${userId}`;

/** Whether the signed-in person has an enrolment kept in this browser (a reload resumes it). */
export function hasStoredEnrolment(runtime: Runtime): boolean {
  const session = runtime.session.getSnapshot().context.session;
  const tenant = runtime.app.getSnapshot().context.tenant;
  if (!session || !tenant) return false;
  try {
    return window.localStorage.getItem(enrolmentStorageKey(tenant.tenant, session.userId)) !== null;
  } catch {
    return false;
  }
}
