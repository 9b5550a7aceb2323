import { assign, fromPromise, setup } from 'xstate';
import type { ImageRefusalCode } from '../contract/api/image-refusals';
import type { Challenge, ImageKind } from '../contract/api/onboarding';
import { errorCodeOf } from './actor-events';

// One picture of an enrolment (spec §7 PUT /internal/portrayals/{id}/obverse|reverse|selfie|lifeproof): take
// it, send it, and say what went wrong (spec §5: upload failed → re-upload, image not available → take it
// again; a picture the server refuses for what it is, in the words of its code → take another). The enrolment
// machine invokes it once per picture with the kind it needs; the liveness proof
// (lifeproof) first asks for its challenge (spec §7 POST /internal/challenges). A server busy with other
// pictures answers 429 busy with a Retry-After: the same picture is sent again then, by itself, a few times at
// most. It ends when the server has the picture.

/** A captured picture (or liveness proof): its key in the app's in-memory image store. */
export interface CapturedImage {
  ref: string;
}

export interface ImageUploadInput {
  kind: ImageKind;
  portrayalId: string;
}

export interface UploadImageInput {
  portrayalId: string;
  kind: ImageKind;
  image: CapturedImage;
  /** The liveness challenge the proof answers (kind lifeproof). */
  challengeId: string | null;
}

/**
 * What uploadImage rejects with; image_not_available when the store no longer has the picture, busy (429) with
 * the seconds the server asked to wait, image_refused with the server's code (refusal) when it refused the
 * picture itself.
 */
export interface UploadError {
  code?: string;
  retryAfter?: number;
  refusal?: ImageRefusalCode;
}

/** Sends of one picture the server may answer busy before the person is asked to send it again. */
export const BUSY_RETRIES = 5;
/** Seconds to wait when a busy answer names none. */
const BUSY_WAIT_SECONDS = 2;

export interface ImageUploadContext {
  kind: ImageKind;
  portrayalId: string;
  /** The picture being sent, kept until the upload succeeds so that a failed upload can be re-sent. */
  image: CapturedImage | null;
  challenge: Challenge | null;
  /** Busy answers to the current picture so far, and how long the last one asked to wait (ms). */
  busyAnswers: number;
  retryAfterMs: number;
  /** Why the server refused the last picture (imageRefused), null otherwise. */
  refusal: ImageRefusalCode | null;
}

export type ImageUploadEvent =
  /** The screen has its picture (in the image store under image.ref). */
  { type: 'image.captured'; image: CapturedImage } | { type: 'upload.retry' } | { type: 'challenge.retry' };

export interface ImageUploadOutput {
  kind: ImageKind;
}

