import { useCallback, useSyncExternalStore } from 'react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';

/**
 * useSelector for an actor that may fail (a promise actor of src/actors): @xstate/react's useSelector throws the
 * actor's error while rendering, which with no error boundary unmounts the whole portal (a blank page where the
 * screen meant to show its failure and a retry). This one hands the error snapshot to the selector like any other,
 * and its subscription observes the error, so XState does not throw it in the page either.
 */
export function useSettledSelector<TActor extends AnyActorRef, T>(
  actor: TActor,
  selector: (snapshot: SnapshotFrom<TActor>) => T,
): T {
  const subscribe = useCallback(
    (onChange: () => void) => actor.subscribe({ next: onChange, error: onChange }).unsubscribe,
    [actor],
  );
  const read = useCallback(() => actor.getSnapshot() as SnapshotFrom<TActor>, [actor]);
  return selector(useSyncExternalStore(subscribe, read, read));
}
