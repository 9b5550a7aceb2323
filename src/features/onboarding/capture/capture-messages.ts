import { defineMessages, type MessageDescriptor } from 'react-intl';
import type { CameraFailure, CaptureError } from '../../../../machines/capture.machine';

export type CapturePurpose = 'obverse' | 'reverse' | 'selfie';

export const messages = defineMessages({
  auto: { id: 'capture.auto' },
  autoSelfie: { id: 'capture.auto.selfie' },
  cameraLabel: { id: 'capture.camera.label' },
  checking: { id: 'capture.checking' },
  done: { id: 'capture.done' },
  file: { id: 'capture.file' },
  fileHint: { id: 'capture.file.hint' },
  retake: { id: 'capture.retake' },
  retry: { id: 'capture.retry' },
  sending: { id: 'capture.sending' },
  starting: { id: 'capture.starting' },
  take: { id: 'capture.take' },
  taking: { id: 'capture.taking' },
  use: { id: 'capture.use' },
});

export const instructions: Record<CapturePurpose, MessageDescriptor> = defineMessages({
  obverse: { id: 'capture.instruction.obverse' },
  reverse: { id: 'capture.instruction.reverse' },
  selfie: { id: 'capture.instruction.selfie' },
});

/** Why a selfie is not taking itself (the capture machine's watching.noFace and watching.faceTooSmall). */
export const faceHints: Record<'missing' | 'tooSmall', MessageDescriptor> = defineMessages({
  missing: { id: 'capture.face.missing' },
  tooSmall: { id: 'capture.face.tooSmall' },
});

export const previewAlts: Record<CapturePurpose, MessageDescriptor> = defineMessages({
  obverse: { id: 'capture.preview.alt.obverse' },
  reverse: { id: 'capture.preview.alt.reverse' },
  selfie: { id: 'capture.preview.alt.selfie' },
});

export const previewChecks: Record<'document' | 'selfie', MessageDescriptor> = defineMessages({
  document: { id: 'capture.preview.check.document' },
  selfie: { id: 'capture.preview.check.selfie' },
});

/** One title and hint per problem; camera failures are told apart by their flag (spec §8). */
export type CaptureProblem = Exclude<CaptureError, 'camera_failure'> | `camera_${CameraFailure}`;

export const problems: Record<CaptureProblem, { title: MessageDescriptor; hint: MessageDescriptor }> = {
  camera_denied: defineMessages({
    title: { id: 'capture.error.cameraDenied.title' },
    hint: { id: 'capture.error.cameraDenied.hint' },
  }),
  'camera_no-camera': defineMessages({
    title: { id: 'capture.error.noCamera.title' },
    hint: { id: 'capture.error.noCamera.hint' },
  }),
  'camera_in-use': defineMessages({
    title: { id: 'capture.error.cameraInUse.title' },
    hint: { id: 'capture.error.cameraInUse.hint' },
  }),
  camera_insecure: defineMessages({
    title: { id: 'capture.error.cameraInsecure.title' },
    hint: { id: 'capture.error.cameraInsecure.hint' },
  }),
  camera_failed: defineMessages({
    title: { id: 'capture.error.cameraFailed.title' },
    hint: { id: 'capture.error.cameraFailed.hint' },
  }),
  mount_failure: defineMessages({
    title: { id: 'capture.error.mountFailure.title' },
    hint: { id: 'capture.error.mountFailure.hint' },
  }),
  detection_timeout: defineMessages({
    title: { id: 'capture.error.detectionTimeout.title' },
    hint: { id: 'capture.error.detectionTimeout.hint' },
  }),
  image_too_small: defineMessages({
    title: { id: 'capture.error.imageTooSmall.title' },
    hint: { id: 'capture.error.imageTooSmall.hint' },
  }),
  image_too_large: defineMessages({
    title: { id: 'capture.error.imageTooLarge.title' },
    hint: { id: 'capture.error.imageTooLarge.hint' },
  }),
  image_wrong_type: defineMessages({
    title: { id: 'capture.error.imageWrongType.title' },
    hint: { id: 'capture.error.imageWrongType.hint' },
  }),
  image_not_available: defineMessages({
    title: { id: 'capture.error.imageNotAvailable.title' },
    hint: { id: 'capture.error.imageNotAvailable.hint' },
  }),
};

export function problemOf(error: CaptureError, cameraFailure: CameraFailure | null): CaptureProblem {
  return error === 'camera_failure' ? `camera_${cameraFailure ?? 'failed'}` : error;
}
