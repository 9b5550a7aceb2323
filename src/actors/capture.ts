// The real effects the capture machine names (machines/capture.machine.ts), as thin wrappers over src/media.
import { type AnyEventObject, fromCallback } from 'xstate';
import {
  type CameraError,
  type CameraFailure,
  type CapturedPhoto,
  type CaptureEvent,
  captureMachine,
  type FaceSeen,
  type Facing,
  type ImageCheckError,
} from '../../machines/capture.machine';
import { cameraFailureOf, closeCamera, grabFrame, openCamera, takePhoto } from '../media/camera';
import { findFaces } from '../media/face-detect';
import { judgeFaces } from '../media/face-detector';
import { canScoreFrames, scoreFrame } from '../media/frame-score';
import { ImagePreparationError, type PrepareFailure, prepareImage } from '../media/prepare-image';
import { SHARP_THRESHOLD } from '../media/sharpness';
import { fromPromise } from './promise';

/** What startCamera rejects with: the machine reads `cameraFailure`. */
export class CameraOpenError extends Error implements CameraError {
  constructor(readonly cameraFailure: CameraFailure) {
    super(`camera ${cameraFailure}`);
  }
}

/** What checkImage rejects with: the machine reads `code`. */
export class ImageCheckFailure extends Error {
  constructor(readonly code: ImageCheckError) {
    super(code);
  }
}

const IMAGE_CHECK_ERRORS: Record<PrepareFailure, ImageCheckError> = {
  'too-small': 'image_too_small',
  'too-large': 'image_too_large',
  'wrong-type': 'image_wrong_type',
  unreadable: 'image_not_available',
};

/** How long a detached video may take to show its first frame. */
const FIRST_FRAME_MS = 5000;
/** Frames are scored about four times a second… */
export const FRAME_INTERVAL_MS = 250;
/** …after a moment to frame the document or face, so the first sharp glimpse of the room is not taken. */
export const WARM_UP_MS = 1500;
/** Auto-capture gives up (the button still works) after this many scoring failures in a row. */
const MAX_SCORE_FAILURES = 5;

export async function startCamera(facing: Facing, signal?: AbortSignal): Promise<MediaStream> {
  let stream: MediaStream;
  try {
    stream = await openCamera(facing);
  } catch (error) {
    throw new CameraOpenError(cameraFailureOf(error));
  }
  if (signal?.aborted) {
    // Nobody is waiting any more (the view went away, or React's strict mode restarted the actor, which
    // would otherwise deliver this stale stream too): turn the camera off and never answer.
    closeCamera(stream, { now: true });
    return new Promise<never>(() => {});
  }
  return stream;
}

export function stopCamera(stream: MediaStream | null | undefined): void {
  closeCamera(stream ?? undefined);
}

/** Play a video and wait until it has a frame to draw, or fail after `ms`. */
function playFirstFrame(video: HTMLVideoElement, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: unknown) => {
      clearTimeout(timer);
      video.removeEventListener('loadeddata', onData);
      video.removeEventListener('error', onError);
      if (error) reject(error);
      else resolve();
    };
    const onData = () => done();
    const onError = () => done(new Error('video error'));
    const timer = setTimeout(() => done(new Error('no video frame')), ms);
    video.addEventListener('loadeddata', onData);
    video.addEventListener('error', onError);
    video.play().then(
      () => video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && done(),
      (error: unknown) => done(error ?? new Error('video does not play')),
    );
  });
}

/**
 * A full-resolution JPEG of the current camera frame. It draws the video the person is looking at; if that
 * is not showing this stream (or has no frame yet), it plays the stream in a detached video to draw it.
 * The machine then checks the photo like a file (prepare-image: ≤1920 px, 5 kB – 5 MB).
 */
export async function photoFromStream(
  stream: MediaStream | null,
  shown: HTMLVideoElement | null,
): Promise<Blob> {
  if (!stream) throw new Error('no camera stream');
  if (shown && shown.srcObject === stream && shown.videoWidth > 0 && shown.readyState >= 2) {
    return takePhoto(shown);
  }
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  try {
    await playFirstFrame(video, FIRST_FRAME_MS);
    return await takePhoto(video);
  } finally {
    video.pause();
    video.srcObject = null;
  }
}

