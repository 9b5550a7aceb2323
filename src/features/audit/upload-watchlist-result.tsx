import { useSelector } from '@xstate/react';
import { FormattedMessage, FormattedNumber } from 'react-intl';
import { watchlistUploadOf } from '../../actors/watchlists';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { formatDateTime } from '../../domain/dates';
import { useRuntime } from '../../runtime/context';
import { useScreenMirror } from '../../runtime/screen-mirror';
import { errorCodeOf, uploadParamsOf } from './upload-watchlist';

/**
 * UploadWatchlistResult (spec §2 upload-watchlist-result, success true or false; §8 the watchlist error page): what
 * was stored (legal domain, rows, version) or why nothing was. Without an upload behind it (a reload) the machine
 * is back at the form, and so is the screen.
 */
export function UploadWatchlistResult() {
  const runtime = useRuntime();
  const actor = watchlistUploadOf(runtime);
  useScreenMirror(actor, uploadParamsOf);
  const stored = useSelector(actor, (s) => (s.matches('stored') ? s.context.stored : null));
  const failed = useSelector(actor, (s) =>
    s.matches('failed') ? (errorCodeOf(s) ?? 'upload_failed') : null,
  );
  const refusal = useSelector(actor, (s) => s.context.refusal);
  const file = useSelector(actor, (s) => s.context.file);
  const domain = useSelector(actor, (s) => s.context.domain);

  return (
    <section data-screen="UploadWatchlistResult" className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.UploadWatchlistResult" />
      </h1>
      {stored && (
        <Card
          className="mt-6 border-emerald-300 bg-emerald-50 text-emerald-950"
          data-testid="watchlist-result"
          data-success="true"
        >
          <h2 className="text-lg font-semibold">
            <FormattedMessage id="watchlist.result.stored" />
          </h2>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt>
              <FormattedMessage id="watchlist.domain" />
            </dt>
            <dd data-testid="watchlist-result-domain">{stored.legal_domain}</dd>
            <dt>
              <FormattedMessage id="watchlist.result.rows" />
            </dt>
            <dd data-testid="watchlist-result-rows">
              <FormattedNumber value={stored.row_count} />
            </dd>
            <dt>
              <FormattedMessage id="watchlist.result.version" />
            </dt>
            <dd className="break-all">
              {formatDateTime(new Date(stored.created_at))} ·{' '}
              <span className="font-mono text-xs">{stored.watchlist_id}</span>
            </dd>
            <dt>
              <FormattedMessage id="watchlist.file" />
            </dt>
            <dd className="break-all">{file?.name}</dd>
          </dl>
          <p className="mt-3 text-sm">
            <FormattedMessage id="watchlist.result.replaced" />
          </p>
        </Card>
      )}
      {failed && (
        <Card
          className="mt-6 border-red-300 bg-red-50 text-red-950"
          role="alert"
          data-testid="watchlist-result"
          data-success="false"
          data-code={failed}
        >
          <h2 className="text-lg font-semibold">
            <FormattedMessage id="watchlist.result.notStored" />
          </h2>
          <p className="mt-2">
            <FormattedMessage
              id={`watchlist.failed.${failed}`}
              values={{ domain: domain ?? '', name: file?.name ?? '' }}
            />
          </p>
          {refusal?.detail && <p className="mt-2 text-sm">{refusal.detail}</p>}
        </Card>
      )}
      <Button
        className="mt-6"
        onClick={() => actor.send({ type: 'upload.again' })}
        data-testid="watchlist-again"
      >
        <FormattedMessage id="watchlist.again" />
      </Button>
    </section>
  );
}
