import type { ScoreRequest, ScoreResponse } from './frame-score.worker';

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, { resolve: (score: number) => void; reject: (error: Error) => void }>();

/** Whether this browser can score frames off the main thread (auto-capture); the manual button always works. */
export function canScoreFrames(): boolean {
  return typeof createImageBitmap === 'function' && typeof Worker === 'function';
}

/** The sharpness score of a camera frame, computed in a worker (the bitmap is transferred). */
export function scoreFrame(frame: ImageBitmap): Promise<number> {
  if (!worker) {
    worker = new Worker(new URL('./frame-score.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<ScoreResponse>) => {
      pending.get(event.data.id)?.resolve(event.data.score);
      pending.delete(event.data.id);
    };
    // A worker that fails to load or crashes never answers: reject what waits on it (else the caller
    // waits forever) and start a fresh one next time.
    worker.onerror = () => {
      worker?.terminate();
      worker = undefined;
      for (const { reject } of pending.values()) reject(new Error('frame score worker failed'));
      pending.clear();
    };
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker?.postMessage({ id, frame } satisfies ScoreRequest, [frame]);
  });
}
