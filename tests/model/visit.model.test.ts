import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import type { Visit, VisitStatus } from '../../contract/api/visits';
import { type VisitEvent, type VisitInput, visitMachine } from '../../machines/visit.machine';
import {
  type VisitConfirmationEvent,
  type VisitConfirmationInput,
  visitConfirmationMachine,
} from '../../machines/visit-confirmation.machine';
import {
  type VisitRequestEvent,
  type VisitRequestInput,
  visitRequestMachine,
} from '../../machines/visit-request.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

// Generated paths over the three visit flows: a request written on NewVisit, a visit loaded or already known
// (VisitDetail, the lists, ProcessVisit), and the host's answer on VisitConfirmation; every server answer (each
// refusal by its code) is a traversal event.

const visitWith = (status: VisitStatus): Visit => ({
  id: 'v-1',
  title: 'Reunión',
  expected_at: '2030-01-01T10:00:00.000Z',
  leaving_at: '2030-01-01T11:00:00.000Z',
  host: { email: 'host@gambling.example', name: 'Hostess' },
  location: { facility_id: 'f-1', alias: 'Sala Bilbao', timezone: 'Europe/Madrid' },
  history: [],
  status,
  visitor: 'a-1',
  visitorData: { name: 'Vera Visitante', email: 'visitor@gambling.example' },
  visitorProfile: {},
  guests: 0,
});

const refusal = (code: string | null, status = 409) => ({
  status,
  code,
  detail: `reason ${code}`,
  fieldErrors: {},
});

/** Each actor's refusals by code, and a failure without one. */
function refusals(codes: Record<string, string[]>): unknown[] {
  return Object.entries(codes).flatMap(([actor, list]) => [
    ...list.map((code) => ({ type: `xstate.error.actor.${actor}`, error: refusal(code) })),
    { type: `xstate.error.actor.${actor}`, error: refusal(null, 500) },
  ]);
}

const VISIT_CODES = {
  cancelVisit: ['visit_already_started', 'visit_already_has_checkins', 'visit_already_cancelled'],
  checkIn: ['visit_not_accepted', 'visit_already_checked_in', 'visit_already_cancelled', 'visit_not_today'],
  checkOut: ['visit_not_checked_in'],
};

const CONFIRMATION_CODES = {
  confirmVisit: [
    'token_expired',
    'visit_already_accepted',
    'visit_already_rejected',
    'visit_already_cancelled',
    'invalid_token',
  ],
};

function requestEvents(): EventObject[] {
  const list: unknown[] = [
    {
      type: 'visit.submit',
      request: {
        start_at: '2030-01-01T10:00:00.000Z',
        end_at: '2030-01-01T11:00:00.000Z',
        host: 'host@gambling.example',
        visitor: { name: 'Vera', email: 'visitor@gambling.example' },
        location: 'f-1',
      },
    } satisfies VisitRequestEvent,
    { type: 'visit.edit' } satisfies VisitRequestEvent,
    { type: 'xstate.done.actor.createVisit', output: visitWith('requested') },
    {
      type: 'xstate.error.actor.createVisit',
      error: { status: 422, code: 'validation', detail: null, fieldErrors: { host: 'host_not_found' } },
    },
    { type: 'xstate.error.actor.createVisit', error: refusal(null, 0) },
    { type: 'xstate.error.actor.createVisit', error: refusal('a_code_nobody_knows', 409) },
    {
      type: 'xstate.done.actor.fetchVisitor',
      output: { id: 'a-1', name: 'Vera Visitante', email: 'visitor@gambling.example' },
    },
    { type: 'xstate.error.actor.fetchVisitor', error: refusal('visitor_not_found', 404) },
    { type: 'xstate.error.actor.fetchVisitor', error: refusal(null, 500) },
  ];
  return list as EventObject[];
}

