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

export async function openCamera(facing: Facing): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw Object.assign(new Error('no camera API (insecure context?)'), { name: 'TypeError' });
  }
  return navigator.mediaDevices.getUserMedia({
    audio: false,
    video: { facingMode: { ideal: facing }, width: { ideal: 1920 }, height: { ideal: 1080 } },
  });
}

export function closeCamera(stream: MediaStream | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
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
