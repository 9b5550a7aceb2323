import { assign, fromPromise, setup } from 'xstate';
import type { InterdictionRequest, InterdictionResponse, InterdictionResult } from '../contract/api/audit';
import { errorOf } from './actor-events';

// CheckInterdictions (spec §2 check-interdictions, for assistants who are not user managers in the gambling
// domain; §5 id number and birth date required; §7 POST /internal/enforcements, or POST /enforcements when
// useWatch; §8 interdiction results user not found, granted, denied, underaged, indeterminate). The screen checks
// the two required fields before it sends check.submitted.

/** What checkInterdiction rejects with: the HTTP status (0 without an answer), the problem's code and detail. */
export interface InterdictionError {
  status: number;
  code?: string;
  detail?: string;
}

export interface InterdictionCheckContext {
  request: InterdictionRequest | null;
  result: InterdictionResult | null;
  /** Why the last check failed, in the server's terms (its code, its detail), when it answered at all. */
  problem: { code?: string; detail?: string } | null;
}

export type InterdictionCheckEvent =
  | { type: 'check.submitted'; request: InterdictionRequest }
  | { type: 'check.again' };

export const interdictionCheckMachine = setup({
  types: {
    context: {} as InterdictionCheckContext,
    events: {} as InterdictionCheckEvent,
  },
  actors: {
    // Placeholder: src/actors/interdictions.ts provides the call (src/api/audit).
    checkInterdiction: fromPromise<InterdictionResponse, { request: InterdictionRequest }>(async () => {
      throw new Error('checkInterdiction is provided by src/actors/interdictions.ts');
    }),
  },
  actions: {
    storeRequest: assign(({ context, event }) =>
      event.type === 'check.submitted' ? { request: event.request, result: null, problem: null } : context,
    ),
    storeProblem: assign({
      problem: ({ event }) => {
        const error = errorOf(event) as Partial<InterdictionError> | undefined;
        return {
          ...(error?.code ? { code: error.code } : {}),
          ...(error?.detail ? { detail: error.detail } : {}),
        };
      },
    }),
    storeResult: assign({
      result: ({ event }) => (event as { output?: InterdictionResponse }).output?.result ?? null,
    }),
    forget: assign({ request: null, result: null, problem: null }),
  },
  guards: {
    isValidation: ({ event }) => (errorOf(event) as Partial<InterdictionError> | undefined)?.status === 422,
  },
}).createMachine({
  id: 'interdictionCheck',
  description:
    'CheckInterdictions (spec §2, §5, §7 POST /internal/enforcements, §8): an assistant types a id number and a birth date (and, with extendedInterdictionForm, name, surname and document number) and learns whether the person may enter: user not found, granted, denied, underaged or indeterminate. A refused request is error validation; no answer is error unknown.',
  context: { request: null, result: null, problem: null },
  initial: 'editing',
  states: {
    editing: {
      description: 'CheckInterdictions: the form (id number and birth date required) and a Check button.',
      meta: { screen: 'CheckInterdictions' },
      on: { 'check.submitted': { target: 'checking', actions: 'storeRequest' } },
    },
    checking: {
      description: 'CheckInterdictions, busy: the prohibited lists are asked.',
      meta: { screen: 'CheckInterdictions' },
      tags: ['busy'],
      invoke: {
        id: 'checkInterdiction',
        src: 'checkInterdiction',
        input: ({ context }) => ({ request: context.request as InterdictionRequest }),
        onDone: { target: 'answered', actions: 'storeResult' },
        onError: [
          { guard: 'isValidation', target: 'failed.validation' },
          { target: 'failed.unknown', actions: 'storeProblem' },
        ],
      },
    },
    answered: {
      description:
        'CheckInterdictions with the result (user not found, granted, denied, underaged, indeterminate) and the form to check another person.',
      meta: { screen: 'CheckInterdictions' },
      on: {
        'check.submitted': { target: 'checking', actions: 'storeRequest' },
        'check.again': { target: 'editing', actions: 'forget' },
      },
    },
    failed: {
      description: 'CheckInterdictions with why the check could not be made, and the form to try again.',
      meta: { screen: 'CheckInterdictions' },
      tags: ['error'],
      on: { 'check.submitted': { target: 'checking', actions: 'storeRequest' } },
      initial: 'unknown',
      states: {
        validation: {
          description: 'Error validation: the server refused the id number or the birth date (422).',
          meta: { errorCode: 'validation' },
        },
        unknown: {
          description:
            'Error unknown: no answer, or the server failed or refused for a reason of its own (its words shown when it gave any); try again.',
          meta: { errorCode: 'unknown' },
        },
      },
    },
  },
});
