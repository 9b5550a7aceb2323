import { assign, fromPromise, setup } from 'xstate';
import type {
  NewVisitRequest,
  Visit,
  VisitConfirmationResult,
  VisitStatus,
  VisitVisitor,
} from '../contract/api/visits';
import { errorOf, outputOf } from './actor-events';

// One visit's life (spec §4 Visits): requested → accepted → checked_in → checked_out, or cancelled. The machine
// starts where the person meets the visit: NewVisit (a request being written), VisitConfirmation (the host's answer
// by mailed link), or a visit already known (VisitDetail, a row of VisitList/MyVisits, ProcessVisit). The server
// decides and records the history; every refusal it answers is an error state named by its code, from which the
// visit is loaded again.

/** What a failed visit call rejects with (src/actors/visits.ts builds it from the API error). */
export interface VisitCallError {
  status: number;
  code: string | null;
  /** The server's reason (spec §8: read from the response). */
  detail: string | null;
  /** 422: field → code (spec §5), for NewVisit. */
  fieldErrors: Record<string, string>;
}

export type VisitInput =
  /** NewVisit; with a userId (new-visit/{userId}, reception) the visitor is filled from that person. */
  | { mode: 'new'; userId?: string }
  | { mode: 'view'; visitId: string; visit?: Visit }
  | { mode: 'confirm'; visitId: string; token: string };

export interface VisitContext {
  mode: VisitInput['mode'];
  visitId: string | null;
  token: string | null;
  visit: Visit | null;
  /** NewVisit for a person: whose account fills the visitor's name and email. */
  visitorId: string | null;
  visitor: VisitVisitor | null;
  fieldErrors: Record<string, string>;
  reason: string | null;
}

export type VisitEvent =
  | { type: 'visit.submit'; request: NewVisitRequest }
  | { type: 'visit.edit' }
  | { type: 'visit.cancel' }
  | { type: 'visit.checkIn'; via: 'kiosk' | 'reception' }
  | { type: 'visit.checkOut'; via: 'kiosk' | 'reception' }
  | { type: 'visit.accept' }
  | { type: 'visit.reject' }
  | { type: 'visit.reload' };

const callError = (event: unknown): Partial<VisitCallError> =>
  (errorOf(event) as Partial<VisitCallError> | null) ?? {};

