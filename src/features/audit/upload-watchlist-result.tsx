import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { useParams } from 'wouter';
import { browserTimeZone, displayDateTimeIn, zoneOrUtc } from '../../../contract/domain/visits';
import { WATCHLIST_FILE_PROBLEMS, WATCHLIST_MAX_LINE_CHARS } from '../../../contract/domain/watchlist';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { useRuntime, useTenant } from '../../runtime/context';
import { useScreenMachine } from '../../runtime/machines';
import { useScreenMirror } from '../../runtime/screen-mirror';
import { errorCodeOf, uploadParamsOf } from './upload-watchlist';

/**
 * UploadWatchlistResult (spec §2 upload-watchlist-result, success true or false; §8 the watchlist error page): what
 * was stored (legal domain, rows, version) or why nothing was. The route carries the upload's id: opened by a
 * reload, a bookmark or the audit's enforcement source link, the machine reads that upload back from the server.
 * Without an id (no answer from the server) a reload goes back to the form.
 */
/** When the version was stored, in the tenant's timezone (named when the browser is in another). */
function TimeInZone({ iso, timeZone }: { iso: string; timeZone: string }) {
  const zone = zoneOrUtc(timeZone);
  const shown = displayDateTimeIn(new Date(iso), zone);
  return (
    <span data-testid="watchlist-result-time">
      {shown}
      {zone !== browserTimeZone() && <span className="whitespace-nowrap"> ({zone})</span>}
    </span>
  );
}

export function UploadWatchlistResult() {
  const intl = useIntl();
  const { settings } = useTenant();
  const runtime = useRuntime();
  const actor = useScreenMachine('watchlistUpload');
  const { id } = useParams<{ id?: string }>();
  // The URL becomes an event before the mirror reads the machine, so a reload does not bounce to the form first;
  // the machine ignores the id it already shows.
  useState(() => {
    if (id) actor.send({ type: 'result.opened', id });
    return id;
  });
  useScreenMirror(actor, uploadParamsOf);
  const opening = useSelector(actor, (s) => s.matches('opening'));
  const unread = useSelector(actor, (s) => s.matches('unread'));
  const canUpload = useSelector(
    runtime.session,
    (s) => s.context.session?.roles.includes('post_watchlists') ?? false,
  );
  const stored = useSelector(actor, (s) => (s.matches('stored') ? s.context.stored : null));
  const failed = useSelector(actor, (s) =>
    s.matches('failed') ? (errorCodeOf(s) ?? 'upload_not_found') : null,
  );
  const refusal = useSelector(actor, (s) => s.context.refusal);
  // The server's words for what is wrong with the file (a row too long and its line), when it has them.
  const fileProblem =
    refusal?.problem && (WATCHLIST_FILE_PROBLEMS as readonly string[]).includes(refusal.problem.code)
      ? refusal.problem
      : null;
  const domain = useSelector(actor, (s) => s.context.domain ?? s.context.refusal?.domain ?? null);
  const fileName = useSelector(
    actor,
    (s) => s.context.file?.name ?? s.context.stored?.file_name ?? s.context.refusal?.fileName ?? '',
  );

  return (
    <section data-screen="UploadWatchlistResult" className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.UploadWatchlistResult" />
      </h1>
      {opening && (
        <div className="mt-6">
          <Spinner label={intl.formatMessage({ id: 'watchlist.result.opening' })} />
        </div>
      )}
      {unread && (
        <Alert
          className="mt-6"
          data-testid="watchlist-unread"
          message={intl.formatMessage({ id: 'watchlist.result.unread' })}
        >
          <div>
            <Button
              variant="secondary"
              onClick={() => actor.send({ type: 'result.retried' })}
              data-testid="watchlist-read-again"
            >
              <FormattedMessage id="watchlist.result.readAgain" />
            </Button>
          </div>
        </Alert>
      )}
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
              <TimeInZone iso={stored.created_at} timeZone={settings.timeZone} /> ·{' '}
              <span className="font-mono text-xs">{stored.watchlist_id}</span>
            </dd>
            <dt>
              <FormattedMessage id="watchlist.file" />
            </dt>
            <dd className="break-all" data-testid="watchlist-result-file">
              {fileName}
            </dd>
          </dl>
          <p className="mt-3 text-sm" data-testid="watchlist-result-current">
            {stored.current === false ? (
              <FormattedMessage id="watchlist.result.notCurrent" />
            ) : (
              <FormattedMessage id="watchlist.result.replaced" />
            )}
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
              values={{ domain: domain ?? '', name: fileName }}
            />
          </p>
          {fileProblem ? (
            <p className="mt-2" data-testid="watchlist-result-problem" data-problem={fileProblem.code}>
              <FormattedMessage
                id={`watchlist.problem.${fileProblem.code}`}
                values={{ line: fileProblem.line ?? '', max: fileProblem.max ?? WATCHLIST_MAX_LINE_CHARS }}
              />
            </p>
          ) : (
            refusal?.detail && <p className="mt-2 text-sm">{refusal.detail}</p>
          )}
        </Card>
      )}
      {canUpload && !opening && (
        <Button
          className="mt-6"
          onClick={() => actor.send({ type: 'upload.again' })}
          data-testid="watchlist-again"
        >
          <FormattedMessage id="watchlist.again" />
        </Button>
      )}
    </section>
  );
}
