import { assign, fromPromise, setup } from 'xstate';
import { outputOf } from './actor-events';

// A paged, filterable list from the API (spec §9: lists show items over totalItems and page over
// totalPages; page count is the ceiling of total divided by page size). One machine serves every list
// screen: src/actors provides `fetchPage` for its resource (src/actors/accounts.ts for PortalAccounts).

export interface PageQuery {
  filter: string;
  pageIndex: number;
  pageSize: number;
}

export interface Page<T = unknown> {
  items: T[];
  totalItems: number;
  /** The server stopped counting: there are more than totalItems (the audit counts up to 10,000). */
  totalIsLowerBound?: boolean;
}

export interface ListContext<T = unknown> extends PageQuery {
  items: T[];
  totalItems: number;
  totalIsLowerBound: boolean;
}

export type ListEvent =
  | { type: 'filter.change'; filter: string }
  | { type: 'page.next' }
  | { type: 'page.previous' }
  | { type: 'list.retry' };

export const totalPages = (context: Pick<ListContext, 'totalItems' | 'pageSize'>) =>
  Math.max(1, Math.ceil(context.totalItems / context.pageSize));

/**
 * Whether a page follows this one. With a total that is only a lower bound, the count says nothing about the
 * pages past it: a full page means there may be more, a short one is the last.
 */
export const hasNextPage = (
  context: Pick<ListContext, 'totalItems' | 'pageSize' | 'pageIndex' | 'totalIsLowerBound' | 'items'>,
) =>
  context.totalIsLowerBound
    ? context.items.length === context.pageSize
    : context.pageIndex + 1 < totalPages(context);

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
  actions: {
    storeFilter: assign(({ context, event }) =>
      event.type === 'filter.change' ? { filter: event.filter.trim(), pageIndex: 0 } : context,
    ),
    storePage: assign(({ event }) => {
      const { items, totalItems, totalIsLowerBound = false } = outputOf<Page>(event);
      return { items, totalItems, totalIsLowerBound };
    }),
    turnToNextPage: assign({ pageIndex: ({ context }) => context.pageIndex + 1 }),
    turnToPreviousPage: assign({ pageIndex: ({ context }) => context.pageIndex - 1 }),
  },
  guards: {
    hasNextPage: ({ context }) => hasNextPage(context),
    hasPreviousPage: ({ context }) => context.pageIndex > 0,
  },
}).createMachine({
  id: 'list',
  description:
    'A paged, filterable list of a list screen (spec §9: "Lists show a summary of items length over totalItems and page over totalPages"; PortalAccounts in spec §2 and §3 IAM account).',
  context: ({ input }) => ({
    filter: '',
    pageIndex: 0,
    pageSize: input.pageSize,
    items: [],
    totalItems: 0,
    totalIsLowerBound: false,
  }),
  initial: 'loading',
  on: {
    'filter.change': { target: '.loading', actions: 'storeFilter' },
  },
  states: {
    loading: {
      description: 'A spinner while the page of items for the filter loads.',
      tags: ['busy'],
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => ({
          filter: context.filter,
          pageIndex: context.pageIndex,
          pageSize: context.pageSize,
        }),
        onDone: { target: 'ready', actions: 'storePage' },
        // The API client has already told the person what went wrong; the list offers a retry.
        onError: 'failed',
      },
    },
    ready: {
      description:
        'The items of the page (or "no results"), the summary "shown of total, page of pages" and the previous and next buttons.',
      on: {
        'page.next': { guard: 'hasNextPage', target: 'loading', actions: 'turnToNextPage' },
        'page.previous': { guard: 'hasPreviousPage', target: 'loading', actions: 'turnToPreviousPage' },
      },
    },
    failed: {
      description:
        'The page could not be loaded (the API client has shown the error notification): a message and a Retry button.',
      tags: ['error'],
      on: { 'list.retry': 'loading' },
    },
  },
});
