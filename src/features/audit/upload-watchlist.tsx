import { useSelector } from '@xstate/react';
import { type ChangeEvent, useEffect, useState } from 'react';
import { FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import type { SnapshotFrom } from 'xstate';
import { WATCHLIST_MAX_BYTES, WATCHLIST_MAX_LINE_CHARS } from '../../../contract/domain/watchlist';
import { shownUploadId, type watchlistUploadMachine } from '../../../machines/watchlist-upload.machine';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FileInput } from '../../components/ui/file-input';
import { Spinner } from '../../components/ui/spinner';
import { errorText } from '../../i18n/error-text';
import { useTenant } from '../../runtime/context';
import { useFormDraft } from '../../runtime/form-draft';
import { useScreenMachine } from '../../runtime/machines';
import { screenMeta, useScreenMirror } from '../../runtime/screen-mirror';

type UploadSnapshot = SnapshotFrom<typeof watchlistUploadMachine>;

/** The result screen's route carries success true or false (spec §2 upload-watchlist-result). */
export const uploadParamsOf = (snapshot: UploadSnapshot) => ({
  success: screenMeta(snapshot)?.success,
  id: shownUploadId(snapshot.context),
});

export const errorCodeOf = (snapshot: UploadSnapshot): string | undefined =>
  Object.values(snapshot.getMeta() as Record<string, { errorCode?: string } | undefined>).find(
    (meta) => meta?.errorCode,
  )?.errorCode;

const MAX_MB = WATCHLIST_MAX_BYTES / (1024 * 1024);

const DRAFT_FORM = 'uploadWatchlist';

/**
 * UploadWatchlist (spec §2 upload-watchlist, post_watchlists; §3 legal domain and file; §5 csv ≤ 10 MB): the legal
 * domain of the tenant's watchlistDomains and the csv; a file too large or not a csv is refused before it is read;
 * the preview (first rows, valid and invalid counts) is parsed in a worker before anything is sent.
 */
