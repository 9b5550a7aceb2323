import { assign, fromPromise, setup } from 'xstate';
import type { NewVisitRequest, Visit, VisitVisitor } from '../contract/api/visits';
import { outputOf } from './actor-events';
import { visitCallErrorOf } from './visit.machine';

// NewVisit (spec §4 Visits): a request being written and sent. The server checks every rule again and answers
// with the visit (requested, or accepted at once when its host booked it) or the fields it refuses.

export interface VisitRequestInput {
  /** new-visit/{userId} (reception): the visitor is filled from that person. */
  userId?: string;
}

export interface VisitRequestContext {
  /** NewVisit for a person: whose account fills the visitor's name and email. */
  visitorId: string | null;
  visitor: VisitVisitor | null;
  /** The visit the server made of the request. */
  visit: Visit | null;
  fieldErrors: Record<string, string>;
  reason: string | null;
  /** A refusal without fields: its code and the server's text (spec §8 fallback for a code with no words). */
  code: string | null;
  serverText: string | null;
}

export type VisitRequestEvent = { type: 'visit.submit'; request: NewVisitRequest } | { type: 'visit.edit' };

export const visitRequestMachine = setup({
  types: {
    context: {} as VisitRequestContext,
    events: {} as VisitRequestEvent,
    input: {} as VisitRequestInput,
  },
  actors: {
    // Placeholders: src/actors/visits.ts provides the calls (src/api/visits.ts).
    createVisit: fromPromise<Visit, { request: NewVisitRequest }>(async () => {
      throw new Error('createVisit is provided by src/actors/visits.ts');
    }),
    fetchVisitor: fromPromise<VisitVisitor, { userId: string }>(async () => {
      throw new Error('fetchVisitor is provided by src/actors/visits.ts');
    }),
  },
  actions: {
    storeVisit: assign(({ event }) => ({
      visit: outputOf<Visit>(event),
      fieldErrors: {},
      reason: null,
      code: null,
      serverText: null,
    })),
    storeVisitor: assign({ visitor: ({ event }) => outputOf<VisitVisitor>(event) }),
    storeFieldErrors: assign({ fieldErrors: ({ event }) => visitCallErrorOf(event).fieldErrors ?? {} }),
    storeReason: assign(({ event }) => ({
      reason: visitCallErrorOf(event).detail ?? null,
      code: visitCallErrorOf(event).code ?? null,
      serverText: visitCallErrorOf(event).text ?? null,
    })),
    forgetReason: assign({ reason: null, fieldErrors: {}, code: null, serverText: null }),
    /** The request became a visit; the draft store hears it (provided by src/actors/visits.ts). */
    visitChanged: () => {},
  },
  guards: {
    isForVisitor: ({ context }) => context.visitorId !== null,
    hasFieldErrors: ({ event }) => Object.keys(visitCallErrorOf(event).fieldErrors ?? {}).length > 0,
    isNotFound: ({ event }) => visitCallErrorOf(event).status === 404,
    hasStatusIn: ({ event }, params: { statuses: number[] }) =>
      params.statuses.includes(visitCallErrorOf(event).status ?? 0),
  },
}).createMachine({
  id: 'visitRequest',
  description:
    'NewVisit (spec §4 Visits): a visit request written and sent. A visit its host books is accepted at once ("approved by automatic"); anyone else\'s request (a visitor\'s, or reception booking for a host) waits for the host. NewVisit opened for a person fills the visitor from them (visitor_not_found); the server refuses fields with 422 (validation).',
  context: ({ input }) => ({
    visitorId: input.userId ?? null,
    visitor: null,
    visit: null,
    fieldErrors: {},
    reason: null,
    code: null,
    serverText: null,
  }),
  initial: 'draft',
  states: {
    draft: {
      description:
        'NewVisit: host email, date, start, end, location, reason or event, visitor name and email, guests, emergency plan read. Every rule of spec §5 is checked as the person types; what was typed is kept through failures and reloads.',
      meta: { screen: 'NewVisit' },
      initial: 'start',
      states: {
        start: {
          description: 'NewVisit for a person fills the visitor first; otherwise the form is empty.',
          always: [{ guard: 'isForVisitor', target: 'prefilling' }, { target: 'editing' }],
        },
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
              request: (event as Extract<VisitRequestEvent, { type: 'visit.submit' }>).request,
            }),
            onDone: { target: '#visitRequest.sent', actions: ['storeVisit', 'visitChanged'] },
            onError: [
              { guard: 'hasFieldErrors', target: 'invalid', actions: 'storeFieldErrors' },
              // Refusals the API client leaves to the screen (src/actors/visits.ts): said on the form.
              {
                guard: { type: 'hasStatusIn', params: { statuses: [400, 404, 409, 410, 422] } },
                target: 'refused',
                actions: 'storeReason',
              },
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
        refused: {
          description:
            "NewVisit: the server refused the request with no field to point at (404, 409 with its code…): the code's words, else the server's own text (spec §8: detail, else title, else status text) in the person's sentence; the form keeps what was typed, Send again.",
          meta: { screen: 'NewVisit' },
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
    sent: {
      description:
        'NewVisit: the request was sent; the visit as the server made it (requested, or accepted when its host booked it), with the way to VisitDetail.',
      meta: { screen: 'NewVisit' },
      type: 'final',
    },
  },
});
