import { assign, fromPromise, setup } from 'xstate';
import type { PortrayalErrorCode, PortrayalResult } from '../contract/api/onboarding';
import type { PortrayalFailure } from '../contract/domain/enrolment';

// The result of a portrayal (spec §7 Portrayals, §9): GET /internal/portrayals/{id} every 2 s until it is no
// longer 404, giving up 16 s after the first request. Each result error of spec §8 ends in its own final
// state; the enrolment machine invokes this one as a child and reads its output.

// Named actions and guards read the done event of the fetch, which the machine's event union does not list.
const fetchedOf = (event: unknown): PortrayalFetch => (event as { output: PortrayalFetch }).output;

/** What one GET answered: 404 (not computed yet), the result, or a 422 naming the error. */
export type PortrayalFetch =
  | { status: 'pending' }
  | { status: 'done'; result: PortrayalResult }
  | { status: 'error'; code: string };

export type PortrayalResultOutput =
  | { status: 'done'; result: PortrayalResult }
  | { status: 'failed'; failure: PortrayalFailure };

export interface PortrayalResultInput {
  portrayalId: string;
}

export interface PortrayalResultContext {
  portrayalId: string;
  /** Requests made so far (the first at 0 s, then one 2 s after each answer). */
  attempts: number;
  result: PortrayalResult | null;
}

export const portrayalResultMachine = setup({
  types: {
    context: {} as PortrayalResultContext,
    input: {} as PortrayalResultInput,
    output: {} as PortrayalResultOutput,
  },
  actors: {
    // Placeholder: src/app provides the GET, mapping 404 to pending and a 422 problem to its reason.
    fetchPortrayalResult: fromPromise<PortrayalFetch, { portrayalId: string }>(async () => {
      throw new Error('fetchPortrayalResult is provided by the app');
    }),
  },
  actions: {
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    storeResult: assign({
      result: ({ event }) => {
        const fetched = fetchedOf(event);
        return fetched.status === 'done' ? fetched.result : null;
      },
    }),
  },
  guards: {
    isFound: ({ event }) => fetchedOf(event).status === 'done',
    isPending: ({ event }) => fetchedOf(event).status === 'pending',
    hasCode: ({ event }, params: { code: PortrayalErrorCode }) => {
      const fetched = fetchedOf(event);
      return fetched.status === 'error' && fetched.code === params.code;
    },
  },
  delays: {
    pollInterval: 2000,
    pollTimeout: 16000,
  },
}).createMachine({
  id: 'portrayalResult',
  description:
    'Spec §7 Portrayals: GET /internal/portrayals/{id} polled every 2 s until it is no longer 404, with a 16 s timeout; spec §8 portrayal result errors blurred_image_error, document_classification_error, spoofed_image_error, validas_error, plus the timeout; the selfie errors no_face_error and multiple_faces_error of the reference engine. The enrolment shows ReviewRegister, waiting, meanwhile.',
  context: ({ input }) => ({ portrayalId: input.portrayalId, attempts: 0, result: null }),
  initial: 'polling',
  output: ({ event }) => event.output as PortrayalResultOutput,
  states: {
    polling: {
      tags: ['busy'],
      after: { pollTimeout: 'timeout' },
      initial: 'fetching',
      states: {
        fetching: {
          description: 'One GET /internal/portrayals/{id} is out.',
          entry: 'countAttempt',
          invoke: {
            id: 'fetchPortrayalResult',
            src: 'fetchPortrayalResult',
            input: ({ context }) => ({ portrayalId: context.portrayalId }),
            onDone: [
              { guard: 'isFound', target: '#portrayalResult.done', actions: 'storeResult' },
              { guard: 'isPending', target: 'waiting' },
              {
                guard: { type: 'hasCode', params: { code: 'blurred_image_error' } },
                target: '#portrayalResult.blurredImage',
              },
              {
                guard: { type: 'hasCode', params: { code: 'document_classification_error' } },
                target: '#portrayalResult.documentClassification',
              },
              {
                guard: { type: 'hasCode', params: { code: 'spoofed_image_error' } },
                target: '#portrayalResult.spoofedImage',
              },
              {
                guard: { type: 'hasCode', params: { code: 'validas_error' } },
                target: '#portrayalResult.validasError',
              },
              {
                guard: { type: 'hasCode', params: { code: 'no_face_error' } },
                target: '#portrayalResult.noFace',
              },
              {
                guard: { type: 'hasCode', params: { code: 'multiple_faces_error' } },
                target: '#portrayalResult.multipleFaces',
              },
              // An error code this portal does not know.
              { target: '#portrayalResult.unknownError' },
            ],
            // The network or the server failed this once: ask again until the timeout.
            onError: 'waiting',
          },
        },
        waiting: {
          description: 'The result is not computed yet (404): the next GET in 2 s.',
          after: { pollInterval: 'fetching' },
        },
      },
    },
    done: {
      description: 'The result is in: the enrolment shows it on ReviewRegister.',
      type: 'final',
      output: ({ context }): PortrayalResultOutput =>
        context.result
          ? { status: 'done', result: context.result }
          : { status: 'failed', failure: 'unknown' },
    },
    timeout: {
      description: 'Error timeout: no result within 16 s (DocumentScan, the undefined failure screen).',
      meta: { errorCode: 'timeout' },
      type: 'final',
      output: { status: 'failed', failure: 'timeout' },
    },
    blurredImage: {
      description: 'Error blurred_image_error (DocumentScan, the blurred failure screen).',
      meta: { errorCode: 'blurred_image_error' },
      type: 'final',
      output: { status: 'failed', failure: 'blurred_image_error' },
    },
    documentClassification: {
      description: 'Error document_classification_error (DocumentScan, the classification failure screen).',
      meta: { errorCode: 'document_classification_error' },
      type: 'final',
      output: { status: 'failed', failure: 'document_classification_error' },
    },
    spoofedImage: {
      description: 'Error spoofed_image_error (DocumentScan, the analysis failure screen).',
      meta: { errorCode: 'spoofed_image_error' },
      type: 'final',
      output: { status: 'failed', failure: 'spoofed_image_error' },
    },
    validasError: {
      description: 'Error validas_error (DocumentScan, the analysis failure screen).',
      meta: { errorCode: 'validas_error' },
      type: 'final',
      output: { status: 'failed', failure: 'validas_error' },
    },
    noFace: {
      description: 'Error no_face_error: no face in the selfie (TakeSelfie, retake).',
      meta: { errorCode: 'no_face_error' },
      type: 'final',
      output: { status: 'failed', failure: 'no_face_error' },
    },
    multipleFaces: {
      description: 'Error multiple_faces_error: more than one face in the selfie (TakeSelfie, retake).',
      meta: { errorCode: 'multiple_faces_error' },
      type: 'final',
      output: { status: 'failed', failure: 'multiple_faces_error' },
    },
    unknownError: {
      description:
        'Error unknown: an error code this portal does not know (DocumentScan, the unknown failure screen).',
      meta: { errorCode: 'unknown' },
      type: 'final',
      output: { status: 'failed', failure: 'unknown' },
    },
  },
});
