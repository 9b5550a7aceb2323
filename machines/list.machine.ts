import { assign, fromPromise, setup } from 'xstate';

// A paged, filterable list from the API (spec §9: lists show items over totalItems and page over
// totalPages; page count is the ceiling of total divided by page size). One machine serves every list
// screen: the screen provides `fetchPage` for its resource.

export interface PageQuery {
  filter: string;
  pageIndex: number;
  pageSize: number;
}

export interface Page<T = unknown> {
  items: T[];
  totalItems: number;
}

export interface ListContext<T = unknown> extends PageQuery {
  items: T[];
  totalItems: number;
}

export type ListEvent =
  | { type: 'filter.change'; filter: string }
  | { type: 'page.next' }
  | { type: 'page.previous' }
  | { type: 'list.retry' };

export const totalPages = (context: Pick<ListContext, 'totalItems' | 'pageSize'>) =>
  Math.max(1, Math.ceil(context.totalItems / context.pageSize));

export const listMachine = setup({
  types: {
    context: {} as ListContext,
    events: {} as ListEvent,
    input: {} as { pageSize: number },
  },
  actors: {
    fetchPage: fromPromise<Page, PageQuery>(async () => {
      throw new Error('fetchPage is provided by the screen');
    }),
  },
  guards: {
    hasNextPage: ({ context }) => context.pageIndex + 1 < totalPages(context),
    hasPreviousPage: ({ context }) => context.pageIndex > 0,
  },
}).createMachine({
  id: 'list',
  context: ({ input }) => ({ filter: '', pageIndex: 0, pageSize: input.pageSize, items: [], totalItems: 0 }),
  initial: 'loading',
  on: {
    'filter.change': {
      target: '.loading',
      actions: assign({ filter: ({ event }) => event.filter.trim(), pageIndex: 0 }),
    },
  },
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => ({
          filter: context.filter,
          pageIndex: context.pageIndex,
          pageSize: context.pageSize,
        }),
        onDone: {
          target: 'ready',
          actions: assign({
            items: ({ event }) => event.output.items,
            totalItems: ({ event }) => event.output.totalItems,
          }),
        },
        // The API client has already told the person what went wrong; the list offers a retry.
        onError: 'failed',
      },
    },
    ready: {
      on: {
        'page.next': {
          guard: 'hasNextPage',
          target: 'loading',
          actions: assign({ pageIndex: ({ context }) => context.pageIndex + 1 }),
        },
        'page.previous': {
          guard: 'hasPreviousPage',
          target: 'loading',
          actions: assign({ pageIndex: ({ context }) => context.pageIndex - 1 }),
        },
      },
    },
    failed: {
      on: { 'list.retry': 'loading' },
    },
  },
});
