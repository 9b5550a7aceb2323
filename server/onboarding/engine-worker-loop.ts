// The worker side of engine-thread.ts: loads the engine named by BIOMETRIC_ENGINE and answers each call with its
// value or its error message. Under tsx it runs through engine-worker.mjs; npm start bundles it as
// `.server/engine-worker.mjs`, beside the server's bundle, where engine-thread.ts looks for it.
import { parentPort, workerData } from 'node:worker_threads';
import { loadEngine } from './engine-choice';

type Call = { id: number; method: string; args: unknown[] };

const port = parentPort;
if (!port) throw new Error('engine-worker-loop runs in a worker thread (engine-thread.ts)');
const data = workerData as { env: NodeJS.ProcessEnv; cwd: string };
const engine = loadEngine(data.env, data.cwd);

port.on('message', async ({ id, method, args }: Call) => {
  try {
    const loaded = (await engine) as unknown as Record<string, unknown>;
    const run = loaded[method];
    const value =
      method === 'warmUp' && typeof run !== 'function'
        ? `${String(loaded.name)} engine ready (nothing to load)`
        : await (run as (...a: unknown[]) => unknown).apply(loaded, args);
    port.postMessage({ id, ok: true, value });
  } catch (error) {
    port.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
