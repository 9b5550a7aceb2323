import {
  type EventObject,
  type NonReducibleUnknown,
  type PromiseActorLogic,
  fromPromise as xstateFromPromise,
} from 'xstate';

/** A promise that never settles: what a stopped run answers. */
const never = () => new Promise<never>(() => undefined);

/**
 * xstate's fromPromise, except that a run whose actor was stopped (its signal aborted) never reports back.
 *
 * Why: under React's StrictMode (src/app/main.tsx) a screen mounts, unmounts and mounts again. @xstate/react then
 * stops the screen's actor, which aborts the call its machine had invoked, and restores the actor's and its
 * children's snapshots before starting them again, so the call runs a second time. The first run's abort would
 * reach the restored child, which xstate takes as still active, and the machine would go to its failure while
 * the second run's answer was on its way.
 */
export function fromPromise<
  TOutput,
  TInput = NonReducibleUnknown,
  TEmitted extends EventObject = EventObject,
>(
  creator: Parameters<typeof xstateFromPromise<TOutput, TInput, TEmitted>>[0],
): PromiseActorLogic<TOutput, TInput, TEmitted> {
  return xstateFromPromise<TOutput, TInput, TEmitted>(async (args) => {
    try {
      const output = await creator(args);
      return args.signal.aborted ? never() : output;
    } catch (error) {
      if (args.signal.aborted) return never();
      throw error;
    }
  });
}
