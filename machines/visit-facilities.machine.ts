import { assign, fromPromise, setup } from 'xstate';
import type { Facility } from '../contract/api/facilities';
import { outputOf } from './actor-events';

// The places NewVisit offers (spec §5: a visit is booked at a facility; the tenant's visits.locations limit them).
// src/actors/visits.ts provides loadFacilities (GET /internal/facilities, filtered by visits.locations).

export interface VisitFacilitiesContext {
  facilities: Facility[];
}

export type VisitFacilitiesEvent = { type: 'facilities.retry' };

export const visitFacilitiesMachine = setup({
  types: {
    context: {} as VisitFacilitiesContext,
    events: {} as VisitFacilitiesEvent,
  },
  actors: {
    loadFacilities: fromPromise<Facility[]>(async () => {
      throw new Error('loadFacilities is provided by src/actors/visits.ts');
    }),
  },
  actions: {
    storeFacilities: assign({ facilities: ({ event }) => outputOf<Facility[]>(event) }),
  },
}).createMachine({
  id: 'visitFacilities',
  description:
    'The places of NewVisit\'s "location" field (spec §5: a visit is booked at a facility, only the tenant\'s visits.locations when set). What the person has typed is kept while the places load again.',
  context: { facilities: [] },
  initial: 'loading',
  states: {
    loading: {
      description:
        'NewVisit shows "Loading places…" under the location label while GET /internal/facilities answers.',
      tags: ['busy'],
      invoke: {
        id: 'loadFacilities',
        src: 'loadFacilities',
        onDone: { target: 'loaded', actions: 'storeFacilities' },
        // The API client has already told the person what went wrong; the field offers to load again.
        onError: 'failed',
      },
    },
    loaded: {
      description: 'The location field lists the places, each with its time zone once chosen.',
    },
    failed: {
      description:
        'The places could not be loaded (the API client has shown the error notification): "The places could not be loaded" and a "Load the places again" button; the typed values stay.',
      tags: ['error'],
      on: { 'facilities.retry': 'loading' },
    },
  },
});
