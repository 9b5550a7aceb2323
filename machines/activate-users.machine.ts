import { assign, fromPromise, setup } from 'xstate';
import type { ActivationResult } from '../contract/api/users';
import { errorCodeOf, outputOf } from './actor-events';

// ActivateUsers (spec §2 activate-users, "activate users of another region"; §4 "users can be activated in a region";
// §8 Activation: no users found). An assistant who is not a user manager, in the gambling domain, picks the region
// (a legal domain of the tenant) the users registered in, and optionally one person's DNI/NIE; POST
// /public/users/activation activates them and adds the assistant's facility to their credentials.

/** What activateUsers rejects with: the HTTP status (0 without an answer) and the problem's code. */
export interface ActivationError {
  status: number;
  code?: string;
}

export interface ActivationRequest {
  region: string;
  id_number?: string;
}

export interface ActivateUsersContext {
  request: ActivationRequest | null;
  result: ActivationResult | null;
}

export type ActivateUsersEvent =
  | { type: 'activation.submitted'; request: ActivationRequest }
  | { type: 'activation.again' };

export const activateUsersMachine = setup({
  types: {
    context: {} as ActivateUsersContext,
    events: {} as ActivateUsersEvent,
  },
  actors: {
    // Placeholder: src/actors/activation.ts provides the call (src/api/users).
    activateUsers: fromPromise<ActivationResult, { request: ActivationRequest }>(async () => {
      throw new Error('activateUsers is provided by src/actors/activation.ts');
    }),
  },
  actions: {
    storeRequest: assign(({ context, event }) =>
      event.type === 'activation.submitted' ? { request: event.request, result: null } : context,
    ),
    storeResult: assign({ result: ({ event }) => outputOf<ActivationResult>(event) }),
    forgetResult: assign({ result: null }),
  },
  guards: {
    hasCode: ({ event }, params: { code: ActivationError['code'] }) => errorCodeOf(event) === params.code,
  },
}).createMachine({
  id: 'activateUsers',
  description:
    "ActivateUsers (spec §2 activate-users, §4 users activated in a region, §8 Activation): an assistant who is not a user manager, in the gambling domain, picks the region the users registered in (and optionally one DNI/NIE); they are activated and the assistant's facility is added to their credentials. Nobody found is no_users_found; an assistant in charge of no facility is no_facility.",
  context: { request: null, result: null },
  initial: 'editing',
  states: {
    editing: {
      description: 'ActivateUsers: the region (required) and an optional DNI/NIE, and Activate.',
      meta: { screen: 'ActivateUsers' },
      on: { 'activation.submitted': { target: 'activating', actions: 'storeRequest' } },
    },
    activating: {
      description: 'ActivateUsers, busy: the users of the region are activated.',
      meta: { screen: 'ActivateUsers' },
      tags: ['busy'],
      invoke: {
        id: 'activateUsers',
        src: 'activateUsers',
        input: ({ context }) => ({ request: context.request ?? { region: '' } }),
        onDone: { target: 'activated', actions: 'storeResult' },
        onError: [
          {
            guard: { type: 'hasCode', params: { code: 'no_users_found' } },
            target: 'failed.noUsersFound',
          },
          { guard: { type: 'hasCode', params: { code: 'no_facility' } }, target: 'failed.noFacility' },
          { target: 'failed.unknown' },
        ],
      },
    },
    activated: {
      description: 'ActivateUsers with the result: how many users were activated, and at which facility.',
      meta: { screen: 'ActivateUsers' },
      on: {
        'activation.submitted': { target: 'activating', actions: 'storeRequest' },
        'activation.again': { target: 'editing', actions: 'forgetResult' },
      },
    },
    failed: {
      description: 'ActivateUsers with why nobody was activated, and the form to try again.',
      meta: { screen: 'ActivateUsers' },
      tags: ['error'],
      on: { 'activation.submitted': { target: 'activating', actions: 'storeRequest' } },
      initial: 'unknown',
      states: {
        noUsersFound: {
          description:
            'Error no_users_found: no user registered in that region (with that DNI/NIE) was found.',
          meta: { errorCode: 'no_users_found' },
        },
        noFacility: {
          description:
            'Error no_facility: the assistant is in charge of no facility to activate the users in.',
          meta: { errorCode: 'no_facility' },
        },
        unknown: {
          description: 'The activation could not be done (no answer, or the server failed): try again.',
          meta: { problem: 'unknown' },
        },
      },
    },
  },
});
