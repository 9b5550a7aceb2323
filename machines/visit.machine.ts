import { assign, fromPromise, setup } from 'xstate';
import type { Visit, VisitStatus } from '../contract/api/visits';
import { errorCodeOf, errorOf, outputOf } from './actor-events';

// One visit's life once it exists (spec §4 Visits): requested → accepted → checked_in → checked_out, or
// cancelled, as VisitDetail, a row of VisitList/MyVisits and ProcessVisit show it. The server decides and records
// the history; every refusal it answers is an error state named by its code, from which the visit is loaded again.
// Writing a request is visit-request.machine.ts; the host's answer by link is visit-confirmation.machine.ts.

/** What a failed visit call rejects with (src/actors/visits.ts builds it from the API error). */
export interface VisitCallError {
  status: number;
  code: string | null;
  /** The server's reason (spec §8: read from the response). */
  detail: string | null;
  /** What the person reads for a code that has no words: the detail, else the title, else the status text. */
  text?: string | null;
  /** 422: field → code (spec §5), for NewVisit. */
  fieldErrors: Record<string, string>;
}

/** What a failed visit call rejected with, as far as it said. */
export const visitCallErrorOf = (event: unknown): Partial<VisitCallError> =>
  (errorOf(event) as Partial<VisitCallError> | null) ?? {};

/** A visit by its id, or one a list already holds (then it is not loaded again). */
export interface VisitInput {
  visitId: string;
  visit?: Visit;
}

export interface VisitContext {
  visitId: string;
  visit: Visit | null;
  reason: string | null;
  /** The last refusal's code and the server's text (spec §8 fallback), for a refusal no state names. */
  code: string | null;
  serverText: string | null;
}

export type VisitEvent =
  | { type: 'visit.cancel' }
  | { type: 'visit.checkIn'; via: 'kiosk' | 'reception' }
  | { type: 'visit.checkOut'; via: 'kiosk' | 'reception' }
  | { type: 'visit.reload' };

export const visitMachine = setup({
  types: {
    context: {} as VisitContext,
    events: {} as VisitEvent,
    input: {} as VisitInput,
  },
  actors: {
    // Placeholders: src/actors/visits.ts provides the calls (src/api/visits.ts).
    fetchVisit: fromPromise<Visit, { visitId: string }>(async () => {
      throw new Error('fetchVisit is provided by src/actors/visits.ts');
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
  },
  actions: {
    storeVisit: assign(({ event }) => {
      const visit = outputOf<Visit>(event);
      return { visit, visitId: visit.id, reason: null, code: null, serverText: null };
    }),
    storeReason: assign(({ event }) => ({
      reason: visitCallErrorOf(event).detail ?? null,
      code: visitCallErrorOf(event).code ?? null,
      serverText: visitCallErrorOf(event).text ?? null,
    })),
    /** The visit changed; lists hear it (provided by src/actors/visits.ts). */
    visitChanged: () => {},
  },
  guards: {
    isKnown: ({ context }) => context.visit !== null,
    hasNoVisitId: ({ context }) => context.visitId === '',
    hasStatus: ({ context }, params: { status: VisitStatus }) => context.visit?.status === params.status,
    hasCode: ({ event }, params: { code: string }) => errorCodeOf(event) === params.code,
    isNotFound: ({ event }) => visitCallErrorOf(event).status === 404,
    hasStatusIn: ({ event }, params: { statuses: number[] }) =>
      params.statuses.includes(visitCallErrorOf(event).status ?? 0),
  },
}).createMachine({
  id: 'visit',
  description:
    "One visit's life once it exists (spec §4 Visits): requested → accepted → checked_in → checked_out, and cancelled, on VisitDetail, the rows of VisitList and MyVisits, and ProcessVisit. Cancelling is refused once the visit has started or has a check-in (visit_already_started, visit_already_has_checkins). Reception checks in and out, check-in on the visit's day only (visit_not_accepted, visit_already_checked_in, visit_not_today, visit_not_checked_in).",
  context: ({ input }) => ({
    visitId: input.visitId,
    visit: input.visit ?? null,
    reason: null,
    code: null,
    serverText: null,
  }),
  initial: 'start',
  states: {
    start: {
      description:
        'A visit a list already holds is shown as it is; without a visit id there is nothing to load; any other is loaded first.',
      always: [
        { guard: 'isKnown', target: 'status' },
        { guard: 'hasNoVisitId', target: 'missing' },
        { target: 'loading' },
      ],
    },
    loading: {
      description: 'VisitDetail: a spinner while the visit loads.',
      meta: { screen: 'VisitDetail' },
      tags: ['busy'],
      invoke: {
        id: 'fetchVisit',
        src: 'fetchVisit',
        input: ({ context }) => ({ visitId: context.visitId }),
        onDone: { target: 'status', actions: 'storeVisit' },
        onError: [
          { guard: 'isNotFound', target: 'notFound', actions: 'storeReason' },
          // Refusals the API client leaves to the screen (src/actors/visits.ts): said here, in their words.
          {
            guard: { type: 'hasStatusIn', params: { statuses: [400, 409, 410, 422] } },
            target: 'loadRefused',
            actions: 'storeReason',
          },
          { target: 'failed', actions: 'storeReason' },
        ],
      },
    },
    missing: {
      description: 'VisitDetail without a visit id (spec §2: a missing data param goes to MyVisits).',
      meta: { screen: 'MyVisits' },
      type: 'final',
    },
    notFound: {
      description:
        'Error not_found: the server knows no such visit for this person (404); VisitDetail says so with the way back to the list, and no Retry (loading it again cannot find it).',
      meta: { screen: 'VisitDetail', errorCode: 'not_found' },
      tags: ['error'],
    },
    loadRefused: {
      description:
        "VisitDetail: the server refused to show the visit with a code (409, 422…): the code's words, else the server's own text (spec §8: detail, else title, else status text) in the person's sentence; Retry.",
      meta: { screen: 'VisitDetail' },
      tags: ['error'],
      on: { 'visit.reload': 'loading' },
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
        input: ({ context }) => ({ visitId: context.visitId }),
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
          visitId: context.visitId,
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
          visitId: context.visitId,
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
  },
});
