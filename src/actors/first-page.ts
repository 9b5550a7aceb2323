import { getInitialSnapshot } from 'xstate';
import { listMachine, type PageQuery } from '../../machines/list.machine';

/** What a list screen's machine asks for first: the list machine's own first query for this page size. */
export function firstPageQuery(pageSize: number): PageQuery {
  const { filter, pageIndex } = getInitialSnapshot(listMachine, { pageSize }).context;
  return { filter, pageIndex, pageSize };
}
