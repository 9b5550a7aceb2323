import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import type { Visit, VisitStatus } from '../../contract/api/visits';
import { type VisitEvent, type VisitInput, visitMachine } from '../../machines/visit.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

// Generated paths over one visit's life: from NewVisit, from VisitConfirmation, and from a visit loaded or
// already known; every server answer (each refusal by its code) is a traversal event.

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

const CODES = {
  cancelVisit: ['visit_already_started', 'visit_already_has_checkins', 'visit_already_cancelled'],
  checkIn: ['visit_not_accepted', 'visit_already_checked_in', 'visit_already_cancelled', 'visit_not_today'],
  checkOut: ['visit_not_checked_in'],
  confirmVisit: [
    'token_expired',
    'visit_already_accepted',
    'visit_already_rejected',
    'visit_already_cancelled',
    'invalid_token',
  ],
};

function events(): EventObject[] {
  const statuses: VisitStatus[] = ['requested', 'accepted', 'checked_in', 'checked_out', 'cancelled'];
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
    } satisfies VisitEvent,
    { type: 'visit.edit' } satisfies VisitEvent,
    { type: 'visit.cancel' } satisfies VisitEvent,
    { type: 'visit.checkIn', via: 'kiosk' } satisfies VisitEvent,
    { type: 'visit.checkOut', via: 'kiosk' } satisfies VisitEvent,
    { type: 'visit.accept' } satisfies VisitEvent,
    { type: 'visit.reject' } satisfies VisitEvent,
    { type: 'visit.reload' } satisfies VisitEvent,
    { type: 'xstate.done.actor.createVisit', output: visitWith('requested') },
    { type: 'xstate.done.actor.createVisit', output: visitWith('accepted') },
    {
      type: 'xstate.error.actor.createVisit',
      error: { status: 422, code: 'validation', detail: null, fieldErrors: { host: 'host_not_found' } },
    },
    { type: 'xstate.error.actor.createVisit', error: refusal(null, 0) },
    ...statuses.map((status) => ({ type: 'xstate.done.actor.fetchVisit', output: visitWith(status) })),
    { type: 'xstate.error.actor.fetchVisit', error: refusal('not_found', 404) },
    { type: 'xstate.error.actor.fetchVisit', error: refusal(null, 500) },
    {
      type: 'xstate.done.actor.fetchVisitor',
      output: { id: 'a-1', name: 'Vera Visitante', email: 'visitor@gambling.example' },
    },
    { type: 'xstate.error.actor.fetchVisitor', error: refusal('visitor_not_found', 404) },
    { type: 'xstate.error.actor.fetchVisitor', error: refusal(null, 500) },
    { type: 'xstate.done.actor.cancelVisit', output: visitWith('cancelled') },
    { type: 'xstate.done.actor.checkIn', output: visitWith('checked_in') },
    { type: 'xstate.done.actor.checkOut', output: visitWith('checked_out') },
    { type: 'xstate.done.actor.confirmVisit', output: { id: 'v-1', status: 'accepted' } },
    { type: 'xstate.done.actor.confirmVisit', output: { id: 'v-1', status: 'cancelled' } },
    ...Object.entries(CODES).flatMap(([actor, codes]) => [
      ...codes.map((code) => ({ type: `xstate.error.actor.${actor}`, error: refusal(code) })),
      { type: `xstate.error.actor.${actor}`, error: refusal(null, 500) },
    ]),
  ];
  return list as EventObject[];
}

const specFor = (input: VisitInput): ModelSpec<typeof visitMachine> => ({
  machine: visitMachine,
  input,
  events,
  provide: (control) =>
    visitMachine.provide({
      actors: {
        createVisit: control.actor('createVisit'),
        fetchVisit: control.actor('fetchVisit'),
        fetchVisitor: control.actor('fetchVisitor'),
        cancelVisit: control.actor('cancelVisit'),
        checkIn: control.actor('checkIn'),
        checkOut: control.actor('checkOut'),
        confirmVisit: control.actor('confirmVisit'),
      },
    }),
  errorCodes: {
    expected: ['validation', 'visitor_not_found', ...new Set(Object.values(CODES).flat())],
    read: codesInMeta('errorCode'),
  },
});

describe('visit machine (generated paths)', () => {
  it('covers every transition and every refusal on a real actor', async () => {
    const report = await coverMachine([
      specFor({ mode: 'new' }),
      specFor({ mode: 'new', userId: 'a-1' }),
      specFor({ mode: 'view', visitId: 'v-1' }),
      specFor({ mode: 'view', visitId: 'v-1', visit: visitWith('accepted') }),
      specFor({ mode: 'confirm', visitId: 'v-1', token: 'token' }),
    ]);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });
});
