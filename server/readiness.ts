// What the process still waits for before it should take traffic (GET /health answers 503 meanwhile): the
// biometric engine's models, loaded once at start-up. A load balancer, `npm start` and the test servers wait
// for it, so no person's first picture waits on a model load.

export interface Readiness {
  /** Counts `name` as pending until `work` settles (a failure is logged by whoever started it). */
  track(name: string, work: Promise<unknown>): void;
  /** What is still loading. */
  pending(): string[];
  /** Resolves once nothing is pending. */
  ready(): Promise<void>;
}

export function createReadiness(): Readiness {
  const loading = new Map<string, Promise<unknown>>();
  return {
    track(name, work) {
      const settled = work.then(
        () => undefined,
        () => undefined,
      );
      loading.set(name, settled);
      void settled.then(() => {
        if (loading.get(name) === settled) loading.delete(name);
      });
    },
    pending: () => [...loading.keys()],
    async ready() {
      while (loading.size > 0) await Promise.all(loading.values());
    },
  };
}