function visitEvents(): EventObject[] {
  const statuses: VisitStatus[] = ['requested', 'accepted', 'checked_in', 'checked_out', 'cancelled'];
  const list: unknown[] = [
    { type: 'visit.cancel' } satisfies VisitEvent,
    { type: 'visit.checkIn', via: 'kiosk' } satisfies VisitEvent,
    { type: 'visit.checkOut', via: 'kiosk' } satisfies VisitEvent,
    { type: 'visit.reload' } satisfies VisitEvent,
    ...statuses.map((status) => ({ type: 'xstate.done.actor.fetchVisit', output: visitWith(status) })),
    { type: 'xstate.error.actor.fetchVisit', error: refusal('not_found', 404) },
    { type: 'xstate.error.actor.fetchVisit', error: refusal('a_code_nobody_knows', 409) },
    { type: 'xstate.error.actor.fetchVisit', error: refusal(null, 500) },
    { type: 'xstate.done.actor.cancelVisit', output: visitWith('cancelled') },
    { type: 'xstate.done.actor.checkIn', output: visitWith('checked_in') },
    { type: 'xstate.done.actor.checkOut', output: visitWith('checked_out') },
    ...refusals(VISIT_CODES),
  ];
  return list as EventObject[];
}

function confirmationEvents(): EventObject[] {
  const list: unknown[] = [
    { type: 'visit.accept' } satisfies VisitConfirmationEvent,
    { type: 'visit.reject' } satisfies VisitConfirmationEvent,
    // A 2xx, whose body is not read.
    { type: 'xstate.done.actor.confirmVisit', output: undefined },
    ...refusals(CONFIRMATION_CODES),
  ];
  return list as EventObject[];
}

const requestSpec = (input: VisitRequestInput): ModelSpec<typeof visitRequestMachine> => ({
  machine: visitRequestMachine,
  input,
  events: requestEvents,
  provide: (control) =>
    visitRequestMachine.provide({
      actors: { createVisit: control.actor('createVisit'), fetchVisitor: control.actor('fetchVisitor') },
    }),
  errorCodes: { expected: ['validation', 'visitor_not_found'], read: codesInMeta('errorCode') },
});

const visitSpec = (input: VisitInput): ModelSpec<typeof visitMachine> => ({
  machine: visitMachine,
  input,
  events: visitEvents,
  provide: (control) =>
    visitMachine.provide({
      actors: {
        fetchVisit: control.actor('fetchVisit'),
        cancelVisit: control.actor('cancelVisit'),
        checkIn: control.actor('checkIn'),
        checkOut: control.actor('checkOut'),
      },
    }),
  errorCodes: {
    expected: [...new Set([...Object.values(VISIT_CODES).flat(), 'not_found'])],
    read: codesInMeta('errorCode'),
  },
});

const confirmationSpec = (input: VisitConfirmationInput): ModelSpec<typeof visitConfirmationMachine> => ({
  machine: visitConfirmationMachine,
  input,
  events: confirmationEvents,
  // The answer chosen decides where a 2xx leads: sending after Accept and after Reject are two states.
  serialize: (s) => ({ value: s.value, outcome: s.context.outcome }),
  provide: (control) =>
    visitConfirmationMachine.provide({ actors: { confirmVisit: control.actor('confirmVisit') } }),
  errorCodes: { expected: CONFIRMATION_CODES.confirmVisit, read: codesInMeta('errorCode') },
});

describe('visit machines (generated paths)', () => {
  it('visitRequest: covers every transition and every refusal on a real actor', async () => {
    const report = await coverMachine([requestSpec({}), requestSpec({ userId: 'a-1' })]);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });

  it('visit: covers every transition and every refusal on a real actor', async () => {
    const report = await coverMachine([
      visitSpec({ visitId: 'v-1' }),
      visitSpec({ visitId: 'v-1', visit: visitWith('accepted') }),
      // VisitDetail without its data param.
      visitSpec({ visitId: '' }),
    ]);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });

  it('visitConfirmation: covers every transition and every refusal on a real actor', async () => {
    const report = await coverMachine([confirmationSpec({ visitId: 'v-1', token: 'token' })]);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });
});
