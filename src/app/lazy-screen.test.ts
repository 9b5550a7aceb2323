import { describe, expect, it } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../contract/domain/constants';
import { ChunkLoadTimeout, loadChunk } from './lazy-screen';

function fakeTime() {
  let t = 0;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
    elapsed: () => t,
  };
}

describe('loadChunk', () => {
  it('recovers when the chunk loads on a later attempt', async () => {
    const time = fakeTime();
    let attempts = 0;
    const result = await loadChunk(
      async () => {
        attempts += 1;
        if (attempts < 3) throw new TypeError('Failed to fetch dynamically imported module');
        return 'screen';
      },
      { now: time.now, sleep: time.sleep },
    );
    expect(result).toBe('screen');
    expect(attempts).toBe(3);
  });

  it('gives up with a timeout after 120 s, not before', async () => {
    const time = fakeTime();
    const failing = async () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    };
    await expect(loadChunk(failing, { now: time.now, sleep: time.sleep })).rejects.toBeInstanceOf(
      ChunkLoadTimeout,
    );
    expect(time.elapsed()).toBe(CHUNK_LOAD_TIMEOUT_MS);
  });
});
