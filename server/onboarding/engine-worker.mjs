// The worker side of engine-thread.ts: loads the engine named by BIOMETRIC_ENGINE (TypeScript through tsx, as
// scripts/start.mjs does) and answers each call with its value or its error message.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { loadEngine } = await import('./engine.ts');
const engine = loadEngine(workerData.env, workerData.cwd);

parentPort.on('message', async ({ id, method, args }) => {
  try {
    const loaded = await engine;
    const value =
      method === 'warmUp' && typeof loaded.warmUp !== 'function'
        ? `${loaded.name} engine ready (nothing to load)`
        : await loaded[method](...args);
    parentPort.postMessage({ id, ok: true, value });
  } catch (error) {
    parentPort.postMessage({
      id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    });
  }
});
