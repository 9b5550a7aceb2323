import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import { pathFor, type ScreenName, screens } from '../domain/screens';

type WithMeta = { getMeta(): Record<string, unknown> };

/** The meta of the deepest active state that names a screen (with what else it says: side, error codes…). */
export function screenMeta(snapshot: WithMeta): Record<string, string> | undefined {
  let best: { depth: number; meta: Record<string, string> } | undefined;
  for (const [id, meta] of Object.entries(snapshot.getMeta())) {
    if (typeof (meta as { screen?: unknown } | undefined)?.screen !== 'string') continue;
    const depth = id.split('.').length;
    if (!best || depth > best.depth) best = { depth, meta: meta as Record<string, string> };
  }
  return best?.meta;
}

/** The spec screen named by the deepest active state that has `meta.screen`. */
export function activeScreen(snapshot: WithMeta): string | undefined {
  return screenMeta(snapshot)?.screen;
}

export function isRoutedScreen(screen: string | undefined): screen is ScreenName {
  return screen !== undefined && Object.hasOwn(screens, screen);
}

/**
 * The router mirrors machine state (ARCHITECTURE.md): whenever the screen named by the actor's active
 * state changes, the URL follows. Screens that have no route (an error shown in place) are left alone.
 */
export function useScreenMirror<A extends AnyActorRef>(
  actor: A,
  paramsOf: (snapshot: SnapshotFrom<A>) => Record<string, string | undefined> = () => ({}),
): void {
  const [location, navigate] = useLocation();
  const target = useSelector(actor, (snapshot) => {
    const screen = activeScreen(snapshot as WithMeta);
    return isRoutedScreen(screen) ? pathFor(screen, paramsOf(snapshot as SnapshotFrom<A>)) : undefined;
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the machine, not the URL.
  useEffect(() => {
    if (target && target !== location) navigate(target);
  }, [target]);
}
