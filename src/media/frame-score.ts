import type { ScoreRequest, ScoreResponse } from './frame-score.worker';

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, (score: number) => void>();

/** The sharpness score of a camera frame, computed in a worker (the bitmap is transferred). */
export function scoreFrame(frame: ImageBitmap): Promise<number> {
  if (!worker) {
    worker = new Worker(new URL('./frame-score.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<ScoreResponse>) => {
      pending.get(event.data.id)?.(event.data.score);
      pending.delete(event.data.id);
    };
  }
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker?.postMessage({ id, frame } satisfies ScoreRequest, [frame]);
  });
}
