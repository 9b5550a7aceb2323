import { assign, fromPromise, setup } from 'xstate';
import { errorOf, outputOf } from './actor-events';

// AssistantAccountCancellation (spec §2 delete-account-assistant; §5 "Cancel-account requires the correct DNI/NIE
// number"; §7 GET /internal/accounts?email=, DELETE /internal/accounts/{id} with id_number; §8 Account cancellation:
// visit in progress, bad request, DNI/NIE mismatch with the message read from the response detail). The shape of
// accountDeletion, with the account found first: an assistant cancels someone else's account, never their own.

/** The account found by its email (spec §3 IAM account). */
export interface FoundAccount {
  id: string;
  username: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
}

/** What the actors reject with: the HTTP status (0 without an answer), the problem's code and detail. */
export interface CancellationError {
  status: number;
  code?: string;
  detail?: string;
}

export type CancellationRefusal =
  | 'visit_in_progress'
  | 'bad_request'
  | 'id_mismatch'
  | 'staff_account'
  | 'last_admin'
  | 'unknown';

/** The refusal a failed cancellation is, from its problem code (or status when there is none). */
export function cancellationRefusalOf(error: unknown): CancellationRefusal {
  const { status, code } = (error ?? {}) as Partial<CancellationError>;
  if (code === 'visit_in_progress') return 'visit_in_progress';
  if (code === 'id_mismatch') return 'id_mismatch';
  if (code === 'staff_account') return 'staff_account';
  if (code === 'last_admin') return 'last_admin';
  if (code === 'bad_request' || status === 400) return 'bad_request';
  return 'unknown';
}

export interface AssistantAccountCancellationContext {
  email: string;
  account: FoundAccount | null;
  /** The DNI/NIE the person showed (checked for its shape by the screen; the server checks it is theirs). */
  idNumber: string;
  detail: string | null;
}

export type AssistantAccountCancellationEvent =
  | { type: 'account.searched'; email: string }
  | { type: 'field.submitted'; value: string }
  | { type: 'cancellation.confirmed' }
  | { type: 'cancellation.cancelled' };