export function UploadWatchlist() {
  const intl = useIntl();
  const { settings } = useTenant();
  const actor = useScreenMachine('watchlistUpload');
  // Coming back to the form after a result (a typed URL, the back button) starts a new upload.
  useState(() => {
    const snapshot = actor.getSnapshot();
    if (snapshot.matches('stored') || snapshot.matches('failed')) actor.send({ type: 'upload.again' });
  });
  useScreenMirror(actor, uploadParamsOf);
  const domains = settings.watchlistDomains;
  // The legal domain outlives a sign-out (a 401 on uploading) in the tab's draft, as the staff forms keep theirs
  // (forgotten on a deliberate logout). The csv does not: it is personal data of the people listed, never put in the
  // browser's storage; the draft only remembers that one was chosen, so that the form asks for it again in words.
  const draft = useFormDraft(DRAFT_FORM);
  const [saved] = useState(() => draft.load());
  const [domain, setDomain] = useState(() =>
    saved?.domain && domains.includes(saved.domain) ? saved.domain : (domains[0] ?? ''),
  );
  const [fileNotKept, setFileNotKept] = useState(saved?.file_chosen === 'true');
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const uploading = useSelector(actor, (s) => s.matches('uploading'));
  const parsing = useSelector(actor, (s) => s.matches('parsing'));
  const refused = useSelector(actor, (s) => (s.matches('refused') ? errorCodeOf(s) : undefined));
  const file = useSelector(actor, (s) => s.context.file);
  const preview = useSelector(actor, (s) => (s.matches('preview') ? s.context.preview : null));
  const unreadable = useSelector(actor, (s) =>
    s.matches('refused') && s.context.preview && !s.context.preview.ok ? s.context.preview : null,
  );
  // After an upload that got no answer the file is still chosen, and Upload sends it again.
  const sendFailed = useSelector(actor, (s) => s.matches({ preview: 'sendFailed' }));
  const ready = useSelector(actor, (s) => s.matches({ preview: 'ready' })) || sendFailed;
  // What the server said of a failed upload, in the person's words (its code's, else its own detail).
  const sendReason = useSelector(actor, (s) => {
    const refusal = sendFailed ? s.context.refusal : null;
    return refusal?.code || refusal?.detail
      ? errorText(intl, refusal.code, { serverText: refusal.detail ?? null })
      : null;
  });

  const fileChosen = file !== null;
  useEffect(() => {
    if (fileChosen) setFileNotKept(false);
  }, [fileChosen]);
  useEffect(() => {
    draft.save({ domain, file_chosen: String(fileChosen || fileNotKept) });
  }, [draft, domain, fileChosen, fileNotKept]);
  // A list stored is done with: the next upload starts afresh.
  useEffect(() => {
    const subscription = actor.subscribe((snapshot) => {
      if (snapshot.matches('stored')) draft.clear();
    });
    return () => subscription.unsubscribe();
  }, [actor, draft]);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    if (chosen) actor.send({ type: 'file.chosen', file: chosen });
    // The same file chosen again after a refusal is a new choice.
    event.target.value = '';
  };

  return (
    <section data-screen="UploadWatchlist" className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.UploadWatchlist" />
      </h1>
      <p className="mt-2 text-slate-700">
        <FormattedMessage id="watchlist.intro" values={{ max: MAX_MB }} />
      </p>

      <Card className="mt-6 flex flex-col gap-4">
        <div className="flex flex-col gap-1.5">
          <label htmlFor="watchlist-domain" className="text-sm font-medium text-slate-800">
            <FormattedMessage id="watchlist.domain" />
          </label>
          <select
            id="watchlist-domain"
            data-testid="watchlist-domain"
            className="h-11 rounded-lg border border-slate-300 bg-white px-3"
            value={domain}
            onChange={(event) => setDomain(event.target.value)}
            disabled={uploading}
          >
            {domains.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="watchlist-file" className="text-sm font-medium text-slate-800">
            <FormattedMessage id="watchlist.file" />
          </label>
          <FileInput
            id="watchlist-file"
            data-testid="watchlist-file"
            accept=".csv,text/csv"
            onChange={choose}
            disabled={busy}
            aria-describedby="watchlist-file-hint"
            aria-invalid={refused ? true : undefined}
          />
          {fileNotKept && !fileChosen ? (
            <p
              id="watchlist-file-hint"
              role="status"
              className="text-sm font-medium text-amber-800"
              data-testid="watchlist-choose-again"
            >
              <FormattedMessage id="watchlist.file.chooseAgain" />
            </p>
          ) : (
            <p id="watchlist-file-hint" className="text-sm text-slate-600">
              <FormattedMessage id="watchlist.file.hint" values={{ max: MAX_MB }} />
            </p>
          )}
        </div>

        <div aria-live="polite">
          {parsing && <Spinner label={intl.formatMessage({ id: 'watchlist.parsing' })} />}
          {refused && (
            <p role="alert" className="text-red-800" data-testid="watchlist-refused" data-code={refused}>
              <FormattedMessage
                id={`watchlist.refused.${refused}`}
                values={{ max: MAX_MB, name: file?.name ?? '' }}
              />
              {unreadable && (
                <>
                  {' '}
                  <FormattedMessage
                    id={`watchlist.problem.${unreadable.problem}`}
                    values={{ line: unreadable.line ?? '', max: WATCHLIST_MAX_LINE_CHARS }}
                  />
                </>
              )}
            </p>
          )}
        </div>
      </Card>

      {preview?.ok && (
        <Card
          className="mt-6 flex flex-col gap-4"
          data-testid="watchlist-preview"
          data-file-name={file?.name ?? ''}
        >
          <h2 className="text-lg font-semibold">
            <FormattedMessage id="watchlist.preview" values={{ name: file?.name ?? '' }} />
          </h2>
          <p data-testid="watchlist-counts" data-valid={preview.valid} data-invalid={preview.invalid}>
            <FormattedMessage
              id="watchlist.counts"
              values={{
                valid: preview.valid,
                invalid: preview.invalid,
                validCount: <FormattedNumber value={preview.valid} />,
                invalidCount: <FormattedNumber value={preview.invalid} />,
              }}
            />
          </p>
          <div>
            <table className="w-full table-fixed text-left text-sm">
              <caption className="sr-only">
                <FormattedMessage id="watchlist.preview.caption" />
              </caption>
              <thead>
                <tr>
                  {preview.header.map((name, index) => (
                    <th
                      // biome-ignore lint/suspicious/noArrayIndexKey: columns have no identity but their place.
                      key={index}
                      scope="col"
                      className="border-b border-slate-300 px-2 py-1 font-medium break-words"
                    >
                      {name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((row, rowIndex) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows of a file have no identity but their place.
                  <tr key={rowIndex}>
                    {preview.header.map((_name, index) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: columns have no identity but their place.
                      <td key={index} className="border-b border-slate-100 px-2 py-1 break-words">
                        {row[index] ?? ''}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {preview.invalid > 0 && (
            <Alert
              data-testid="watchlist-invalid"
              message={intl.formatMessage({ id: 'watchlist.invalid' }, { invalid: preview.invalid })}
            >
              <ul className="list-disc pl-5 text-sm">
                {preview.errors.map((error) => (
                  <li key={error.row}>
                    <FormattedMessage
                      id="watchlist.invalid.row"
                      values={{
                        row: error.row,
                        problems: error.problems
                          .map((problem) => intl.formatMessage({ id: `watchlist.problem.${problem}` }))
                          .join(', '),
                      }}
                    />
                  </li>
                ))}
              </ul>
            </Alert>
          )}
          {sendFailed && (
            <Alert
              data-testid="watchlist-send-failed"
              message={intl.formatMessage({ id: 'watchlist.sendFailed' })}
            >
              {sendReason && (
                <p className="text-sm" data-testid="watchlist-send-reason">
                  {sendReason}
                </p>
              )}
            </Alert>
          )}
          <div className="flex flex-wrap gap-2">
            <Button
              onClick={() => actor.send({ type: 'upload.confirmed', domain })}
              disabled={!ready || domain === ''}
              data-testid="watchlist-upload"
            >
              <FormattedMessage id="watchlist.upload" values={{ domain }} />
            </Button>
            <Button variant="secondary" onClick={() => actor.send({ type: 'upload.again' })}>
              <FormattedMessage id="watchlist.chooseAnother" />
            </Button>
          </div>
        </Card>
      )}
      {uploading && (
        <Card className="mt-6" aria-live="polite">
          <Spinner label={intl.formatMessage({ id: 'watchlist.uploading' })} />
        </Card>
      )}
    </section>
  );
}