export const visitMachine = setup({
  types: {
    context: {} as VisitContext,
    events: {} as VisitEvent,
    input: {} as VisitInput,
  },
  actors: {
    // Placeholders: src/actors/visits.ts provides the calls (src/api/visits.ts).
    createVisit: fromPromise<Visit, { request: NewVisitRequest }>(async () => {
      throw new Error('createVisit is provided by src/actors/visits.ts');
    }),
    fetchVisit: fromPromise<Visit, { visitId: string }>(async () => {
      throw new Error('fetchVisit is provided by src/actors/visits.ts');
    }),
    fetchVisitor: fromPromise<VisitVisitor, { userId: string }>(async () => {
      throw new Error('fetchVisitor is provided by src/actors/visits.ts');
    }),
    cancelVisit: fromPromise<Visit, { visitId: string }>(async () => {
      throw new Error('cancelVisit is provided by src/actors/visits.ts');
    }),
    checkIn: fromPromise<Visit, { visitId: string; via: 'kiosk' | 'reception' }>(async () => {
      throw new Error('checkIn is provided by src/actors/visits.ts');
    }),
    checkOut: fromPromise<Visit, { visitId: string; via: 'kiosk' | 'reception' }>(async () => {
      throw new Error('checkOut is provided by src/actors/visits.ts');
    }),
    confirmVisit: fromPromise<
      VisitConfirmationResult,
      { visitId: string; token: string; outcome: 'accept' | 'reject' }
    >(async () => {
      throw new Error('confirmVisit is provided by src/actors/visits.ts');
    }),
  },
  actions: {
    storeVisit: assign(({ event }) => {
      const visit = outputOf<Visit>(event);
      return { visit, visitId: visit.id, fieldErrors: {}, reason: null };
    }),
    storeVisitor: assign({ visitor: ({ event }) => outputOf<VisitVisitor>(event) }),
    storeFieldErrors: assign({ fieldErrors: ({ event }) => callError(event).fieldErrors ?? {} }),
    storeReason: assign({ reason: ({ event }) => callError(event).detail ?? null }),
    forgetReason: assign({ reason: null, fieldErrors: {} }),
    /** The visit changed; lists and the draft store hear it (provided by src/actors/visits.ts). */
    visitChanged: () => {},
  },
  guards: {
    isNew: ({ context }) => context.mode === 'new',
    isNewForVisitor: ({ context }) => context.mode === 'new' && context.visitorId !== null,
    isConfirmation: ({ context }) => context.mode === 'confirm',
    isKnown: ({ context }) => context.visit !== null,
    hasStatus: ({ context }, params: { status: VisitStatus }) => context.visit?.status === params.status,
    hasCode: ({ event }, params: { code: string }) => callError(event).code === params.code,
    hasFieldErrors: ({ event }) => Object.keys(callError(event).fieldErrors ?? {}).length > 0,
    isNotFound: ({ event }) => callError(event).status === 404,
    wasAccepted: ({ event }) => outputOf<VisitConfirmationResult>(event).status === 'accepted',
  },
}).createMachine({
  id: 'visit',
  description:
    "One visit's life (spec §4 Visits): requested → accepted → checked_in → checked_out, and cancelled. A visit its host books is accepted at once (\"approved by automatic\"); anyone else's request (a visitor's, or reception booking for a host) waits for the host, who accepts or rejects it by the mailed link (VisitConfirmation: token_expired, visit_already_accepted, visit_already_rejected). Cancelling is refused once the visit has started or has a check-in (visit_already_started, visit_already_has_checkins). Reception checks in and out, check-in on the visit's day only (visit_not_accepted, visit_already_checked_in, visit_not_today, visit_not_checked_in). NewVisit opened for a person fills the visitor from them (visitor_not_found).",
  context: ({ input }) => ({
    mode: input.mode,
    visitId: input.mode === 'new' ? null : input.visitId,
    token: input.mode === 'confirm' ? input.token : null,
    visit: input.mode === 'view' ? (input.visit ?? null) : null,
    visitorId: input.mode === 'new' ? (input.userId ?? null) : null,
    visitor: null,
    fieldErrors: {},
    reason: null,
  }),
  initial: 'start',
  states: {
    start: {
      description:
        'Where the person meets the visit: writing a request, answering as host, or a known visit.',
      always: [
        { guard: 'isNewForVisitor', target: 'draft.prefilling' },
        { guard: 'isNew', target: 'draft' },
        { guard: 'isConfirmation', target: 'confirmation' },
        { guard: 'isKnown', target: 'status' },
        { target: 'loading' },
      ],
    },
    draft: {
      description:
        'NewVisit: host email, date, start, end, location, reason or event, visitor name and email, guests, emergency plan read. Every rule of spec §5 is checked as the person types; what was typed is kept through failures and reloads.',
      meta: { screen: 'NewVisit' },
      initial: 'editing',
      states: {
        prefilling: {
          description:
            "NewVisit for a person (new-visit/{userId}, reception): the form waits a moment while that person's name and email are read to fill the visitor.",
          meta: { screen: 'NewVisit' },
          tags: ['busy'],
          invoke: {
            id: 'fetchVisitor',
            src: 'fetchVisitor',
            input: ({ context }) => ({ userId: context.visitorId ?? '' }),
            onDone: { target: 'editing', actions: 'storeVisitor' },
            onError: [
              { guard: 'isNotFound', target: 'visitorNotFound' },
              // No answer or a server failure (the API client says so): the form is usable, the visitor typed.
              { target: 'editing' },
            ],
          },
        },
        visitorNotFound: {
          description:
            'Error visitor_not_found: NewVisit was opened for a person this portal does not know; it says so, and the form stays usable (the visitor is typed).',
          meta: { screen: 'NewVisit', errorCode: 'visitor_not_found' },
          tags: ['error'],
          on: {
            'visit.edit': 'editing',
            'visit.submit': { target: 'submitting', actions: 'forgetReason' },
          },
        },
        editing: {
          description: 'NewVisit: the form, with the message of every rule the typed values break.',
          meta: { screen: 'NewVisit' },
          on: { 'visit.submit': { target: 'submitting', actions: 'forgetReason' } },
        },
        submitting: {
          description: 'NewVisit: the Send button spins while the server checks the rules again.',
          meta: { screen: 'NewVisit' },
          tags: ['busy'],
          invoke: {
            id: 'createVisit',
            src: 'createVisit',
            input: ({ event }) => ({
              request: (event as Extract<VisitEvent, { type: 'visit.submit' }>).request,
            }),
            onDone: { target: '#visit.status', actions: ['storeVisit', 'visitChanged'] },
            onError: [
              { guard: 'hasFieldErrors', target: 'invalid', actions: 'storeFieldErrors' },
              { target: 'failed', actions: 'storeReason' },
            ],
          },
        },
        invalid: {
          description:
            'Error validation: the server refused the request (422), each wrong field shows its rule (host_not_found, host_busy, visit_date_past…); the form keeps what was typed.',
          meta: { screen: 'NewVisit', errorCode: 'validation' },
          tags: ['error'],
          on: {
            'visit.edit': 'editing',
            'visit.submit': { target: 'submitting', actions: 'forgetReason' },
          },
        },
        failed: {
          description:
            'NewVisit: the request could not be sent (no answer, or the server failed); the form keeps what was typed, Send again.',
          meta: { screen: 'NewVisit' },
          tags: ['error'],
          on: {
            'visit.edit': 'editing',
            'visit.submit': { target: 'submitting', actions: 'forgetReason' },
          },
        },
      },
    },
    loading: {
      description: 'VisitDetail: a spinner while the visit loads.',
      meta: { screen: 'VisitDetail' },
      tags: ['busy'],
      invoke: {
        id: 'fetchVisit',
        src: 'fetchVisit',
        input: ({ context }) => ({ visitId: context.visitId ?? '' }),
        onDone: { target: 'status', actions: 'storeVisit' },
        onError: [
          { guard: 'isNotFound', target: 'missing' },
          { target: 'failed', actions: 'storeReason' },
        ],
      },
    },
    missing: {
      description: 'VisitDetail without a visit (spec §2: a missing data param goes to MyVisits): not found.',
      meta: { screen: 'MyVisits' },
      type: 'final',
    },
    status: {
      description: 'The visit as the server last said, by its status.',
      always: [
        { guard: { type: 'hasStatus', params: { status: 'requested' } }, target: 'requested' },
        { guard: { type: 'hasStatus', params: { status: 'accepted' } }, target: 'accepted' },
        { guard: { type: 'hasStatus', params: { status: 'checked_in' } }, target: 'checkedIn' },
        { guard: { type: 'hasStatus', params: { status: 'checked_out' } }, target: 'checkedOut' },
        { target: 'cancelled' },
      ],
    },
    requested: {
      description:
        'VisitDetail: requested, waiting for the host to accept it by the mailed link; it can be cancelled.',
      meta: { screen: 'VisitDetail' },
      on: { 'visit.cancel': 'cancelling', 'visit.reload': 'loading' },
    },
    accepted: {
      description:
        'VisitDetail: accepted ("approved by" the host or automatic); reception may check the visitor in; it can be cancelled until it starts.',
      meta: { screen: 'VisitDetail' },
      on: {
        'visit.cancel': 'cancelling',
        'visit.checkIn': 'checkingIn',
        'visit.reload': 'loading',
      },
    },
    checkedIn: {
      description:
        'VisitDetail: the visitor is in (checked in by kiosk, or arrived); reception checks them out. Cancelling is asked of the server, which refuses it (visit_already_has_checkins).',
      meta: { screen: 'VisitDetail' },
      on: {
        'visit.checkOut': 'checkingOut',
        'visit.cancel': 'cancelling',
        'visit.reload': 'loading',
      },
    },
    checkedOut: {
      description:
        'VisitDetail: the visitor has left (checked out by terminal, or left); the history tells it all.',
      meta: { screen: 'VisitDetail' },
      on: { 'visit.reload': 'loading' },
    },
    cancelled: {
      description: 'VisitDetail: cancelled by someone, or rejected by the host.',
      meta: { screen: 'VisitDetail' },
      on: { 'visit.reload': 'loading' },
    },
    cancelling: {
      description: 'VisitDetail: the Cancel button spins while the server decides.',
      meta: { screen: 'VisitDetail' },
      tags: ['busy'],
      invoke: {
        id: 'cancelVisit',
        src: 'cancelVisit',
        input: ({ context }) => ({ visitId: context.visitId ?? '' }),
        onDone: { target: 'status', actions: ['storeVisit', 'visitChanged'] },
        onError: [
          {
            guard: { type: 'hasCode', params: { code: 'visit_already_started' } },
            target: 'refused.started',
            actions: 'storeReason',
          },
          {
            guard: { type: 'hasCode', params: { code: 'visit_already_has_checkins' } },
            target: 'refused.hasCheckins',
            actions: 'storeReason',
          },
          {
            guard: { type: 'hasCode', params: { code: 'visit_already_cancelled' } },
            target: 'refused.alreadyCancelled',
            actions: 'storeReason',
          },
          { target: 'failed', actions: 'storeReason' },
        ],
      },
    },
    checkingIn: {
      description: 'Check-in in progress (reception, one tap).',
      meta: { screen: 'VisitDetail' },
      tags: ['busy'],
      invoke: {
        id: 'checkIn',
        src: 'checkIn',
        input: ({ context, event }) => ({
          visitId: context.visitId ?? '',
          via: (event as Extract<VisitEvent, { type: 'visit.checkIn' }>).via,
        }),
        onDone: { target: 'status', actions: ['storeVisit', 'visitChanged'] },
        onError: [
          {
            guard: { type: 'hasCode', params: { code: 'visit_not_accepted' } },
            target: 'refused.notAccepted',
            actions: 'storeReason',
          },
          {
            guard: { type: 'hasCode', params: { code: 'visit_already_checked_in' } },
            target: 'refused.alreadyCheckedIn',
            actions: 'storeReason',
          },
          {
            guard: { type: 'hasCode', params: { code: 'visit_already_cancelled' } },
            target: 'refused.alreadyCancelled',
            actions: 'storeReason',
          },
          {
            guard: { type: 'hasCode', params: { code: 'visit_not_today' } },
            target: 'refused.notToday',
            actions: 'storeReason',
          },
          { target: 'failed', actions: 'storeReason' },
        ],
      },
    },
    checkingOut: {
      description: 'Check-out in progress (reception, one tap).',
      meta: { screen: 'VisitDetail' },
      tags: ['busy'],
      invoke: {
        id: 'checkOut',
        src: 'checkOut',
        input: ({ context, event }) => ({
          visitId: context.visitId ?? '',
          via: (event as Extract<VisitEvent, { type: 'visit.checkOut' }>).via,
        }),
        onDone: { target: 'status', actions: ['storeVisit', 'visitChanged'] },
        onError: [
          {
            guard: { type: 'hasCode', params: { code: 'visit_not_checked_in' } },
            target: 'refused.notCheckedIn',
            actions: 'storeReason',
          },
          { target: 'failed', actions: 'storeReason' },
        ],
      },
    },
    refused: {
      description:
        'The server refused the action; its reason is shown, and the visit is loaded again on request.',
      meta: { screen: 'VisitDetail' },
      tags: ['error'],
      on: { 'visit.reload': 'loading' },
      initial: 'started',
      states: {
        started: {
          description: 'Error visit_already_started: the visit has started, it can no longer be cancelled.',
          meta: { screen: 'VisitDetail', errorCode: 'visit_already_started' },
        },
        hasCheckins: {
          description:
            'Error visit_already_has_checkins: the visit has check-ins, it can no longer be cancelled.',
          meta: { screen: 'VisitDetail', errorCode: 'visit_already_has_checkins' },
        },
        alreadyCancelled: {
          description: 'Error visit_already_cancelled: the visit had been cancelled meanwhile.',
          meta: { screen: 'VisitDetail', errorCode: 'visit_already_cancelled' },
        },
        notAccepted: {
          description: 'Error visit_not_accepted: the host has not accepted the visit; no check-in yet.',
          meta: { screen: 'VisitDetail', errorCode: 'visit_not_accepted' },
        },
        alreadyCheckedIn: {
          description: 'Error visit_already_checked_in: the visitor has already checked in.',
          meta: { screen: 'VisitDetail', errorCode: 'visit_already_checked_in' },
        },
        notToday: {
          description:
            "Error visit_not_today: check-in is for today's visits only (today in the facility's timezone); the server's reason names the visit's day.",
          meta: { screen: 'VisitDetail', errorCode: 'visit_not_today' },
        },
        notCheckedIn: {
          description: 'Error visit_not_checked_in: the visitor has not checked in, so cannot check out.',
          meta: { screen: 'VisitDetail', errorCode: 'visit_not_checked_in' },
        },
      },
    },
    failed: {
      description:
        'VisitDetail: the call failed (no answer, or the server failed; the API client said so): Retry.',
      meta: { screen: 'VisitDetail' },
      tags: ['error'],
      on: { 'visit.reload': 'loading' },
    },
    confirmation: {
      description:
        'VisitConfirmation (public, confirmation/{token}/{visitId}): the host accepts or rejects the visit with the mailed token.',
      meta: { screen: 'VisitConfirmation' },
      initial: 'asking',
      states: {
        asking: {
          description: 'VisitConfirmation: Accept and Reject buttons.',
          meta: { screen: 'VisitConfirmation' },
          on: { 'visit.accept': 'accepting', 'visit.reject': 'rejecting' },
        },
        accepting: {
          description: 'VisitConfirmation: the Accept button spins.',
          meta: { screen: 'VisitConfirmation' },
          tags: ['busy'],
          invoke: {
            id: 'confirmVisit',
            src: 'confirmVisit',
            input: ({ context }) => ({
              visitId: context.visitId ?? '',
              token: context.token ?? '',
              outcome: 'accept' as const,
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
              { target: 'failed' },
            ],
          },
        },
        rejecting: {
          description: 'VisitConfirmation: the Reject button spins.',
          meta: { screen: 'VisitConfirmation' },
          tags: ['busy'],
          invoke: {
            id: 'confirmVisit',
            src: 'confirmVisit',
            input: ({ context }) => ({
              visitId: context.visitId ?? '',
              token: context.token ?? '',
              outcome: 'reject' as const,
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
              { target: 'failed' },
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
          description:
            'Error invalid_token: the link is not a valid confirmation link (mistyped or altered).',
          meta: { screen: 'VisitConfirmation', errorCode: 'invalid_token' },
          tags: ['error'],
          type: 'final',
        },
        failed: {
          description:
            'VisitConfirmation: the answer could not be sent (no answer, or the server failed): try again.',
          meta: { screen: 'VisitConfirmation' },
          tags: ['error'],
          on: { 'visit.accept': 'accepting', 'visit.reject': 'rejecting' },
        },
      },
    },
  },
});
