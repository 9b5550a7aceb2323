import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Facility } from '../../contract/api/facilities';
import { type VisitFacilitiesEvent, visitFacilitiesMachine } from '../../machines/visit-facilities.machine';
import { coverMachine, type ModelSpec } from './harness';

// NewVisit's places: loaded, or failed and loaded again when the person asks.

const PLACES: Facility[] = [{ facility_id: 'f-1', alias: 'Sala Bilbao', timezone: 'Europe/Madrid' }];

const spec: ModelSpec<typeof visitFacilitiesMachine> = {
  machine: visitFacilitiesMachine,
  events: () => [
    { type: 'xstate.done.actor.loadFacilities', output: PLACES },
    { type: 'xstate.error.actor.loadFacilities', error: new Error('503') },
    { type: 'facilities.retry' } satisfies VisitFacilitiesEvent,
  ],
  serialize: (s) => ({ value: s.value, places: s.context.facilities.length }),
  provide: (control) =>
    visitFacilitiesMachine.provide({ actors: { loadFacilities: control.actor('loadFacilities') } }),
};

describe('visitFacilities machine (generated paths)', () => {
  it('covers every transition on a real actor', async () => {
    expect((await coverMachine(spec)).missing).toEqual([]);
  });
});

describe('the places after a failure', () => {
  it('are asked for again on retry, and listed once they come', async () => {
    let calls = 0;
    const actor = createActor(
      visitFacilitiesMachine.provide({
        actors: {
          loadFacilities: fromPromise<Facility[]>(async () => {
            calls += 1;
            if (calls === 1) throw new Error('503');
            return PLACES;
          }),
        },
      }),
    ).start();
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    await settle();
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    actor.send({ type: 'facilities.retry' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await settle();
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(actor.getSnapshot().context.facilities).toEqual(PLACES);
    expect(calls).toBe(2);
    actor.stop();
  });
});
