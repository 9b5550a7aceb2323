import { describe, expect, it } from 'vitest';
import { type ListEvent, listMachine, type Page, type PageQuery } from '../../machines/list.machine';
import { coverMachine, type ModelSpec } from './harness';

const spec: ModelSpec<typeof listMachine> = {
  machine: listMachine,
  input: { pageSize: 10 },
  events: () => [
    { type: 'xstate.done.actor.fetchPage', output: { items: [{}], totalItems: 25 } },
    { type: 'xstate.done.actor.fetchPage', output: { items: [], totalItems: 0 } },
    { type: 'xstate.done.actor.fetchPage', output: { items: [{}], totalItems: 1, totalIsLowerBound: true } },
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

describe('a total that is only a lower bound (the audit stops counting at 10,000)', () => {
  const ten = Array.from({ length: 10 }, (_, i) => ({ i }));
  it('pages past the counted total while pages come back full, and stops at a short one', async () => {
    const { createActor, fromPromise } = await import('xstate');
    const pages = new Map<number, unknown[]>([
      [0, ten],
      [1, ten],
      [2, ten.slice(0, 3)],
    ]);
    const actor = createActor(
      listMachine.provide({
        actors: {
          // Counted up to 10 (one page) and "more": the real end is page 3.
          fetchPage: fromPromise<Page, PageQuery>(async ({ input }) => ({
            items: pages.get(input.pageIndex) ?? [],
            totalItems: 10,
            totalIsLowerBound: true,
          })),
        },
      }),
      { input: { pageSize: 10 } },
    ).start();
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    await settle();
    expect(actor.getSnapshot().context.totalIsLowerBound).toBe(true);
    actor.send({ type: 'page.next' });
    await settle();
    actor.send({ type: 'page.next' });
    await settle();
    expect(actor.getSnapshot().context).toMatchObject({ pageIndex: 2, items: ten.slice(0, 3) });
    actor.send({ type: 'page.next' });
    expect(actor.getSnapshot().context.pageIndex).toBe(2);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    actor.stop();
  });
});
