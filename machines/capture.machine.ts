import { type AnyEventObject, assign, fromCallback, fromPromise, setup } from 'xstate';
import { errorCodeOf, errorOf, outputOf } from './actor-events';

// Taking one picture for a scan or a selfie (spec §2 DocumentScan, TakeSelfie, TakeSelfieAlive; §5 image
// rules; §8 "camera failure, mount or detection timeout in the scan widgets … with a distinct flag for camera
// failures"). The screen that shows the camera runs this machine; when it is done the screen hands the photo
// to the enrolment machine. Camera failures, a widget that does not mount and a detection timeout are states
// of their own, and from each of them (and from the live camera) the person may choose a file instead, which
// goes through the same checks as a photo.
//
// meta.screen on the failure states is DocumentScan, the screen whose texts the spec gives for these errors;
// the selfie screens run the same machine and read meta.captureError only (the router follows the enrolment
// machine, not this one). The view asks the tags what to offer: `acceptsFile` (the file picker) and `retryable`
// (open the camera again).
//
// A selfie (input requireFace) takes itself only from frames that show a face large enough: a sharp frame of a
// document held up to the front camera, of the room or of a face far behind is never taken by itself. While the
// camera sees no such face the person is told so (watching.noFace, watching.faceTooSmall) and the Take photo
// button stays, as it always does.

/** How opening the camera failed (src/media/camera.ts cameraFailureOf): the camera-failure flag. */
export type CameraFailure = 'denied' | 'no-camera' | 'in-use' | 'insecure' | 'failed';

/** What startCamera rejects with. */
export interface CameraError {
  cameraFailure: CameraFailure;
}

/** Spec §5 image problems, as checkImage rejects with { code }. */
export type ImageCheckError =
  | 'image_too_small'
  | 'image_too_large'
  | 'image_wrong_type'
  | 'image_not_available';

/** The capture errors this machine reports in meta.captureError. */
export type CaptureError = 'camera_failure' | 'mount_failure' | 'detection_timeout' | ImageCheckError;

/** A photo ready to upload: JPEG or PNG within 5 kB – 5 MB (src/media/prepare-image.ts). */
export interface CapturedPhoto {
  blob: Blob;
  width: number;
  height: number;
}

export type Facing = 'environment' | 'user';

export interface CaptureInput {
  /** The rear camera for documents, the front one for selfies (default environment). */
  facing?: Facing;
  /** Sharp frames in a row that take the photo by themselves (default 3). */
  requiredSharpFrames?: number;
  /** Auto-capture waits for a face large enough in the frame (selfies; default false). */
  requireFace?: boolean;
}

/** What the face detector saw in a frame: a face large enough for a selfie, only a small one, or none. */
export type FaceSeen = 'present' | 'tooSmall' | 'absent';

export interface CaptureContext {
  facing: Facing;
  requiredSharpFrames: number;
  requireFace: boolean;
  /** Sharp frames in a row so far. */
  sharpFrames: number;
  stream: MediaStream | null;
  cameraFailure: CameraFailure | null;
  /** The picture being checked: a camera frame or the chosen file. */
  source: Blob | null;
  origin: 'camera' | 'file' | null;
  photo: CapturedPhoto | null;
}

export type CaptureEvent =
  /**
   * The screen scored a camera frame (src/media/frame-score.ts against SHARP_THRESHOLD) and, for a selfie, looked
   * for a face in it (src/media/face-detect.ts); `face` is left out when nobody looked or the detector failed.
   */
  | { type: 'frame.scored'; sharp: boolean; face?: FaceSeen }
  | { type: 'capture.take' }
  | { type: 'capture.retake' }
  | { type: 'capture.use' }
  /** Open the camera again after a failure. */
  | { type: 'capture.retry' }
  /** The camera view or scan widget could not be mounted (the video never played). */
  | { type: 'capture.mountFailed' }
  /** The file dialog opened over the live camera: auto-capture must not take a photo behind it. */
  | { type: 'filePicker.opened' }
  /** The file dialog closed (a file chosen, or cancelled). */
  | { type: 'filePicker.closed' }
  | { type: 'file.chosen'; file: Blob };

export const DEFAULT_SHARP_FRAMES = 3;

const CAMERA_FAILURES: readonly CameraFailure[] = ['denied', 'no-camera', 'in-use', 'insecure', 'failed'];

function cameraFailureOf(error: unknown): CameraFailure {
  const flag = (error as Partial<CameraError> | null)?.cameraFailure;
  return flag && CAMERA_FAILURES.includes(flag) ? flag : 'failed';
}

