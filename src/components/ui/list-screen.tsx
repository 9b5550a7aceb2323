import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Alert } from './alert';
import { Button } from './button';
import { Card } from './card';
import { cn } from './cn';
import { Spinner } from './spinner';

/** Where a list machine is: its `loading` and `error` tags, else ready. */
export type ListState = 'loading' | 'failed' | 'ready';

/** The foot of a paged list (spec §9: "items of totalItems, page of totalPages"), from the list machine's context. */
export interface ListPagerProps {
  /** The accessible name of the pager's navigation landmark. */
  label: string;
  summaryTestId: string;
  total: number;
  pageIndex: number;
  pages: number;
  /** The total is where the server stopped counting: say "more than", and no page count. */
  totalIsLowerBound?: boolean;
  hasNext?: boolean;
  onPrevious: () => void;
  onNext: () => void;
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
  count,
  loadingLabel,
  failedId,
  retryId,
  emptyId,
  emptyTestId,
  onRetry,
  pager,
  children,
}: {
  /** The spec's screen name, as `data-screen`. */
  screen: string;
  title: ReactNode;
  actions?: ReactNode;
  search?: ReactNode;
  className?: string;
  state: ListState;
  /** The rows of the page shown. */
  count: number;
  loadingLabel: string;
  failedId: string;
  retryId: string;
  emptyId: string;
  emptyTestId: string;
  onRetry: () => void;
  pager: ListPagerProps;
  children: ReactNode;
}) {
  const intl = useIntl();
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
              <Button variant="secondary" onClick={onRetry}>
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
            <ListPager shown={count} {...pager} />
          </>
        )}
      </div>
    </section>
  );
}

function ListPager({
  label,
  summaryTestId,
  shown,
  total,
  pageIndex,
  pages,
  totalIsLowerBound = false,
  hasNext = pageIndex + 1 < pages,
  onPrevious,
  onNext,
}: ListPagerProps & { shown: number }) {
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
        <Button variant="secondary" size="sm" disabled={pageIndex === 0} onClick={onPrevious}>
          <FormattedMessage id="list.previous" />
        </Button>
        <Button variant="secondary" size="sm" disabled={!hasNext} onClick={onNext}>
          <FormattedMessage id="list.next" />
        </Button>
      </div>
    </nav>
  );
}
