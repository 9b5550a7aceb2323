import { describe, expect, it } from 'vitest';
import { type CaptureError, type CaptureEvent, captureMachine } from '../../machines/capture.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

const stream = {} as MediaStream;
const file = new Blob([new Uint8Array(8)], { type: 'image/jpeg' });
const photo = { blob: file, width: 1600, height: 1000 };

const CAPTURE_ERRORS: CaptureError[] = [
  'camera_failure',
  'mount_failure',
  'detection_timeout',
  'image_too_small',
  'image_too_large',
  'image_wrong_type',
  'image_not_available',
];

const spec: ModelSpec<typeof captureMachine> = {
  machine: captureMachine,
  input: { facing: 'environment', requiredSharpFrames: 3 },
  events: () => [
    { type: 'xstate.done.actor.startCamera', output: stream },
    { type: 'xstate.error.actor.startCamera', error: { cameraFailure: 'denied' } },
    { type: 'frame.scored', sharp: true } satisfies CaptureEvent,
    { type: 'frame.scored', sharp: false } satisfies CaptureEvent,
    { type: 'capture.take' } satisfies CaptureEvent,
    { type: 'capture.mountFailed' } satisfies CaptureEvent,
    { type: 'filePicker.opened' } satisfies CaptureEvent,
    { type: 'filePicker.closed' } satisfies CaptureEvent,
    { type: 'file.chosen', file } satisfies CaptureEvent,
    { type: 'xstate.done.actor.takePhoto', output: file },
    { type: 'xstate.error.actor.takePhoto', error: new Error('no photo') },
    { type: 'xstate.done.actor.checkImage', output: photo },
    { type: 'xstate.error.actor.checkImage', error: { code: 'image_too_small' } },
    { type: 'xstate.error.actor.checkImage', error: { code: 'image_too_large' } },
    { type: 'xstate.error.actor.checkImage', error: { code: 'image_wrong_type' } },
    { type: 'xstate.error.actor.checkImage', error: { code: 'image_not_available' } },
    { type: 'capture.retake' } satisfies CaptureEvent,
    { type: 'capture.use' } satisfies CaptureEvent,
    { type: 'capture.retry' } satisfies CaptureEvent,
    { type: 'xstate.after.detectionTimeout.capture.camera.streaming' },
  ],
  // Sharp frames in a row decide when the photo takes itself.
  serialize: (s) => ({ value: s.value, sharp: s.context.sharpFrames, status: s.status }),
  provide: (control) =>
    captureMachine.provide({
      actors: {
        startCamera: control.actor('startCamera'),
        takePhoto: control.actor('takePhoto'),
        checkImage: control.actor('checkImage'),
      },
    }),
  errorCodes: { expected: CAPTURE_ERRORS, read: codesInMeta('captureError') },
};

// A selfie: auto-capture waits for a face large enough (watching.noFace, watching.faceTooSmall).
const selfieSpec: ModelSpec<typeof captureMachine> = {
  ...spec,
  input: { facing: 'user', requiredSharpFrames: 3, requireFace: true },
  events: (snapshot) => [
    ...spec.events(snapshot),
    { type: 'frame.scored', sharp: true, face: 'present' } satisfies CaptureEvent,
    { type: 'frame.scored', sharp: true, face: 'tooSmall' } satisfies CaptureEvent,
    { type: 'frame.scored', sharp: true, face: 'absent' } satisfies CaptureEvent,
    { type: 'frame.scored', sharp: false, face: 'present' } satisfies CaptureEvent,
  ],
};

describe('capture machine (generated paths)', () => {
  it('covers every transition and every capture error on a real actor', async () => {
    const report = await coverMachine([spec, selfieSpec]);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });
});