export const imageUploadMachine = setup({
  types: {
    context: {} as ImageUploadContext,
    events: {} as ImageUploadEvent,
    input: {} as ImageUploadInput,
    output: {} as ImageUploadOutput,
  },
  actors: {
    // Placeholders: src/actors provides the real calls (src/api portrayals).
    uploadImage: fromPromise<void, UploadImageInput>(async () => {
      throw new Error('uploadImage is provided by the app');
    }),
    requestChallenge: fromPromise<Challenge, { length: number; expiration: number }>(async () => {
      throw new Error('requestChallenge is provided by the app');
    }),
  },
  delays: {
    /** As long as the server's Retry-After asked. */
    busyRetry: ({ context }) => context.retryAfterMs,
  },
  actions: {
    /** Save the enrolment (this machine is part of its snapshot) once this step has settled. */
    persist: () => {},
    keepImage: assign({
      image: ({ event }) => (event.type === 'image.captured' ? event.image : null),
      busyAnswers: 0,
    }),
    forgetImage: assign({ image: null, busyAnswers: 0 }),
    storeBusy: assign({
      busyAnswers: ({ context }) => context.busyAnswers + 1,
      retryAfterMs: ({ event }) => {
        const seconds = (event as unknown as { error?: UploadError }).error?.retryAfter;
        return (typeof seconds === 'number' && seconds > 0 ? seconds : BUSY_WAIT_SECONDS) * 1000;
      },
    }),
    storeChallenge: assign({
      challenge: ({ event }) => (event as unknown as { output: Challenge }).output,
    }),
    storeRefusal: assign({
      refusal: ({ event }) => (event as unknown as { error?: UploadError }).error?.refusal ?? null,
    }),
    forgetRefusal: assign({ refusal: null }),
  },
  guards: {
    isLifeproof: ({ context }) => context.kind === 'lifeproof',
    isBusyAndMayRetry: ({ context, event }) =>
      ((event as unknown as { error?: UploadError }).error ?? null)?.code === 'busy' &&
      context.busyAnswers < BUSY_RETRIES,
    hasCode: ({ event }, params: { code: 'image_not_available' | 'image_refused' }) =>
      errorCodeOf(event) === params.code,
  },
}).createMachine({
  id: 'imageUpload',
  description:
    'Spec §5 and §7: one picture of the enrolment (obverse, reverse, selfie or the liveness proof) is taken and sent to PUT /internal/portrayals/{id}/{kind}; a server busy with other pictures (429 busy) gets the same picture again after its Retry-After, a failed upload is re-sent, a picture no longer available is taken again, a picture the server refuses for what it is (image_refused) is taken again after its code is shown in words.',
  context: ({ input }) => ({
    kind: input.kind,
    portrayalId: input.portrayalId,
    image: null,
    challenge: null,
    busyAnswers: 0,
    retryAfterMs: 0,
    refusal: null,
  }),
  initial: 'routing',
  output: ({ context }) => ({ kind: context.kind }),
  states: {
    routing: {
      always: [{ guard: 'isLifeproof', target: 'requestingChallenge' }, { target: 'capturing' }],
    },
    requestingChallenge: {
      description:
        'TakeSelfieAlive: a spinner while the liveness challenge (three actions, one minute) is fetched.',
      tags: ['busy'],
      invoke: {
        id: 'requestChallenge',
        src: 'requestChallenge',
        input: { length: 3, expiration: 60 },
        onDone: { target: 'capturing', actions: 'storeChallenge' },
        onError: 'challengeUnavailable',
      },
    },
    challengeUnavailable: {
      description:
        'TakeSelfieAlive, error challenge_unavailable: the liveness challenge could not be fetched; a retry button asks again.',
      meta: { errorCode: 'challenge_unavailable', challengeError: 'challenge_unavailable' },
      on: { 'challenge.retry': 'requestingChallenge' },
    },
    capturing: {
      description:
        'The camera of the screen that invoked this upload (DocumentScan obverse or reverse, TakeSelfie, TakeSelfieAlive with the challenge actions).',
      entry: 'persist',
      on: { 'image.captured': { target: 'uploading', actions: 'keepImage' } },
    },
    uploading: {
      description: 'The picture is on its way: a progress bar.',
      tags: ['busy'],
      invoke: {
        id: 'uploadImage',
        src: 'uploadImage',
        input: ({ context }) => ({
          portrayalId: context.portrayalId,
          kind: context.kind,
          image: context.image ?? { ref: '' },
          challengeId: context.kind === 'lifeproof' ? (context.challenge?.challenge_id ?? null) : null,
        }),
        onDone: { target: 'uploaded', actions: ['forgetImage', 'forgetRefusal'] },
        onError: [
          {
            guard: { type: 'hasCode', params: { code: 'image_not_available' } },
            target: 'imageNotAvailable',
            actions: 'forgetImage',
          },
          { guard: 'isBusyAndMayRetry', target: 'busy', actions: 'storeBusy' },
          {
            guard: { type: 'hasCode', params: { code: 'image_refused' } },
            target: 'imageRefused',
            actions: ['storeRefusal', 'forgetImage'],
          },
          { target: 'uploadFailed' },
        ],
      },
    },
    busy: {
      description:
        'Error busy: the server is busy with other pictures (429, with a Retry-After); "busy, sending it again" shows and the same picture goes again once the wait is over, at most five times before it counts as upload_failed.',
      meta: { errorCode: 'busy', uploadError: 'busy' },
      tags: ['busy'],
      after: { busyRetry: 'uploading' },
      on: {
        // The person need not wait: send it now, or another picture.
        'upload.retry': 'uploading',
        'image.captured': { target: 'uploading', actions: 'keepImage' },
      },
    },
    uploadFailed: {
      description:
        'Error upload_failed: the upload failed (network, or the server refused the request, not the picture itself); the person re-sends the same picture or takes another.',
      meta: { errorCode: 'upload_failed', uploadError: 'upload_failed' },
      entry: 'persist',
      on: {
        'upload.retry': 'uploading',
        'image.captured': { target: 'uploading', actions: 'keepImage' },
      },
    },
    imageRefused: {
      description:
        'Error image_refused: the server refused the picture itself (image_wrong_type, image_too_small, image_too_large, image_too_many_pixels, image_unreadable…, kept in refusal); the words of its code show above the camera, and another picture is taken: sending the same one again would be refused again.',
      meta: { errorCode: 'image_refused', uploadError: 'image_refused' },
      entry: 'persist',
      on: { 'image.captured': { target: 'uploading', actions: 'keepImage' } },
    },
    imageNotAvailable: {
      description:
        'Error image_not_available: the picture is gone (a reload empties the in-memory image store); the camera asks for it again.',
      meta: { errorCode: 'image_not_available', uploadError: 'image_not_available' },
      entry: 'persist',
      on: { 'image.captured': { target: 'uploading', actions: 'keepImage' } },
    },
    uploaded: {
      description: 'The server has the picture: the enrolment goes on to its next step.',
      type: 'final',
    },
  },
});
