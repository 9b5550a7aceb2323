import type { PrepareRequest, PrepareResponse } from './prepare-image.worker';

export type PreparedImage = Extract<PrepareResponse, { ok: true }>;
export type PrepareFailure = Extract<PrepareResponse, { ok: false }>['problem'];

export class ImagePreparationError extends Error {
  constructor(readonly problem: PrepareFailure) {
    super(`image ${problem}`);
  }
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, (response: PrepareResponse) => void>();

function getWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./prepare-image.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<PrepareResponse>) => {
      pending.get(event.data.id)?.(event.data);
      pending.delete(event.data.id);
    };
    // A worker that fails to load or crashes never answers: settle what waits on it (else the caller
    // waits forever) and start a fresh one next time.
    worker.onerror = () => {
      worker?.terminate();
      worker = undefined;
      for (const [id, settle] of pending) settle({ id, ok: false, problem: 'unreadable' });
      pending.clear();
    };
  }
  return worker;
}

/**
 * A photo (from the camera or a file) made ready to upload: JPEG, at most 1920 px on the long side,
 * 5 kB – 5 MB (spec §5). Rejects with ImagePreparationError naming the problem.
 */
export function prepareImage(file: Blob): Promise<PreparedImage> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, (response) =>
      response.ok ? resolve(response) : reject(new ImagePreparationError(response.problem)),
    );
    getWorker().postMessage({ id, file } satisfies PrepareRequest);
  });
}
