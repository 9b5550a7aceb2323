import { assign, fromPromise, setup } from 'xstate';
import { errorCodeOf, errorOf } from './actor-events';

// VisitConfirmation (spec §4 Visits): the host answers a visitor's request by the mailed link. The link works once
// and for 48 h; every refusal is a final state named by its code.

export interface VisitConfirmationInput {
  visitId: string;
  token: string;
}

export interface VisitConfirmationContext extends VisitConfirmationInput {
  /** The answer the host chose, sent again by a retry. */
  outcome: 'accept' | 'reject' | null;
  /**
   * A refusal no state names (a code of a newer server): its code and the server's text (spec §8 fallback: detail,
   * else title, else status text), which the screen shows when it has no words for the code.
   */
  problem: { code: string; text: string | null } | null;
}

export type VisitConfirmationEvent = { type: 'visit.accept' } | { type: 'visit.reject' };

export const visitConfirmationMachine = setup({
  types: {
    context: {} as VisitConfirmationContext,
    events: {} as VisitConfirmationEvent,
    input: {} as VisitConfirmationInput,
  },
  actors: {
    // Placeholder: src/actors/visits.ts provides the call (src/api/visits.ts).
    confirmVisit: fromPromise<void, { visitId: string; token: string; outcome: 'accept' | 'reject' }>(
      async () => {
        throw new Error('confirmVisit is provided by src/actors/visits.ts');
      },
    ),
  },
  actions: {
    chooseOutcome: assign((_, params: { outcome: 'accept' | 'reject' }) => ({
      outcome: params.outcome,
      problem: null,
    })),
    storeProblem: assign({
      problem: ({ event }) => {
        const error = errorOf(event) as { status?: number; code?: unknown; text?: unknown } | null;
        // Only a refusal the screen is left to say: a failure or a 401/403 the API client has said already.
        const refusal = !!error?.status && [400, 404, 409, 410, 422].includes(error.status);
        return refusal && typeof error?.code === 'string'
          ? { code: error.code, text: typeof error.text === 'string' ? error.text : null }
          : null;
      },
    }),
  },
  guards: {
    hasCode: ({ event }, params: { code: string }) => errorCodeOf(event) === params.code,
    /** The server's 2xx is the visit answered as the host chose (the body is not read). */
    wasAccepted: ({ context }) => context.outcome === 'accept',
  },
}).createMachine({
  id: 'visitConfirmation',
  description:
    'VisitConfirmation (public, confirmation/{token}/{visitId}): the host accepts or rejects a visit request with the mailed token (token_expired, visit_already_accepted, visit_already_rejected, visit_already_cancelled, invalid_token).',
  context: ({ input }) => ({ visitId: input.visitId, token: input.token, outcome: null, problem: null }),
  initial: 'asking',
  states: {
    asking: {
      description: 'VisitConfirmation: Accept and Reject buttons.',
      meta: { screen: 'VisitConfirmation' },
      on: {
        'visit.accept': {
          target: 'sending',
          actions: { type: 'chooseOutcome', params: { outcome: 'accept' } },
        },
        'visit.reject': {
          target: 'sending',
          actions: { type: 'chooseOutcome', params: { outcome: 'reject' } },
        },
      },
    },
    sending: {
      description: 'VisitConfirmation: the answer chosen (accept or reject) is sent; both buttons wait.',
      meta: { screen: 'VisitConfirmation' },
      tags: ['busy'],
      invoke: {
        id: 'confirmVisit',
        src: 'confirmVisit',
        input: ({ context }) => ({
          visitId: context.visitId,
          token: context.token,
          outcome: context.outcome ?? 'accept',
        }),
        onDone: [{ guard: 'wasAccepted', target: 'accepted' }, { target: 'rejected' }],
        onError: [
          { guard: { type: 'hasCode', params: { code: 'token_expired' } }, target: 'tokenExpired' },
          {
            guard: { type: 'hasCode', params: { code: 'visit_already_accepted' } },
            target: 'alreadyAccepted',
          },
          {
            guard: { type: 'hasCode', params: { code: 'visit_already_rejected' } },
            target: 'alreadyRejected',
          },
          {
            guard: { type: 'hasCode', params: { code: 'visit_already_cancelled' } },
            target: 'alreadyCancelled',
          },
          { guard: { type: 'hasCode', params: { code: 'invalid_token' } }, target: 'invalidLink' },
          { target: 'failed', actions: 'storeProblem' },
        ],
      },
    },
    accepted: {
      description: 'VisitConfirmation: "You have accepted the visit" (history: approved by the host).',
      meta: { screen: 'VisitConfirmation' },
      type: 'final',
    },
    rejected: {
      description:
        'VisitConfirmation: "You have rejected the visit" (history: rejected; the visit is cancelled).',
      meta: { screen: 'VisitConfirmation' },
      type: 'final',
    },
    tokenExpired: {
      description: 'Error token_expired: the link has expired (48 h); the visitor must request again.',
      meta: { screen: 'VisitConfirmation', errorCode: 'token_expired' },
      tags: ['error'],
      type: 'final',
    },
    alreadyAccepted: {
      description: 'Error visit_already_accepted: the visit was already accepted; the link works once.',
      meta: { screen: 'VisitConfirmation', errorCode: 'visit_already_accepted' },
      tags: ['error'],
      type: 'final',
    },
    alreadyRejected: {
      description: 'Error visit_already_rejected: the visit was already rejected; the link works once.',
      meta: { screen: 'VisitConfirmation', errorCode: 'visit_already_rejected' },
      tags: ['error'],
      type: 'final',
    },
    alreadyCancelled: {
      description: 'Error visit_already_cancelled: the visitor cancelled the visit before the answer.',
      meta: { screen: 'VisitConfirmation', errorCode: 'visit_already_cancelled' },
      tags: ['error'],
      type: 'final',
    },
    invalidLink: {
      description: 'Error invalid_token: the link is not a valid confirmation link (mistyped or altered).',
      meta: { screen: 'VisitConfirmation', errorCode: 'invalid_token' },
      tags: ['error'],
      type: 'final',
    },
    failed: {
      description:
        'VisitConfirmation: the answer could not be sent (no answer, or the server failed): try again.',
      meta: { screen: 'VisitConfirmation' },
      tags: ['error'],
      on: {
        'visit.accept': {
          target: 'sending',
          actions: { type: 'chooseOutcome', params: { outcome: 'accept' } },
        },
        'visit.reject': {
          target: 'sending',
          actions: { type: 'chooseOutcome', params: { outcome: 'reject' } },
        },
      },
    },
  },
});
