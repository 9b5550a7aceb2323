import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Button } from './ui/button';
import { Card } from './ui/card';
import { Spinner } from './ui/spinner';

/**
 * What a list machine's screen shows around its rows: a spinner while loading, a failure with a retry, a message
 * when nothing matches, and the rows (children) when there are some. Announced politely as it changes.
 */
export function ListStatus({
  state,
  count,
  loadingLabel,
  failedId,
  retryId,
  emptyId,
  emptyTestId,
  onRetry,
  children,
}: {
  state: string;
  count: number;
  loadingLabel: string;
  failedId: string;
  retryId: string;
  emptyId: string;
  emptyTestId: string;
  onRetry: () => void;
  children: ReactNode;
}) {
  return (
    <div className="mt-6" aria-live="polite" aria-busy={state === 'loading'}>
      {state === 'loading' && <Spinner label={loadingLabel} />}
      {state === 'failed' && (
        <Card>
          <p>
            <FormattedMessage id={failedId} />
          </p>
          <Button className="mt-4" variant="secondary" onClick={onRetry}>
            <FormattedMessage id={retryId} />
          </Button>
        </Card>
      )}
      {state === 'ready' && count === 0 && (
        <Card>
          <p data-testid={emptyTestId}>
            <FormattedMessage id={emptyId} />
          </p>
        </Card>
      )}
      {state === 'ready' && count > 0 && children}
    </div>
  );
}
