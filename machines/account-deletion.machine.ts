import { assign, fromPromise, setup } from 'xstate';
import { errorOf } from './actor-events';

// DeleteAccount (spec §2; §7 DELETE /internal/accounts/{id} with the optional id_number; §8 Account cancellation:
// visit in progress, bad request, DNI/NIE mismatch with the message read from the response detail). The screen
// normalises the value before it sends field.submitted; the server checks that it is the person's stored one
// (which may itself not be a valid DNI/NIE: it is still the answer).

/** Why the server refused the deletion (the DeleteAccount texts deleteAccount.refused.*). */
export type DeletionRefusal =
  | 'visit_in_progress'
  | 'bad_request'
  | 'id_mismatch'
  | 'staff_account'
  | 'last_admin'
  | 'unknown';

/** What deleteAccount rejects with: the HTTP status (0 without an answer), the problem's code and detail. */
export interface DeletionError {
  status: number;
  code?: string;
  detail?: string;
}

export interface AccountDeletionContext {
  /** The value of the tenant's askFieldForDelete field ('' when the tenant asks for none). */
  field: string;
  /** The server's own words for a DNI/NIE mismatch (spec §8: "error message read from the response detail"). */
  detail: string | null;
}

export type AccountDeletionEvent =
  | { type: 'field.submitted'; value: string }
  | { type: 'deletion.confirmed' }
  | { type: 'deletion.cancelled' };

/** The refusal a failed deletion is, from its problem code (or status when there is none). */
export function deletionRefusalOf(error: unknown): DeletionRefusal {
  const { status, code } = (error ?? {}) as Partial<DeletionError>;
  if (code === 'visit_in_progress') return 'visit_in_progress';
  if (code === 'id_mismatch') return 'id_mismatch';
  if (code === 'staff_account') return 'staff_account';
  if (code === 'last_admin') return 'last_admin';
  if (code === 'bad_request' || status === 400) return 'bad_request';
  return 'unknown';
}

export const accountDeletionMachine = setup({
  types: {
    context: {} as AccountDeletionContext,
    events: {} as AccountDeletionEvent,
  },
  actors: {
    // Placeholder: src/actors/account.ts provides the call (src/api/accounts).
    deleteAccount: fromPromise<void, { field: string }>(async () => {
      throw new Error('deleteAccount is provided by src/actors/account.ts');
    }),
  },
  actions: {
    storeField: assign(({ context, event }) =>
      event.type === 'field.submitted' ? { field: event.value.trim(), detail: null } : context,
    ),
    storeDetail: assign({
      detail: ({ event }) => (errorOf(event) as Partial<DeletionError> | undefined)?.detail ?? null,
    }),
    /** Forgets everything personal kept in this browser (the stored onboarding, the language); provided by src/actors. */
    clearLocalData: () => {},
    /** Ends the session at the identity provider, which sends the browser to the public welcome; provided by src/actors. */
    endSession: () => {},
  },
  guards: {
    hasCode: ({ event }, params: { code: DeletionRefusal }) =>
      deletionRefusalOf(errorOf(event)) === params.code,
  },
}).createMachine({
  id: 'accountDeletion',
  description:
    "DeleteAccount (spec §2, §7 DELETE /internal/accounts/{id}, §8 Account cancellation): the person gives the field the tenant asks for (askFieldForDelete, e.g. the DNI/NIE), confirms in a dialog, and the account is deleted; refused on a visit in progress (visit_in_progress), a bad request (bad_request), a DNI/NIE mismatch (id_mismatch, the server's detail shown), a staff account, which only an admin may cancel (staff_account), or the tenant's last admin (last_admin). Once deleted the session ends at the provider, local data is cleared and the person lands on the public welcome.",
  context: { field: '', detail: null },
  initial: 'asking',
  states: {
    asking: {
      description:
        'DeleteAccount: what deleting the account removes, the field the tenant asks for (the DNI/NIE, checked for its shape) and a Delete button.',
      meta: { screen: 'DeleteAccount' },
      on: { 'field.submitted': { target: 'confirming', actions: 'storeField' } },
    },
    confirming: {
      description: 'DeleteAccount with a confirmation dialog: "this cannot be undone", Delete or Cancel.',
      meta: { screen: 'DeleteAccount' },
      on: {
        'deletion.confirmed': 'checking',
        'deletion.cancelled': 'asking',
      },
    },
    checking: {
      description: 'DeleteAccount, busy: the server checks the field and visits, then deletes everything.',
      meta: { screen: 'DeleteAccount' },
      tags: ['busy'],
      invoke: {
        id: 'deleteAccount',
        src: 'deleteAccount',
        input: ({ context }) => ({ field: context.field }),
        onDone: 'deleted',
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
      description: 'DeleteAccount with the reason the deletion was refused and the form to try again.',
      meta: { screen: 'DeleteAccount' },
      tags: ['error'],
      on: {
        'field.submitted': { target: 'confirming', actions: 'storeField' },
        'deletion.cancelled': 'asking',
      },
      initial: 'failed',
      states: {
        visitInProgress: {
          description:
            'Error visit_in_progress: the person has a visit in progress (checked in, or accepted and under way); they may delete the account once it has ended.',
          meta: { errorCode: 'visit_in_progress' },
        },
        badRequest: {
          description:
            'Error bad_request: the server could not read the request (the DNI/NIE missing or malformed).',
          meta: { errorCode: 'bad_request' },
        },
        idMismatch: {
          description:
            "Error id_mismatch: the DNI/NIE is not the one of this account; the server's detail is shown.",
          meta: { errorCode: 'id_mismatch' },
        },
        staffAccount: {
          description:
            'Error staff_account: the account holds a staff role (anything beyond user and visitor); only an admin may cancel it.',
          meta: { errorCode: 'staff_account' },
        },
        lastAdmin: {
          description:
            'Error last_admin: the person is the last admin of the tenant; their account stays until there is another.',
          meta: { errorCode: 'last_admin' },
        },
        failed: {
          description: 'The deletion could not be done (no answer, or the server failed): try again.',
          meta: { problem: 'unknown' },
        },
      },
    },
    deleted: {
      description: 'The account is deleted: what this browser keeps about the person is cleared.',
      entry: 'clearLocalData',
      always: 'signedOut',
    },
    signedOut: {
      description:
        'The session ends at the identity provider, which sends the browser to the public welcome.',
      entry: 'endSession',
      type: 'final',
    },
  },
});
