import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { hasNextPage, type ListContext, type ListEvent, totalPages } from '../../machines/list.machine';
import { Alert } from './ui/alert';
import { Button } from './ui/button';
import { Card } from './ui/card';
import { cn } from './ui/cn';
import { Spinner } from './ui/spinner';

/** Where a list machine is: its `loading` and `error` tags, else ready. */
export type ListState = 'loading' | 'failed' | 'ready';

/** What ListScreen reads of the list machine: its context (rows and figures) and where to send retry and paging. */
export interface ListMachineView {
  context: Pick<ListContext, 'items' | 'totalItems' | 'pageIndex' | 'pageSize' | 'totalIsLowerBound'>;
  list: { send: (event: ListEvent) => void };
}

/**
 * A screen that is one list on the list machine (spec §9): its title and actions, the search slot (a form, date
 * presets, filters: whatever narrows the list, inside a search landmark), then what the machine is doing (a spinner
 * while loading; on failure an alert with a retry; a message when nothing matches) and, once there are rows, the
 * rows (children) and the pager. The screen keeps the machine; this only draws where it is. Changes are announced
 * politely.
 */
export function ListScreen({
  screen,
  title,
  actions,
  search,
  className,
  state,
  context,
  list,
  loadingLabel,
  failedId,
  retryId,
  emptyId,
  emptyTestId,
  pagerLabel,
  summaryTestId,
  children,
}: ListMachineView & {
  /** The spec's screen name, as `data-screen`. */
  screen: string;
  title: ReactNode;
  actions?: ReactNode;
  search?: ReactNode;
  className?: string;
  state: ListState;
  loadingLabel: string;
  failedId: string;
  retryId: string;
  emptyId: string;
  emptyTestId: string;
  /** The accessible name of the pager's navigation landmark. */
  pagerLabel: string;
  summaryTestId: string;
  children: ReactNode;
}) {
  const intl = useIntl();
  const count = context.items.length;
  return (
    <section data-screen={screen} className={cn('mx-auto max-w-4xl', className)}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h1 className="text-2xl font-semibold">{title}</h1>
        {actions}
      </div>
      {search && <search>{search}</search>}
      <div className="mt-6" aria-live="polite" aria-busy={state === 'loading'}>
        {state === 'loading' && <Spinner label={loadingLabel} />}
        {state === 'failed' && (
          <Alert message={intl.formatMessage({ id: failedId })}>
            <div>
              <Button variant="secondary" onClick={() => list.send({ type: 'list.retry' })}>
                <FormattedMessage id={retryId} />
              </Button>
            </div>
          </Alert>
        )}
        {state === 'ready' && count === 0 && (
          <Card>
            <p data-testid={emptyTestId}>
              <FormattedMessage id={emptyId} />
            </p>
          </Card>
        )}
        {state === 'ready' && count > 0 && (
          <>
            {children}
            <ListPager label={pagerLabel} summaryTestId={summaryTestId} context={context} list={list} />
          </>
        )}
      </div>
    </section>
  );
}

/** The foot of a paged list (spec §9: "items of totalItems, page of totalPages") with previous and next. */
function ListPager({
  label,
  summaryTestId,
  context,
  list,
}: ListMachineView & { label: string; summaryTestId: string }) {
  const { totalItems: total, pageIndex, totalIsLowerBound } = context;
  const shown = context.items.length;
  const pages = totalPages(context);
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p data-testid={summaryTestId} data-total={total} data-lower-bound={totalIsLowerBound}>
        {totalIsLowerBound ? (
          <FormattedMessage id="list.summary.lowerBound" values={{ shown, total, page: pageIndex + 1 }} />
        ) : (
          <FormattedMessage id="list.summary" values={{ shown, total, page: pageIndex + 1, pages }} />
        )}
      </p>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={pageIndex === 0}
          onClick={() => list.send({ type: 'page.previous' })}
        >
          <FormattedMessage id="list.previous" />
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={!hasNextPage(context)}
          onClick={() => list.send({ type: 'page.next' })}
        >
          <FormattedMessage id="list.next" />
        </Button>
      </div>
    </nav>
  );
}
