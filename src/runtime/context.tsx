import { createContext, type ReactNode, useContext } from 'react';
import type { ActorRefFrom, InspectionEvent, Observer } from 'xstate';
import type { appMachine } from '../../machines/app.machine';
import type { notificationsMachine } from '../../machines/notifications.machine';
import type { sessionMachine } from '../../machines/session.machine';
import type { ApiClient } from '../api/client';

export type Navigate = (path: string, options?: { replace?: boolean }) => void;

/** An XState inspector (createActor's `inspect` option): `?inspect` under `npm run dev` (src/app/main.tsx). */
export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

/**
 * The long-lived actors of the portal, as screens and feature runtimes see them. src/app builds it
 * (src/app/runtime.ts); this module sits below the features so that they read it without importing the app.
 */
export interface Runtime {
  app: ActorRefFrom<typeof appMachine>;
  notifications: ActorRefFrom<typeof notificationsMachine>;
  session: ActorRefFrom<typeof sessionMachine>;
  /** The API client of this tenant, loaded with its first call. For src/actors, never for a screen. */
  apiClient(): Promise<ApiClient>;
  navigate: Navigate;
  /** Pass to every createActor of a feature runtime, so the inspector sees its actors too. */
  inspect?: Inspect;
  start(): void;
}

const RuntimeContext = createContext<Runtime | undefined>(undefined);

export function RuntimeProvider({ runtime, children }: { runtime: Runtime; children: ReactNode }) {
  return <RuntimeContext.Provider value={runtime}>{children}</RuntimeContext.Provider>;
}

export function useRuntime(): Runtime {
  const runtime = useContext(RuntimeContext);
  if (!runtime) throw new Error('useRuntime needs a RuntimeProvider');
  return runtime;
}

/** The tenant's settings; only rendered below the point where the tenant has loaded. */
export function useTenant() {
  const tenant = useRuntime().app.getSnapshot().context.tenant;
  if (!tenant) throw new Error('useTenant is only available once the tenant has loaded');
  return tenant;
}
