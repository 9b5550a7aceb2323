import { type ComponentType, lazy } from 'react';
import { CHUNK_LOAD_TIMEOUT_MS, CHUNK_RETRY_INTERVAL_MS } from '../../contract/domain/constants';
import { loadRestOfCatalogue } from '../i18n/catalogue';

export class ChunkLoadTimeout extends Error {
  constructor(cause: unknown) {
    super('A part of the application could not be loaded', { cause });
    this.name = 'ChunkLoadTimeout';
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Spec §8: a script chunk that fails to load ends with a timeout after 120 s. Until then it is retried
 * (a phone that lost coverage for a moment recovers by itself); the loading indicator stays meanwhile.
 */
export async function loadChunk<T>(
  importer: () => Promise<T>,
  {
    timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
    retryEveryMs = CHUNK_RETRY_INTERVAL_MS,
    now = Date.now,
    sleep = wait,
  } = {},
): Promise<T> {
  const deadline = now() + timeoutMs;
  for (;;) {
    try {
      return await importer();
    } catch (error) {
      const left = deadline - now();
      if (left <= 0) throw new ChunkLoadTimeout(error);
      await sleep(Math.min(retryEveryMs, left));
    }
  }
}

type Module = Record<string, unknown>;

/**
 * A lazily loaded screen: one chunk per area (or per screen), the screen picked by its spec name. Unless it is one of the first
 * screens (`firstScreen`), it also waits for the rest of the catalogue (src/i18n/first-screen.ts).
 */
export function lazyScreen<M extends Module>(
  area: () => Promise<M>,
  name: keyof M & string,
  { firstScreen = false } = {},
) {
  let loaded: Promise<M> | undefined;
  const load = () => {
    loaded ??= Promise.all([loadChunk(area), firstScreen ? undefined : loadChunk(loadRestOfCatalogue)])
      .then(([module]) => module)
      .catch((error) => {
        loaded = undefined;
        throw error;
      });
    return loaded;
  };
  const component = lazy(async () => ({
    default: (await load())[name] as ComponentType,
  })) as unknown as ComponentType & {
    preload: () => Promise<M>;
  };
  component.preload = load;
  return component;
}
