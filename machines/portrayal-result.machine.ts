import { assign, fromPromise, setup } from 'xstate';
import type { PortrayalErrorCode, PortrayalResult } from '../src/api/contract/onboarding';
import type { PortrayalFailure } from '../src/domain/enrolment';

// The result of a portrayal (spec §7 Portrayals, §9): GET /internal/portrayals/{id} every 2 s until it is no
// longer 404, giving up 16 s after the first request. Each result error of spec §8 ends in its own final
// state; the enrolment machine invokes this one as a child and reads its output.

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
  guards: {
    isFound: (_, params: { fetched: PortrayalFetch }) => params.fetched.status === 'done',
    isPending: (_, params: { fetched: PortrayalFetch }) => params.fetched.status === 'pending',
    hasErrorCode: (_, params: { fetched: PortrayalFetch; code: PortrayalErrorCode }) =>
      params.fetched.status === 'error' && params.fetched.code === params.code,
  },
  delays: {
    pollInterval: 2000,
    pollTimeout: 16000,
  },
}).createMachine({
  id: 'portrayalResult',
  context: ({ input }) => ({ portrayalId: input.portrayalId, attempts: 0, result: null }),
  initial: 'polling',
  output: ({ event }) => event.output as PortrayalResultOutput,
  states: {
    polling: {
      tags: ['loading'],
      after: { pollTimeout: 'timeout' },
      initial: 'fetching',
      states: {
        fetching: {
          entry: assign({ attempts: ({ context }) => context.attempts + 1 }),
          invoke: {
            id: 'fetchPortrayalResult',
            src: 'fetchPortrayalResult',
            input: ({ context }) => ({ portrayalId: context.portrayalId }),
            onDone: [
              {
                guard: { type: 'isFound', params: ({ event }) => ({ fetched: event.output }) },
                target: '#portrayalResult.done',
                actions: assign({
                  result: ({ event }) => (event.output.status === 'done' ? event.output.result : null),
                }),
              },
              {
                guard: { type: 'isPending', params: ({ event }) => ({ fetched: event.output }) },
                target: 'waiting',
              },
              {
                guard: {
                  type: 'hasErrorCode',
                  params: ({ event }) => ({ fetched: event.output, code: 'blurred_image_error' }),
                },
                target: '#portrayalResult.blurredImage',
              },
              {
                guard: {
                  type: 'hasErrorCode',
                  params: ({ event }) => ({ fetched: event.output, code: 'document_classification_error' }),
                },
                target: '#portrayalResult.documentClassification',
              },
              {
                guard: {
                  type: 'hasErrorCode',
                  params: ({ event }) => ({ fetched: event.output, code: 'spoofed_image_error' }),
                },
                target: '#portrayalResult.spoofedImage',
              },
              {
                guard: {
                  type: 'hasErrorCode',
                  params: ({ event }) => ({ fetched: event.output, code: 'validas_error' }),
                },
                target: '#portrayalResult.validasError',
              },
              // An error code this portal does not know.
              { target: '#portrayalResult.unknownError' },
            ],
            // The network or the server failed this once: ask again until the timeout.
            onError: 'waiting',
          },
        },
        waiting: {
          after: { pollInterval: 'fetching' },
        },
      },
    },
    done: {
      type: 'final',
      output: ({ context }): PortrayalResultOutput =>
        context.result
          ? { status: 'done', result: context.result }
          : { status: 'failed', failure: 'unknown' },
    },
    timeout: {
      type: 'final',
      output: { status: 'failed', failure: 'timeout' },
    },
    blurredImage: {
      type: 'final',
      output: { status: 'failed', failure: 'blurred_image_error' },
    },
    documentClassification: {
      type: 'final',
      output: { status: 'failed', failure: 'document_classification_error' },
    },
    spoofedImage: {
      type: 'final',
      output: { status: 'failed', failure: 'spoofed_image_error' },
    },
    validasError: {
      type: 'final',
      output: { status: 'failed', failure: 'validas_error' },
    },
    unknownError: {
      type: 'final',
      output: { status: 'failed', failure: 'unknown' },
    },
  },
});
