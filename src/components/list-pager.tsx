import { FormattedMessage } from 'react-intl';
import { Button } from './ui/button';

/**
 * The foot of a paged list (spec §9: "items of totalItems, page of totalPages") with its previous and next
 * buttons; the list machine's context gives the figures, the screen sends page.previous / page.next.
 */
export function ListPager({
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
}: {
  label: string;
  summaryTestId: string;
  shown: number;
  total: number;
  pageIndex: number;
  pages: number;
  /** The total is where the server stopped counting: say "more than", and no page count. */
  totalIsLowerBound?: boolean;
  hasNext?: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
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
