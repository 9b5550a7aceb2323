// Work a request starts and does not wait for (the engine's judgement of a portrayal once its images are complete,
// a bulk import's rows): the answer has already promised it. Stopping the server waits for it as for the requests
// in flight, so that a judgement or a row the person was told about is not cut off by the database closing.

export interface BackgroundWork {
  /** Counts `work` until it settles; its failure is its own to report (the caller's catch). */
  track(work: Promise<unknown>): void;
  /** Pieces of work not settled yet. */
  size(): number;
  /** Resolves once nothing is left, counting what is started while it waits. */
  idle(): Promise<void>;
}

export function createBackgroundWork(): BackgroundWork {
  const pending = new Set<Promise<unknown>>();
  return {
    track(work) {
      const settled = work.then(
        () => undefined,
        () => undefined,
      );
      pending.add(settled);
      void settled.then(() => pending.delete(settled));
    },
    size: () => pending.size,
    async idle() {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}
