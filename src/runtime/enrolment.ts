// The enrolment flow's handle as the screens see it (ARCHITECTURE.md, flow screens): its actor, the pictures kept
// beside it and the upload's progress. Pure types: src/actors/enrolment.ts builds it, src/app registers it by id
// (`enrolment` in src/runtime/machines.ts), and the screens of the flow read it.
import type { ActorRefFrom } from 'xstate';
import type { enrolmentMachine } from '../../machines/enrolment.machine';
import type { CapturedImage } from '../../machines/image-upload.machine';

export type EnrolmentActor = ActorRefFrom<typeof enrolmentMachine>;

/** Pictures by ref: one photo, or the frames of a liveness proof. */
export type ImageStore = Map<string, Blob | Blob[]>;

/** Upload progress (0–1) of the picture being sent, for the screens; null when nothing is uploading. */
export interface UploadProgress {
  get(): number | null;
  subscribe(listener: () => void): () => void;
}

export interface EnrolmentRuntime {
  /** The enrolment of whoever is signed in (made, or restored from storage, on first use). */
  actor(): EnrolmentActor | undefined;
  images: ImageStore;
  progress: UploadProgress;
  /** Keeps a picture in the store and returns its ref for `image.captured`. */
  keep(image: Blob | Blob[]): CapturedImage;
}
