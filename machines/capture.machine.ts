import { assign, fromPromise, setup } from 'xstate';

// Taking one picture for a scan or a selfie (spec §2 DocumentScan, TakeSelfie, TakeSelfieAlive; §5 image
// rules; §8 "camera failure, mount or detection timeout in the scan widgets … with a distinct flag for camera
// failures"). The screen that shows the camera runs this machine; when it is done the screen hands the photo
// to the enrolment machine. Camera failures, a widget that does not mount and a detection timeout are states
// of their own, and from each of them (and from the live camera) the person may choose a file instead, which
// goes through the same checks as a photo.
//
// meta.screen on the failure states is DocumentScan, the screen whose texts the spec gives for these errors;
// the selfie screens run the same machine and read meta.captureError only (the router follows the enrolment
// machine, not this one).

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
}

export interface CaptureContext {
  facing: Facing;
  requiredSharpFrames: number;
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
  /** The screen scored a camera frame (src/media/frame-score.ts against SHARP_THRESHOLD). */
  | { type: 'frame.scored'; sharp: boolean }
  | { type: 'capture.take' }
  | { type: 'capture.retake' }
  | { type: 'capture.use' }
  /** Open the camera again after a failure. */
  | { type: 'capture.retry' }
  /** The camera view or scan widget could not be mounted (the video never played). */
  | { type: 'capture.mountFailed' }
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
    // Placeholders: the screen provides them (src/media camera, photo and preparation).
    startCamera: fromPromise<MediaStream, { facing: Facing }>(async () => {
      throw new Error('startCamera is provided by the screen');
    }),
    takePhoto: fromPromise<Blob, { stream: MediaStream | null }>(async () => {
      throw new Error('takePhoto is provided by the screen');
    }),
    /** Prepare and validate (jpg/png, 5 kB – 5 MB); rejects with { code: ImageCheckError }. */
    checkImage: fromPromise<CapturedPhoto, { file: Blob }>(async () => {
      throw new Error('checkImage is provided by the screen');
    }),
  },
  actions: {
    stopCamera: (_, _params: { stream: MediaStream | null }) => {},
  },
  guards: {
    completesSharpRun: ({ context }, params: { sharp: boolean }) =>
      params.sharp && context.sharpFrames + 1 >= context.requiredSharpFrames,
    isSharp: (_, params: { sharp: boolean }) => params.sharp,
    hasCheckError: (_, params: { error: unknown; code: ImageCheckError }) =>
      (params.error as { code?: unknown } | null)?.code === params.code,
  },
  delays: {
    detectionTimeout: 20000,
  },
}).createMachine({
  id: 'capture',
  context: ({ input }) => ({
    facing: input?.facing ?? 'environment',
    requiredSharpFrames: Math.max(1, input?.requiredSharpFrames ?? DEFAULT_SHARP_FRAMES),
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
      tags: ['loading'],
      invoke: {
        id: 'startCamera',
        src: 'startCamera',
        input: ({ context }) => ({ facing: context.facing }),
        onDone: {
          target: 'camera',
          actions: assign({ stream: ({ event }) => event.output, sharpFrames: 0, cameraFailure: null }),
        },
        onError: {
          target: 'cameraFailed',
          actions: assign({ cameraFailure: ({ event }) => cameraFailureOf(event.error) }),
        },
      },
    },
    camera: {
      initial: 'streaming',
      exit: [
        { type: 'stopCamera', params: ({ context }) => ({ stream: context.stream }) },
        assign({ stream: null }),
      ],
      states: {
        streaming: {
          after: { detectionTimeout: '#capture.detectionTimedOut' },
          on: {
            'frame.scored': [
              {
                guard: { type: 'completesSharpRun', params: ({ event }) => ({ sharp: event.sharp }) },
                target: 'taking',
              },
              {
                guard: { type: 'isSharp', params: ({ event }) => ({ sharp: event.sharp }) },
                actions: assign({ sharpFrames: ({ context }) => context.sharpFrames + 1 }),
              },
              { actions: assign({ sharpFrames: 0 }) },
            ],
            'capture.take': 'taking',
            'capture.mountFailed': '#capture.mountFailed',
            'file.chosen': {
              target: '#capture.checking',
              actions: assign({ source: ({ event }) => event.file, origin: 'file' }),
            },
          },
        },
        taking: {
          tags: ['loading'],
          invoke: {
            id: 'takePhoto',
            src: 'takePhoto',
            input: ({ context }) => ({ stream: context.stream }),
            onDone: {
              target: '#capture.checking',
              actions: assign({ source: ({ event }) => event.output, origin: 'camera' }),
            },
            onError: '#capture.rejected.imageNotAvailable',
          },
        },
      },
    },
    checking: {
      tags: ['loading'],
      invoke: {
        id: 'checkImage',
        src: 'checkImage',
        input: ({ context }) => ({ file: context.source ?? new Blob() }),
        onDone: {
          target: 'preview',
          actions: assign({ photo: ({ event }) => event.output, source: null }),
        },
        onError: [
          {
            guard: {
              type: 'hasCheckError',
              params: ({ event }) => ({ error: event.error, code: 'image_too_small' }),
            },
            target: 'rejected.imageTooSmall',
          },
          {
            guard: {
              type: 'hasCheckError',
              params: ({ event }) => ({ error: event.error, code: 'image_too_large' }),
            },
            target: 'rejected.imageTooLarge',
          },
          {
            guard: {
              type: 'hasCheckError',
              params: ({ event }) => ({ error: event.error, code: 'image_wrong_type' }),
            },
            target: 'rejected.imageWrongType',
          },
          { target: 'rejected.imageNotAvailable' },
        ],
      },
    },
    preview: {
      on: {
        'capture.retake': { target: 'askingPermission', actions: assign({ photo: null, origin: null }) },
        'capture.use': 'done',
      },
    },
    done: {
      type: 'final',
    },
    cameraFailed: {
      meta: { screen: 'DocumentScan', captureError: 'camera_failure' },
      on: {
        'capture.retry': 'askingPermission',
        'file.chosen': {
          target: 'checking',
          actions: assign({ source: ({ event }) => event.file, origin: 'file' }),
        },
      },
    },
    mountFailed: {
      meta: { screen: 'DocumentScan', captureError: 'mount_failure' },
      on: {
        'capture.retry': 'askingPermission',
        'file.chosen': {
          target: 'checking',
          actions: assign({ source: ({ event }) => event.file, origin: 'file' }),
        },
      },
    },
    detectionTimedOut: {
      meta: { screen: 'DocumentScan', captureError: 'detection_timeout' },
      on: {
        'capture.retry': 'askingPermission',
        'file.chosen': {
          target: 'checking',
          actions: assign({ source: ({ event }) => event.file, origin: 'file' }),
        },
      },
    },
    rejected: {
      on: {
        'capture.retry': 'askingPermission',
        'file.chosen': {
          target: 'checking',
          actions: assign({ source: ({ event }) => event.file, origin: 'file' }),
        },
      },
      initial: 'imageNotAvailable',
      states: {
        imageTooSmall: {
          meta: { screen: 'DocumentScan', captureError: 'image_too_small' },
        },
        imageTooLarge: {
          meta: { screen: 'DocumentScan', captureError: 'image_too_large' },
        },
        imageWrongType: {
          meta: { screen: 'DocumentScan', captureError: 'image_wrong_type' },
        },
        imageNotAvailable: {
          meta: { screen: 'DocumentScan', captureError: 'image_not_available' },
        },
      },
    },
  },
});
