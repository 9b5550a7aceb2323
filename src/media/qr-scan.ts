// Reading a QR from the camera for reception (spec §2 ProcessVisit): the browser's BarcodeDetector when it
// reads QR codes, else the barcode-detector polyfill (zxing-wasm), whose .wasm is bundled and served by this
// portal: never fetched from a CDN (unreachable offline and in many deployments).
import { closeCamera, openCamera } from './camera';

interface Detector {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}

type DetectorClass = {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats?(): Promise<string[]>;
};

async function qrDetector(): Promise<Detector> {
  const native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (native && (await native.getSupportedFormats?.())?.includes('qr_code')) {
    return new native({ formats: ['qr_code'] });
  }
  const [{ BarcodeDetector, prepareZXingModule }, { default: wasmUrl }] = await Promise.all([
    import('barcode-detector/ponyfill'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]);
  prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
    },
  });
  return new BarcodeDetector({ formats: ['qr_code'] });
}

const SCAN_EVERY_MS = 250;

/**
 * Shows the back camera in `video` and calls onCode with the first QR read; returns the function that stops
 * (the camera goes off). onError hears a camera or detector that cannot start.
 */
export function startQrScan(
  video: HTMLVideoElement,
  onCode: (code: string) => void,
  onError: (error: unknown) => void,
): () => void {
  let stopped = false;
  let stream: MediaStream | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    closeCamera(stream, { now: true });
  };
  (async () => {
    const [detector, opened] = await Promise.all([qrDetector(), openCamera('environment')]);
    stream = opened;
    if (stopped) return stop();
    video.srcObject = stream;
    await video.play().catch(() => {});
    const tick = async () => {
      if (stopped) return;
      try {
        if (video.readyState >= 2) {
          const found = (await detector.detect(video)).find((code) => code.rawValue);
          if (found && !stopped) {
            stop();
            onCode(found.rawValue);
            return;
          }
        }
      } catch {
        // A frame that cannot be read: the next one may.
      }
      timer = setTimeout(tick, SCAN_EVERY_MS);
    };
    void tick();
  })().catch((error: unknown) => {
    if (!stopped) {
      stop();
      onError(error);
    }
  });
  return stop;
}
