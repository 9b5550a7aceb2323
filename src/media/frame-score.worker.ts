// Off the main thread: the sharpness of camera frames (for auto-capture), on a 320 px wide copy.
import { laplacianVariance, luminance } from './sharpness';

export type ScoreRequest = { id: number; frame: ImageBitmap };
export type ScoreResponse = { id: number; score: number };

const WIDTH = 320;

self.onmessage = (event: MessageEvent<ScoreRequest>) => {
  const { id, frame } = event.data;
  const height = Math.max(1, Math.round((frame.height / frame.width) * WIDTH));
  const canvas = new OffscreenCanvas(WIDTH, height);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  let score = 0;
  if (context) {
    context.drawImage(frame, 0, 0, WIDTH, height);
    const { data } = context.getImageData(0, 0, WIDTH, height);
    score = laplacianVariance(luminance(data, WIDTH, height), WIDTH, height);
  }
  frame.close();
  (self as unknown as Worker).postMessage({ id, score } satisfies ScoreResponse);
};
