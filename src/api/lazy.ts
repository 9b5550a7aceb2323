// The calls of src/api/* validate answers with arktype schemas of contract/api (~40 KB Brotli with arktype's
// runtime). A screen's machines import them through lazyCalls, so that code is not a static import of the screen's
// chunk: the screen paints without it, and it downloads beside the API client when the first call is made.

// biome-ignore lint/suspicious/noExplicitAny: any function's parameters, whatever they are
type AnyFunction = (...args: any[]) => unknown;

/** The functions of a module, each returning a promise of what it returns (they wait for the module first). */
export type LazyCalls<M> = {
  [K in keyof M as M[K] extends AnyFunction ? K : never]: M[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};

/** Every module of calls a loaded chunk has named, to start downloading with the API client (loadCallModules). */
const loaders = new Set<() => Promise<unknown>>();

/**
 * A module of API calls, loaded on first use: `const { getUserCredentials } = lazyCalls(() => import('../api/x'))`
 * gives functions of the same parameters that import the module and call its function.
 */
export function lazyCalls<M extends object>(load: () => Promise<M>): LazyCalls<M> {
  let loaded: Promise<M> | undefined;
  const module = () => {
    loaded ??= load().catch((error: unknown) => {
      // A failed download is tried again by the next call.
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  loaders.add(module);
  return new Proxy({} as LazyCalls<M>, {
    get:
      (_target, name) =>
      async (...args: unknown[]) =>
        ((await module())[name as keyof M] as AnyFunction)(...args),
  });
}

/**
 * Starts downloading every module of calls named so far (the screen's machines have named theirs), so that they
 * arrive with the API client chunk rather than one round trip after it.
 */
export function loadCallModules(): void {
  for (const load of loaders) load().catch(() => undefined);
}
