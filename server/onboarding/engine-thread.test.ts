import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineInThread } from './engine-thread';
import { onboardingOptionsFromEnv } from './options';

// A custom engine module (BIOMETRIC_ENGINE=path): it answers from the worker's thread id, so the test sees
// the calls really ran in another thread, and it throws on request.
const dir = mkdtempSync(join(tmpdir(), 'engine-thread-'));
writeFileSync(
  join(dir, 'engine.mjs'),
  `import { threadId } from 'node:worker_threads';
export function createEngine() {
  return {
    name: 'custom',
    async warmUp() { return 'custom ready in thread ' + threadId; },
    async checkImage(bytes) {
      if (bytes[0] === 0) throw new Error('engine broke on purpose');
      return { ok: false, code: 'image_wrong_type', detail: bytes.length + ' bytes seen in thread ' + threadId };
    },
    async analyseDocument(input) { return { ok: false, error: 'validas_error', detail: String(input.documentType) }; },
    async compareFaces() { throw new Error('no faces here'); },
    async checkLiveness(input) { return { result: 'passing', detail: input.submittedAt.toISOString() }; },
  };
}`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the engine in a worker thread', () => {
  const engine = engineInThread({ BIOMETRIC_ENGINE: join(dir, 'engine.mjs') });

  it('runs the named engine off the server thread and brings back its answers', async () => {
    expect(await engine.warmUp?.()).toMatch(/^custom ready in thread [1-9]\d*$/);
    const check = await engine.checkImage(new Uint8Array([1, 2, 3]));
    expect(check).toEqual({
      ok: false,
      code: 'image_wrong_type',
      detail: expect.stringMatching(/^3 bytes seen in thread [1-9]\d*$/),
    });
    const submittedAt = new Date('2026-11-23T10:00:00Z');
    expect(await engine.checkLiveness({ frames: [], videos: 0, challenge: null, submittedAt })).toEqual({
      result: 'passing',
      detail: '2026-11-23T10:00:00.000Z',
    });
  });

  it('turns an error of the engine into a rejected call, and keeps answering after it', async () => {
    await expect(engine.checkImage(new Uint8Array([0]))).rejects.toThrow('engine broke on purpose');
    await expect(
      engine.compareFaces({
        selfie: { kind: 'selfie', bytes: new Uint8Array(1), sharpness: { score: null, blurred: null } },
        document: [],
      }),
    ).rejects.toThrow('no faces here');
    expect(
      await engine.analyseDocument({
        documentType: 'passport',
        documentCountry: null,
        obverse: undefined,
        reverse: undefined,
      }),
    ).toEqual({ ok: false, error: 'validas_error', detail: 'passport' });
  });

  it('is what the server uses unless BIOMETRIC_ENGINE_THREAD=off', async () => {
    const threaded = await onboardingOptionsFromEnv({ BIOMETRIC_ENGINE: 'basic' }).engine;
    expect(threaded?.name).toBe('basic (worker thread)');
    const inProcess = await onboardingOptionsFromEnv({
      BIOMETRIC_ENGINE: 'basic',
      BIOMETRIC_ENGINE_THREAD: 'off',
    }).engine;
    expect(inProcess?.name).toBe('basic');
  });
});
