import type { FaceRequest, FaceResponse } from './face-detect.worker';
import type { FaceBox } from './face-detector';

export interface FramesFaces {
  faces: FaceBox[];
  /** The frame's size in pixels. */
  width: number;
  height: number;
  /** Time the detector took in the worker. */
  ms: number;
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, { resolve: (faces: FramesFaces) => void; reject: (error: Error) => void }>();

/**
 * The faces in a camera frame, found in a worker (the bitmap is transferred). The worker, and the weights it
 * fetches, load with the first frame: only the selfie screens ever ask.
 */
export function findFaces(frame: ImageBitmap): Promise<FramesFaces> {
  if (!worker) {
    worker = new Worker(new URL('./face-detect.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<FaceResponse>) => {
      const answer = event.data;
      const waiting = pending.get(answer.id);
      pending.delete(answer.id);
      if ('error' in answer) waiting?.reject(new Error(answer.error));
      else waiting?.resolve(answer);
    };
    // A worker that fails to load or crashes never answers: reject what waits on it and start afresh next time.
    worker.onerror = () => {
      worker?.terminate();
      worker = undefined;
      for (const { reject } of pending.values()) reject(new Error('face detection worker failed'));
      pending.clear();
    };
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker?.postMessage({ id, frame } satisfies FaceRequest, [frame]);
  });
}
