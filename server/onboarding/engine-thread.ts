// The biometric engine in a worker thread. The reference engine's face detection and MRZ reading are CPU-bound
// (tfjs on WebAssembly runs on the thread that calls it): on the server's own thread a portrayal under judgement
// stalls every other request for seconds — long enough, on a busy 2-core machine, for an access token that was
// valid when a request arrived to have expired by the time its turn came. In a worker the event loop stays free;
// the worker is created on first use (or at warm-up), replaced if it dies, and does not keep the process alive.
import { Worker } from 'node:worker_threads';
import type { BiometricEngine } from './engine';

type Method = Exclude<keyof BiometricEngine, 'name'>;
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };
type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** The engine named by BIOMETRIC_ENGINE (see loadEngine), loaded and run in its own thread. */
export function engineInThread(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): BiometricEngine {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const failAll = (error: Error) => {
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };

  function current(): Worker {
    if (worker) return worker;
    const started = new Worker(new URL('./engine-worker.mjs', import.meta.url), {
      workerData: { env: { BIOMETRIC_ENGINE: env.BIOMETRIC_ENGINE }, cwd },
    });
    started.unref();
    started.on('message', (reply: Reply) => {
      const call = pending.get(reply.id);
      if (!call) return;
      pending.delete(reply.id);
      if (reply.ok) call.resolve(reply.value);
      else call.reject(new Error(reply.message));
    });
    const gone = (error: Error) => {
      if (worker === started) worker = undefined;
      failAll(error);
    };
    started.on('error', gone);
    started.on('exit', (code) => gone(new Error(`biometric engine thread exited with code ${code}`)));
    worker = started;
    return started;
  }

  const call =
    <T>(method: Method) =>
    (...args: unknown[]): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        current().postMessage({ id, method, args });
      });

  return {
    name: `${env.BIOMETRIC_ENGINE?.trim() || 'reference'} (worker thread)`,
    warmUp: call<string>('warmUp'),
    checkImage: call('checkImage'),
    analyseDocument: call('analyseDocument'),
    compareFaces: call('compareFaces'),
    checkLiveness: call('checkLiveness'),
  };
}