/** Prepare a photo or a chosen file for upload; failures become the machine's image check codes. */
export async function checkPhoto(file: Blob): Promise<CapturedPhoto> {
  try {
    const { blob, width, height } = await prepareImage(file);
    return { blob, width, height };
  } catch (error) {
    throw new ImageCheckFailure(
      error instanceof ImagePreparationError ? IMAGE_CHECK_ERRORS[error.problem] : 'image_not_available',
    );
  }
}

/** Whether the current video frame is sharp enough to count towards auto-capture. */
export async function isSharpFrame(video: HTMLVideoElement): Promise<boolean> {
  return (await scoreFrame(await grabFrame(video))) >= SHARP_THRESHOLD;
}

/**
 * Whether the current video frame shows a face large enough for a selfie; undefined when the detector could
 * not say (its worker or weights failed to load): the machine then takes nothing by itself.
 */
export async function faceInFrame(video: HTMLVideoElement): Promise<FaceSeen | undefined> {
  try {
    const { faces, width, height } = await findFaces(await grabFrame(video));
    return judgeFaces(faces, width, height);
  } catch {
    return undefined;
  }
}

/**
 * Scores the frames of the video the person sees, off the main thread, and reports each as frame.scored; for a
 * selfie (`requireFace`) with what the face detector saw in the same moment.
 * The video is looked up at every sample: the machine starts watching before the view has drawn it.
 */
export function watchFrames(
  shownVideo: () => HTMLVideoElement | null,
  report: (event: CaptureEvent) => void,
  { requireFace = false }: { requireFace?: boolean } = {},
) {
  if (!canScoreFrames()) return () => {};
  let active = true;
  let scoring = false;
  let failures = 0;
  let interval: ReturnType<typeof setInterval> | undefined;
  const sample = async () => {
    const video = shownVideo();
    if (!video || scoring || document.hidden || video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) return;
    scoring = true;
    try {
      const [sharp, face] = await Promise.all([
        isSharpFrame(video),
        requireFace ? faceInFrame(video) : undefined,
      ]);
      failures = 0;
      if (active) report(face ? { type: 'frame.scored', sharp, face } : { type: 'frame.scored', sharp });
    } catch {
      failures += 1;
      if (failures >= MAX_SCORE_FAILURES) clearInterval(interval);
    } finally {
      scoring = false;
    }
  };
  const warmUp = setTimeout(() => {
    interval = setInterval(sample, FRAME_INTERVAL_MS);
  }, WARM_UP_MS);
  return () => {
    active = false;
    clearTimeout(warmUp);
    clearInterval(interval);
  };
}

/** The implementations to give captureMachine.provide(); `shownVideo` is the view's video element. */
export function captureImplementations(shownVideo: () => HTMLVideoElement | null) {
  return {
    actors: {
      startCamera: fromPromise<MediaStream, { facing: Facing }>(({ input, signal }) =>
        startCamera(input.facing, signal),
      ),
      takePhoto: fromPromise<Blob, { stream: MediaStream | null }>(({ input }) =>
        photoFromStream(input.stream, shownVideo()),
      ),
      checkImage: fromPromise<CapturedPhoto, { file: Blob }>(({ input }) => checkPhoto(input.file)),
      watchFrames: fromCallback<AnyEventObject, { requireFace: boolean }>(({ sendBack, input }) =>
        watchFrames(shownVideo, sendBack, input),
      ),
    },
    actions: {
      stopCamera: ({ context }: { context: { stream: MediaStream | null } }) => stopCamera(context.stream),
    },
  };
}

/** The capture machine with the camera, the frame scorer and the photo checks of this browser. */
export function captureLogic(shownVideo: () => HTMLVideoElement | null) {
  return captureMachine.provide(captureImplementations(shownVideo));
}