export const assistantAccountCancellationMachine = setup({
  types: {
    context: {} as AssistantAccountCancellationContext,
    events: {} as AssistantAccountCancellationEvent,
  },
  actors: {
    // Placeholders: src/actors/account-cancellation.ts provides the calls (src/api/accounts).
    findAccount: fromPromise<FoundAccount, { email: string }>(async () => {
      throw new Error('findAccount is provided by src/actors/account-cancellation.ts');
    }),
    cancelAccount: fromPromise<void, { accountId: string; idNumber: string }>(async () => {
      throw new Error('cancelAccount is provided by src/actors/account-cancellation.ts');
    }),
  },
  actions: {
    storeEmail: assign(({ context, event }) =>
      event.type === 'account.searched'
        ? { email: event.email.trim(), account: null, idNumber: '', detail: null }
        : context,
    ),
    storeAccount: assign({ account: ({ event }) => outputOf<FoundAccount>(event) }),
    storeField: assign(({ context, event }) =>
      event.type === 'field.submitted' ? { idNumber: event.value.trim(), detail: null } : context,
    ),
    storeDetail: assign({
      detail: ({ event }) => (errorOf(event) as Partial<CancellationError> | undefined)?.detail ?? null,
    }),
  },
  guards: {
    isNotFound: ({ event }) => (errorOf(event) as Partial<CancellationError> | undefined)?.status === 404,
    hasCode: ({ event }, params: { code: CancellationRefusal }) =>
      cancellationRefusalOf(errorOf(event)) === params.code,
  },
}).createMachine({
  id: 'assistantAccountCancellation',
  description:
    "AssistantAccountCancellation (spec §2 delete-account-assistant, §5, §7 DELETE /internal/accounts/{id}, §8 Account cancellation): an assistant who is not a user manager, in the gambling domain, finds the person's account by email (account_not_found when there is none), types the DNI/NIE the person shows, confirms in a dialog, and the account is cancelled; refused on a visit in progress (visit_in_progress), a bad request (bad_request), a DNI/NIE mismatch (id_mismatch, the server's detail shown), a staff account, which only an admin may cancel (staff_account), or the tenant's last admin (last_admin).",
  context: { email: '', account: null, idNumber: '', detail: null },
  initial: 'searching',
  states: {
    searching: {
      description: "AssistantAccountCancellation: the person's email, and Find.",
      meta: { screen: 'AssistantAccountCancellation' },
      on: { 'account.searched': { target: 'finding', actions: 'storeEmail' } },
    },
    finding: {
      description: 'AssistantAccountCancellation, busy: the account with that email is looked for.',
      meta: { screen: 'AssistantAccountCancellation' },
      tags: ['busy'],
      invoke: {
        id: 'findAccount',
        src: 'findAccount',
        input: ({ context }) => ({ email: context.email }),
        onDone: { target: 'found', actions: 'storeAccount' },
        onError: [{ guard: 'isNotFound', target: 'notFound' }, { target: 'searchFailed' }],
      },
    },
    notFound: {
      description: 'Error account_not_found: no account of the tenant has that email; search again.',
      meta: { screen: 'AssistantAccountCancellation', errorCode: 'account_not_found' },
      tags: ['error'],
      on: { 'account.searched': { target: 'finding', actions: 'storeEmail' } },
    },
    searchFailed: {
      description: 'AssistantAccountCancellation: the search could not be done (no answer); search again.',
      meta: { screen: 'AssistantAccountCancellation', problem: 'unknown' },
      tags: ['error'],
      on: { 'account.searched': { target: 'finding', actions: 'storeEmail' } },
    },
    found: {
      description:
        'AssistantAccountCancellation with the account found (name, username, email), the DNI/NIE field (required, checked for its shape) and Cancel account.',
      meta: { screen: 'AssistantAccountCancellation' },
      on: {
        'field.submitted': { target: 'confirming', actions: 'storeField' },
        'account.searched': { target: 'finding', actions: 'storeEmail' },
      },
    },
    confirming: {
      description:
        'AssistantAccountCancellation with a confirmation dialog: "this cannot be undone", Cancel account or Back.',
      meta: { screen: 'AssistantAccountCancellation' },
      on: {
        'cancellation.confirmed': 'cancelling',
        'cancellation.cancelled': 'found',
      },
    },
    cancelling: {
      description:
        'AssistantAccountCancellation, busy: the server checks the DNI/NIE and visits, then erases the account.',
      meta: { screen: 'AssistantAccountCancellation' },
      tags: ['busy'],
      invoke: {
        id: 'cancelAccount',
        src: 'cancelAccount',
        input: ({ context }) => ({ accountId: context.account?.id ?? '', idNumber: context.idNumber }),
        onDone: 'cancelled',
        onError: [
          {
            guard: { type: 'hasCode', params: { code: 'visit_in_progress' } },
            target: 'refused.visitInProgress',
          },
          { guard: { type: 'hasCode', params: { code: 'bad_request' } }, target: 'refused.badRequest' },
          {
            guard: { type: 'hasCode', params: { code: 'id_mismatch' } },
            target: 'refused.idMismatch',
            actions: 'storeDetail',
          },
          {
            guard: { type: 'hasCode', params: { code: 'staff_account' } },
            target: 'refused.staffAccount',
          },
          { guard: { type: 'hasCode', params: { code: 'last_admin' } }, target: 'refused.lastAdmin' },
          { target: 'refused.failed' },
        ],
      },
    },
    refused: {
      description:
        'AssistantAccountCancellation with why the cancellation was refused, and the DNI/NIE field again.',
      meta: { screen: 'AssistantAccountCancellation' },
      tags: ['error'],
      on: {
        'field.submitted': { target: 'confirming', actions: 'storeField' },
        'account.searched': { target: 'finding', actions: 'storeEmail' },
      },
      initial: 'failed',
      states: {
        visitInProgress: {
          description:
            'Error visit_in_progress: the person has a visit in progress; the account can be cancelled once it has ended.',
          meta: { errorCode: 'visit_in_progress' },
        },
        badRequest: {
          description: 'Error bad_request: the server could not read the request (the DNI/NIE malformed).',
          meta: { errorCode: 'bad_request' },
        },
        idMismatch: {
          description:
            "Error id_mismatch: the DNI/NIE is not the one of this account; the server's detail is shown.",
          meta: { errorCode: 'id_mismatch' },
        },
        staffAccount: {
          description:
            'Error staff_account: the account found is a staff account (a role beyond user and visitor); staff cancel the accounts of the people they serve, a staff account only an admin.',
          meta: { errorCode: 'staff_account' },
        },
        lastAdmin: {
          description:
            'Error last_admin: the account found is the last admin of the tenant; it cannot be cancelled.',
          meta: { errorCode: 'last_admin' },
        },
        failed: {
          description: 'The cancellation could not be done (no answer, or the server failed): try again.',
          meta: { problem: 'unknown' },
        },
      },
    },
    cancelled: {
      description:
        'AssistantAccountCancellation: the account is cancelled (its user record, credentials and images erased); another can be searched.',
      meta: { screen: 'AssistantAccountCancellation' },
      on: { 'account.searched': { target: 'finding', actions: 'storeEmail' } },
    },
  },
});
