// The camera for document scans and selfies: the stream, frames for the sharpness score, and the photo.

export type CameraFailure = 'denied' | 'no-camera' | 'in-use' | 'insecure' | 'failed';

/** What went wrong opening the camera, as the capture machine's camera-failure flag. */
export function cameraFailureOf(error: unknown): CameraFailure {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'no-camera';
  if (name === 'NotReadableError' || name === 'AbortError') return 'in-use';
  if (name === 'TypeError') return 'insecure';
  return 'failed';
}

export type Facing = 'environment' | 'user';

// A released camera stays open a few seconds before it is turned off, so that the back of a document (a new
// capture, right after the front) reuses it: no black flash, no second permission prompt on some phones, and
// the focus and exposure the camera has already found.
const KEEP_OPEN_MS = 4000;
const facingOf = new WeakMap<MediaStream, Facing>();
let kept: { stream: MediaStream; facing: Facing; timer: ReturnType<typeof setTimeout> } | undefined;

const isLive = (stream: MediaStream) =>
  stream.getVideoTracks().length > 0 && stream.getVideoTracks().every((track) => track.readyState === 'live');

function stopTracks(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}

export async function openCamera(facing: Facing): Promise<MediaStream> {
  if (kept) {
    const { stream, timer } = kept;
    clearTimeout(timer);
    kept = undefined;
    if (facingOf.get(stream) === facing && isLive(stream)) return stream;
    stopTracks(stream);
  }
  if (!navigator.mediaDevices?.getUserMedia) {
    throw Object.assign(new Error('no camera API (insecure context?)'), { name: 'TypeError' });
  }
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: false,
    video: { facingMode: { ideal: facing }, width: { ideal: 1920 }, height: { ideal: 1080 } },
  });
  facingOf.set(stream, facing);
  return stream;
}

/** Lets the camera go: it is turned off after a few seconds unless a new capture of the same side takes it. */
export function closeCamera(stream: MediaStream | undefined, options: { now?: boolean } = {}): void {
  if (!stream) return;
  if (options.now) {
    if (kept?.stream === stream) {
      clearTimeout(kept.timer);
      kept = undefined;
    }
    stopTracks(stream);
    return;
  }
  const facing = facingOf.get(stream);
  if (kept?.stream === stream) return;
  if (kept) {
    clearTimeout(kept.timer);
    stopTracks(kept.stream);
    kept = undefined;
  }
  if (!facing || !isLive(stream)) {
    stopTracks(stream);
    return;
  }
  kept = {
    stream,
    facing,
    timer: setTimeout(() => {
      if (kept?.stream === stream) kept = undefined;
      stopTracks(stream);
    }, KEEP_OPEN_MS),
  };
}

/** The current video frame as a bitmap (transferable to a worker). */
export function grabFrame(video: HTMLVideoElement): Promise<ImageBitmap> {
  return createImageBitmap(video);
}

/** The current video frame as a JPEG photo at the camera's own resolution. */
export async function takePhoto(video: HTMLVideoElement): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.drawImage(video, 0, 0);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no photo'))), 'image/jpeg', 0.92),
  );
}
