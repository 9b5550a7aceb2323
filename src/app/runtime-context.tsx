import { createContext, type ReactNode, useContext } from 'react';
import type { Runtime } from './runtime';

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
