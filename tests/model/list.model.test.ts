import { describe, expect, it } from 'vitest';
import { type ListEvent, listMachine } from '../../machines/list.machine';
import { coverMachine, type ModelSpec } from './harness';

const spec: ModelSpec<typeof listMachine> = {
  machine: listMachine,
  input: { pageSize: 10 },
  events: () => [
    { type: 'xstate.done.actor.fetchPage', output: { items: [{}], totalItems: 25 } },
    { type: 'xstate.done.actor.fetchPage', output: { items: [], totalItems: 0 } },
    { type: 'xstate.error.actor.fetchPage', error: new Error('500') },
    { type: 'filter.change', filter: ' ana ' } satisfies ListEvent,
    { type: 'page.next' } satisfies ListEvent,
    { type: 'page.previous' } satisfies ListEvent,
    { type: 'list.retry' } satisfies ListEvent,
  ],
  serialize: (s) => ({ value: s.value, page: s.context.pageIndex, total: s.context.totalItems }),
  provide: (control) => listMachine.provide({ actors: { fetchPage: control.actor('fetchPage') } }),
};

describe('list machine (generated paths)', () => {
  it('covers every transition on a real actor', async () => {
    expect((await coverMachine(spec)).missing).toEqual([]);
  });
});
