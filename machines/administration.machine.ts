import { assign, fromPromise, setup } from 'xstate';
import { errorCodeOf, errorOf, outputOf } from './actor-events';

// Administration (spec §6 "Admins manage the tenant (activate, deactivate, delete all users and data)"): each action
// behind a dialog where the person types the tenant's name; the result says how many were changed. PUT
// /public/credentials/active|inactive, DELETE /public/users, PUT /public/users/deleteAllData.

export type AdminAction = 'activateAll' | 'deactivateAll' | 'deleteUsers' | 'deleteAllData';

/** What an action changed: how many users (and, for deletions, images). */
export interface AdminResult {
  users: number;
  images: number;
}

/** Why an action failed, in the server's terms (its code, its detail), when it answered at all. */
export interface AdminProblem {
  code?: string;
  detail?: string;
}

export interface AdministrationContext {
  tenant: string;
  action: AdminAction | null;
  typed: string;
  result: AdminResult | null;
  problem: AdminProblem | null;
}

export type AdministrationEvent =
  | { type: 'action.chosen'; action: AdminAction }
  | { type: 'confirmation.typed'; value: string }
  | { type: 'action.confirmed' }
  | { type: 'action.cancelled' };

export const administrationMachine = setup({
  types: {
    context: {} as AdministrationContext,
    events: {} as AdministrationEvent,
    input: {} as { tenant: string },
  },
  actors: {
    // Placeholder: src/actors/users.ts provides the call (src/api/users).
    runAction: fromPromise<AdminResult, { action: AdminAction; confirm: string }>(async () => {
      throw new Error('runAction is provided by src/actors/users.ts');
    }),
  },
  actions: {
    storeAction: assign(({ context, event }) =>
      event.type === 'action.chosen'
        ? { action: event.action, typed: '', result: null, problem: null }
        : context,
    ),
    storeTyped: assign(({ context, event }) =>
      event.type === 'confirmation.typed' ? { typed: event.value } : context,
    ),
    storeResult: assign({ result: ({ event }) => outputOf<AdminResult>(event) }),
    storeProblem: assign({
      problem: ({ event }) => {
        const error = errorOf(event) as AdminProblem | undefined;
        return {
          ...(error?.code ? { code: error.code } : {}),
          ...(error?.detail ? { detail: error.detail } : {}),
        };
      },
    }),
    forgetAction: assign({ action: null, typed: '' }),
  },
  guards: {
    typedTenantName: ({ context }) => context.typed.trim() === context.tenant,
    hasCode: ({ event }, params: { code: 'confirmation_mismatch' }) => errorCodeOf(event) === params.code,
  },
}).createMachine({
  id: 'administration',
  description:
    "Administration (spec §6: admins activate or deactivate all credentials and delete all users and their personal data): each action behind a dialog where the person types the tenant's name; the result says how many users were changed.",
  context: ({ input }) => ({ tenant: input.tenant, action: null, typed: '', result: null, problem: null }),
  initial: 'choosing',
  states: {
    choosing: {
      description: 'Administration: the four actions, each with what it does.',
      meta: { screen: 'Administration' },
      on: { 'action.chosen': { target: 'confirming', actions: 'storeAction' } },
    },
    confirming: {
      description:
        "Administration with the confirmation dialog: what the action changes, a field for the tenant's name, Confirm (only once the name is typed) and Cancel.",
      meta: { screen: 'Administration' },
      on: {
        'confirmation.typed': { actions: 'storeTyped' },
        'action.confirmed': { guard: 'typedTenantName', target: 'working' },
        'action.cancelled': { target: 'choosing', actions: 'forgetAction' },
      },
    },
    working: {
      description: 'Administration, busy: the action runs on every user of the tenant.',
      meta: { screen: 'Administration' },
      tags: ['busy'],
      invoke: {
        id: 'runAction',
        src: 'runAction',
        input: ({ context }) => ({ action: context.action ?? 'activateAll', confirm: context.typed.trim() }),
        onDone: { target: 'done', actions: 'storeResult' },
        onError: [
          {
            guard: { type: 'hasCode', params: { code: 'confirmation_mismatch' } },
            target: 'failed.mismatch',
          },
          { target: 'failed.unknown', actions: 'storeProblem' },
        ],
      },
    },
    done: {
      description: 'Administration with the result: how many users (and images) were changed.',
      meta: { screen: 'Administration' },
      on: { 'action.chosen': { target: 'confirming', actions: 'storeAction' } },
    },
    failed: {
      description: 'Administration with why the action was not done; nothing was changed.',
      meta: { screen: 'Administration' },
      tags: ['error'],
      on: { 'action.chosen': { target: 'confirming', actions: 'storeAction' } },
      initial: 'unknown',
      states: {
        mismatch: {
          description:
            "Error confirmation_mismatch: the name typed is not the tenant's; nothing was changed.",
          meta: { errorCode: 'confirmation_mismatch' },
        },
        unknown: {
          description:
            'The action could not be done (no answer, or the server failed or refused for a reason of its own, its words shown when it gave any); nothing was changed.',
          meta: { problem: 'unknown' },
        },
      },
    },
  },
});