export const captureMachine = setup({
  types: {
    context: {} as CaptureContext,
    events: {} as CaptureEvent,
    input: {} as CaptureInput | undefined,
    output: {} as CapturedPhoto | null,
  },
  actors: {
    // Placeholders: src/actors/capture.ts provides them (src/media camera, photo and preparation).
    startCamera: fromPromise<MediaStream, { facing: Facing }>(async () => {
      throw new Error('startCamera is provided by src/actors/capture.ts');
    }),
    takePhoto: fromPromise<Blob, { stream: MediaStream | null }>(async () => {
      throw new Error('takePhoto is provided by src/actors/capture.ts');
    }),
    /**
     * Scores the frames of the live camera (and looks for a face when `requireFace`) and reports each as
     * frame.scored (nothing without a scorer).
     */
    watchFrames: fromCallback<AnyEventObject, { requireFace: boolean }>(() => {}),
    /** Prepare and validate (jpg/png, 5 kB – 5 MB); rejects with { code: ImageCheckError }. */
    checkImage: fromPromise<CapturedPhoto, { file: Blob }>(async () => {
      throw new Error('checkImage is provided by src/actors/capture.ts');
    }),
  },
  actions: {
    storeStream: assign({
      stream: ({ event }) => outputOf<MediaStream>(event),
      sharpFrames: 0,
      cameraFailure: null,
    }),
    storeCameraFailure: assign({
      cameraFailure: ({ event }) => cameraFailureOf(errorOf(event)),
    }),
    forgetStream: assign({ stream: null }),
    countSharpFrame: assign({ sharpFrames: ({ context }) => context.sharpFrames + 1 }),
    resetSharpFrames: assign({ sharpFrames: 0 }),
    storeChosenFile: assign(({ context, event }) =>
      event.type === 'file.chosen' ? { source: event.file, origin: 'file' as const } : context,
    ),
    storeCameraPhoto: assign({
      source: ({ event }) => outputOf<Blob>(event),
      origin: 'camera',
    }),
    storeCheckedPhoto: assign({
      photo: ({ event }) => outputOf<CapturedPhoto>(event),
      source: null,
    }),
    forgetPhoto: assign({ photo: null, origin: null }),
    /** Turns the camera off (context.stream); provided by src/actors/capture.ts. */
    stopCamera: () => {},
  },
  guards: {
    completesSharpRun: ({ context, event }) =>
      event.type === 'frame.scored' && event.sharp && context.sharpFrames + 1 >= context.requiredSharpFrames,
    isSharp: ({ event }) => event.type === 'frame.scored' && event.sharp,
    /** A selfie frame without a face, or one nobody could look at: it never counts towards auto-capture. */
    missesFace: ({ context, event }) =>
      context.requireFace &&
      event.type === 'frame.scored' &&
      event.face !== 'present' &&
      event.face !== 'tooSmall',
    showsSmallFace: ({ context, event }) =>
      context.requireFace && event.type === 'frame.scored' && event.face === 'tooSmall',
    hasCode: ({ event }, params: { code: ImageCheckError }) => errorCodeOf(event) === params.code,
  },
  delays: {
    detectionTimeout: 20000,
  },
}).createMachine({
  id: 'capture',
  description:
    'Taking one picture of a document side or a selfie (spec §2 DocumentScan, TakeSelfie, TakeSelfieAlive; spec §5 "Images 5 kB to 5 MB"; spec §8 "Camera failure, mount or detection timeout in the scan widgets calls the error handler with a distinct flag for camera failures"). Each failure is a state of its own with its code in meta.captureError, and from each (and from the live camera) the person may choose a file instead, which goes through the same checks.',
  context: ({ input }) => ({
    facing: input?.facing ?? 'environment',
    requiredSharpFrames: Math.max(1, input?.requiredSharpFrames ?? DEFAULT_SHARP_FRAMES),
    requireFace: input?.requireFace ?? false,
    sharpFrames: 0,
    stream: null,
    cameraFailure: null,
    source: null,
    origin: null,
    photo: null,
  }),
  initial: 'askingPermission',
  output: ({ context }) => context.photo,
  states: {
    askingPermission: {
      description: 'A spinner while the camera opens (the browser may ask the person for permission).',
      tags: ['busy'],
      invoke: {
        id: 'startCamera',
        src: 'startCamera',
        input: ({ context }) => ({ facing: context.facing }),
        onDone: { target: 'camera', actions: 'storeStream' },
        onError: { target: 'cameraFailed', actions: 'storeCameraFailure' },
      },
    },
    camera: {
      description: 'The live camera with a guide (a card frame, or an oval for a selfie).',
      initial: 'streaming',
      exit: ['stopCamera', 'forgetStream'],
      states: {
        streaming: {
          description:
            'The person frames the document or face; sharp frames in a row take the photo by themselves, or the Take photo button does; a file may be chosen instead.',
          tags: ['acceptsFile'],
          after: { detectionTimeout: '#capture.detectionTimedOut' },
          initial: 'watching',
          on: {
            'capture.take': 'taking',
            'capture.mountFailed': '#capture.mountFailed',
            'file.chosen': { target: '#capture.checking', actions: 'storeChosenFile' },
          },
          states: {
            watching: {
              description:
                'Frames are scored about four times a second for auto-capture (for a selfie, only frames with a face large enough count).',
              invoke: {
                id: 'watchFrames',
                src: 'watchFrames',
                input: ({ context }) => ({ requireFace: context.requireFace }),
              },
              initial: 'framing',
              on: {
                'frame.scored': [
                  { guard: 'missesFace', target: '.noFace', actions: 'resetSharpFrames' },
                  { guard: 'showsSmallFace', target: '.faceTooSmall', actions: 'resetSharpFrames' },
                  { guard: 'completesSharpRun', target: '#capture.camera.taking' },
                  { guard: 'isSharp', target: '.framing', actions: 'countSharpFrame' },
                  { target: '.framing', actions: 'resetSharpFrames' },
                ],
                'filePicker.opened': 'choosingFile',
              },
              states: {
                framing: {
                  description:
                    'The instruction and, where frames are scored, that the photo takes itself once the picture is steady.',
                },
                noFace: {
                  description:
                    'A selfie whose last frame shows no face: the hint to put the face in the oval or use the Take photo button; nothing is taken by itself.',
                  tags: ['faceMissing'],
                },
                faceTooSmall: {
                  description:
                    'A selfie whose last frame shows a face too small (too far, or a photo held up): the hint to come closer or use the Take photo button.',
                  tags: ['faceTooSmall'],
                },
              },
            },
            choosingFile: {
              description: 'The file dialog is open over the camera: no photo is taken behind it.',
              on: { 'filePicker.closed': 'watching' },
            },
          },
        },
        taking: {
          description: 'A spinner over the camera while the photo is taken.',
          tags: ['busy'],
          invoke: {
            id: 'takePhoto',
            src: 'takePhoto',
            input: ({ context }) => ({ stream: context.stream }),
            onDone: { target: '#capture.checking', actions: 'storeCameraPhoto' },
            onError: '#capture.rejected.imageNotAvailable',
          },
        },
      },
    },
    checking: {
      description: 'A spinner while the photo or file is prepared and checked (JPEG or PNG, 5 kB to 5 MB).',
      tags: ['busy'],
      invoke: {
        id: 'checkImage',
        src: 'checkImage',
        input: ({ context }) => ({ file: context.source ?? new Blob() }),
        onDone: { target: 'preview', actions: 'storeCheckedPhoto' },
        onError: [
          {
            guard: { type: 'hasCode', params: { code: 'image_too_small' } },
            target: 'rejected.imageTooSmall',
          },
          {
            guard: { type: 'hasCode', params: { code: 'image_too_large' } },
            target: 'rejected.imageTooLarge',
          },
          {
            guard: { type: 'hasCode', params: { code: 'image_wrong_type' } },
            target: 'rejected.imageWrongType',
          },
          { target: 'rejected.imageNotAvailable' },
        ],
      },
    },
    preview: {
      description: 'The photo, with what to check in it, and the buttons Use this photo and Take another.',
      on: {
        'capture.retake': { target: 'askingPermission', actions: 'forgetPhoto' },
        'capture.use': 'done',
      },
    },
    done: {
      description: 'The photo is accepted and handed to the screen, which sends it.',
      type: 'final',
    },
    cameraFailed: {
      description:
        'Error camera_failure: the camera could not be opened (the flag in context.cameraFailure says why: denied, no camera, in use, insecure page, failed); Try again, or choose a file.',
      tags: ['error', 'retryable', 'acceptsFile'],
      meta: { screen: 'DocumentScan', captureError: 'camera_failure' },
      on: {
        'capture.retry': 'askingPermission',
        'file.chosen': { target: 'checking', actions: 'storeChosenFile' },
      },
    },
    mountFailed: {
      description: 'Error mount_failure: the camera view did not start playing; Try again, or choose a file.',
      tags: ['error', 'retryable', 'acceptsFile'],
      meta: { screen: 'DocumentScan', captureError: 'mount_failure' },
      on: {
        'capture.retry': 'askingPermission',
        'file.chosen': { target: 'checking', actions: 'storeChosenFile' },
      },
    },
    detectionTimedOut: {
      description: 'Error detection_timeout: no photo was taken within 20 s; Try again, or choose a file.',
      tags: ['error', 'retryable', 'acceptsFile'],
      meta: { screen: 'DocumentScan', captureError: 'detection_timeout' },
      on: {
        'capture.retry': 'askingPermission',
        'file.chosen': { target: 'checking', actions: 'storeChosenFile' },
      },
    },
    rejected: {
      description:
        'The photo or file failed the image checks (spec §5): what was wrong, Try again, or choose another file.',
      tags: ['error', 'retryable', 'acceptsFile'],
      on: {
        'capture.retry': 'askingPermission',
        'file.chosen': { target: 'checking', actions: 'storeChosenFile' },
      },
      initial: 'imageNotAvailable',
      states: {
        imageTooSmall: {
          description: 'Error image_too_small: under 5 kB.',
          meta: { screen: 'DocumentScan', captureError: 'image_too_small' },
        },
        imageTooLarge: {
          description: 'Error image_too_large: over 5 MB.',
          meta: { screen: 'DocumentScan', captureError: 'image_too_large' },
        },
        imageWrongType: {
          description: 'Error image_wrong_type: not a JPEG or PNG picture.',
          meta: { screen: 'DocumentScan', captureError: 'image_wrong_type' },
        },
        imageNotAvailable: {
          description: 'Error image_not_available: the picture could not be read or taken.',
          meta: { screen: 'DocumentScan', captureError: 'image_not_available' },
        },
      },
    },
  },
});
