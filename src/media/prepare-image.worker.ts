// Off the main thread: decode a photo, downscale it to at most 1920 px on the long side and re-encode it
// as JPEG inside the spec's 5 kB – 5 MB bounds.
import {
  fitWithin,
  IMAGE_MAX_BYTES,
  IMAGE_MIN_BYTES,
  MAX_SOURCE_PIXELS,
  sniffImageType,
} from './image-rules';

export type PrepareRequest = { id: number; file: Blob };
export type PrepareResult =
  | { ok: true; blob: Blob; width: number; height: number }
  | { ok: false; problem: 'wrong-type' | 'too-large' | 'too-small' | 'unreadable' };
export type PrepareResponse = PrepareResult & { id: number };

const QUALITIES = [0.88, 0.8, 0.7, 0.6, 0.5];

async function prepare(file: Blob): Promise<PrepareResult> {
  const kind = sniffImageType(new Uint8Array(await file.slice(0, 8).arrayBuffer()));
  if (!kind) return { ok: false, problem: 'wrong-type' };
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
  try {
    if (bitmap.width * bitmap.height > MAX_SOURCE_PIXELS) return { ok: false, problem: 'too-large' };
    const { width, height } = fitWithin(bitmap.width, bitmap.height);
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) return { ok: false, problem: 'unreadable' };
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, width, height);
    for (const quality of QUALITIES) {
      const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality });
      if (blob.size > IMAGE_MAX_BYTES) continue;
      // A tiny result means an almost empty picture (a lens cap, a blank page): too little to judge.
      if (blob.size < IMAGE_MIN_BYTES) return { ok: false, problem: 'too-small' };
      return { ok: true, blob, width, height };
    }
    return { ok: false, problem: 'too-large' };
  } finally {
    bitmap.close();
  }
}

self.onmessage = async (event: MessageEvent<PrepareRequest>) => {
  const { id, file } = event.data;
  const result = await prepare(file).catch((): PrepareResult => ({ ok: false, problem: 'unreadable' }));
  (self as unknown as Worker).postMessage({ id, ...result });
};
