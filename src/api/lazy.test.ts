import { describe, expect, it, vi } from 'vitest';
import { lazyCalls, loadCallModules } from './lazy';

describe('lazyCalls', () => {
  it('loads the module on the first call, once, and answers what its function answers', async () => {
    const module = { double: (n: number) => n * 2, later: async (s: string) => `${s}!` };
    const load = vi.fn(async () => module);
    const { double, later } = lazyCalls(() => load());
    expect(load).not.toHaveBeenCalled();
    await expect(double(21)).resolves.toBe(42);
    await expect(later('ya')).resolves.toBe('ya!');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries the download again on the next call after one failed', async () => {
    const load = vi
      .fn<() => Promise<{ ping: () => string }>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue({ ping: () => 'pong' });
    const { ping } = lazyCalls(load);
    await expect(ping()).rejects.toThrow('offline');
    await expect(ping()).resolves.toBe('pong');
  });

  it('starts downloading every named module when the API client is asked for', () => {
    const load = vi.fn(async () => ({ call: () => 1 }));
    lazyCalls(load);
    loadCallModules();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
