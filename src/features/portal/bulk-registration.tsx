import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import {
  defineMessages,
  FormattedMessage,
  type IntlShape,
  type MessageDescriptor,
  useIntl,
} from 'react-intl';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import {
  BULK_IMAGE_MAX_BYTES,
  BULK_IMAGE_MIN_BYTES,
  BULK_MAX_ROWS,
  BULK_MAX_UPLOAD_BYTES,
  type BulkRowResult,
  resultsCsv,
} from '../../../contract/domain/bulk';
import { acsIdSchemaOf, WIEGAND_MAX, WIEGAND_MIN } from '../../../contract/domain/singles';
import type { bulkRegistrationMachine } from '../../../machines/bulk-registration.machine';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FileInput } from '../../components/ui/file-input';
import { Spinner } from '../../components/ui/spinner';
import { errorText } from '../../i18n/error-text';
import { useRuntime, useTenant } from '../../runtime/context';
import { useScreenMachine } from '../../runtime/machines';

// AddUsersFromPhotos ("Add users from photos"; spec §2 portal menu, post_singles): renders
// machines/bulk-registration.

type Snapshot = SnapshotFrom<typeof bulkRegistrationMachine>;
type Actor = ActorRefFrom<typeof bulkRegistrationMachine>;

/** Reasons of a row that are not field errors of common.errors. */
const REASONS = defineMessages({
  duplicate_row: { id: 'bulk.reason.duplicate_row' },
  image_not_found: { id: 'bulk.reason.image_not_found' },
  image_not_picture: { id: 'bulk.reason.image_not_picture' },
  image_corrupt: { id: 'bulk.reason.image_corrupt' },
  embedding_generation_failed: { id: 'bulk.reason.embedding_generation_failed' },
  selfie_not_provided: { id: 'bulk.reason.selfie_not_provided' },
  qr_generation_failed: { id: 'bulk.reason.qr_generation_failed' },
  document_already_exists: { id: 'bulk.reason.document_already_exists' },
  unknown: { id: 'bulk.reason.unknown' },
});

const FIELDS = defineMessages({
  email: { id: 'bulk.field.email' },
  first_name: { id: 'bulk.field.first_name' },
  last_name: { id: 'bulk.field.last_name' },
  acs_id: { id: 'bulk.field.acs_id' },
  image: { id: 'bulk.field.image' },
  username: { id: 'bulk.field.username' },
});

const PROBLEMS = defineMessages({
  media_corrupt: { id: 'bulk.problem.media_corrupt' },
  metadata_invalid: { id: 'bulk.problem.metadata_invalid' },
  metadata_empty: { id: 'bulk.problem.metadata_empty' },
  metadata_columns: { id: 'bulk.problem.metadata_columns' },
  too_many_elements: { id: 'bulk.problem.too_many_elements' },
  invalid_rows: { id: 'bulk.problem.invalid_rows' },
  file_unreadable: { id: 'bulk.problem.file_unreadable' },
  upload_failed: { id: 'bulk.problem.upload_failed' },
  server_error: { id: 'bulk.problem.server_error' },
  payload_too_large: { id: 'bulk.problem.payload_too_large' },
  unknown: { id: 'bulk.problem.unknown' },
  progress_unavailable: { id: 'bulk.problem.progress_unavailable' },
});

const COLUMNS = defineMessages({
  row: { id: 'bulk.col.row' },
  email: { id: 'bulk.col.email' },
  outcome: { id: 'bulk.col.outcome' },
  reason: { id: 'bulk.col.reason' },
  userId: { id: 'bulk.col.userId' },
  accepted: { id: 'bulk.outcome.accepted' },
  rejected: { id: 'bulk.outcome.rejected' },
});

/** A catalogue message with values (the descriptors above carry no value types). */
const format = (intl: IntlShape, message: MessageDescriptor, values?: Record<string, string | number>) =>
  intl.formatMessage(message, values);

/** Row codes that need the field named beside them. */
const GENERIC_CODES = new Set(['required', 'wrong_format', 'too_long', 'duplicate_row', 'wiegand_range']);

/** At most this many row problems are listed; the rest are counted. */
const LISTED_PROBLEMS = 50;

function errorCodeOf(snapshot: Snapshot): string | undefined {
  const metas = Object.values(snapshot.getMeta()) as (Record<string, unknown> | undefined)[];
  for (const meta of metas) if (typeof meta?.errorCode === 'string') return meta.errorCode;
  return undefined;
}

function reasonText(intl: IntlShape, reason: string | null): string {
  if (!reason) return '';
  if (reason in REASONS) return intl.formatMessage(REASONS[reason as keyof typeof REASONS]);
  return errorText(intl, reason, { values: { min: WIEGAND_MIN, max: WIEGAND_MAX } });
}

function fieldText(intl: IntlShape, field: string | null | undefined): string {
  return field && field in FIELDS ? intl.formatMessage(FIELDS[field as keyof typeof FIELDS]) : '';
}

/**
 * The chosen files never go to the browser's storage: the photos are biometric data, and the metadata names people.
 * The tab's draft (as the staff forms keep theirs, forgotten on a deliberate logout) only remembers that files were
 * chosen, so that after a sign-out (a 401 on uploading) the screen says, in words, to choose them again. True while
 * that is to be said.
 */
function useFilesNotKept(actor: Actor): boolean {
  const drafts = useScreenMachine('formDraft');
  const { tenant } = useTenant();
  const userId = useSelector(useRuntime().session, (s) => s.context.session?.userId ?? 'anonymous');
  const [notKept, setNotKept] = useState(
    () => drafts.load(DRAFT_FORM, tenant, userId)?.files_chosen === 'true',
  );
  const chosen = useSelector(actor, (s) => s.context.files !== null);
  // Once the server has taken the upload, there is nothing to choose again.
  const accepted = useSelector(actor, (s) => s.matches('processing') || s.matches('results'));
  useEffect(() => {
    if (chosen) setNotKept(false);
  }, [chosen]);
  useEffect(() => {
    if (accepted) drafts.clear(DRAFT_FORM, tenant, userId);
    else drafts.save(DRAFT_FORM, tenant, userId, { files_chosen: String(chosen || notKept) });
  }, [drafts, tenant, userId, chosen, notKept, accepted]);
  return notKept && !chosen;
}
const DRAFT_FORM = 'addUsersFromPhotos';

export function AddUsersFromPhotos() {
  const { settings } = useTenant();
  const logic = useScreenMachine('bulkRegistration');
  const actor = useActorRef(logic, { input: { acsIdSchema: acsIdSchemaOf(settings.acsIdSchema) } });
  const filesNotKept = useFilesNotKept(actor);
  const view = useSelector(actor, (s) =>
    s.matches('results')
      ? 'results'
      : s.matches('uploading')
        ? 'uploading'
        : s.matches('processing')
          ? 'processing'
          : s.matches('failed')
            ? 'failed'
            : 'choose',
  );
  const intl = useIntl();
  return (
    <section data-screen="AddUsersFromPhotos" className="mx-auto flex max-w-4xl flex-col gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="screen.AddUsersFromPhotos" />
      </h1>
      {view === 'choose' && <Choose actor={actor} filesNotKept={filesNotKept} />}
      {view === 'uploading' && <Uploading actor={actor} />}
      {view === 'processing' && <Processing actor={actor} />}
      {view === 'failed' && <Failed actor={actor} />}
      {view === 'results' && <Results actor={actor} intl={intl} />}
    </section>
  );
}

function Choose({ actor, filesNotKept }: { actor: Actor; filesNotKept: boolean }) {
  const intl = useIntl();
  const metadataRef = useRef<HTMLInputElement>(null);
  const mediaRef = useRef<HTMLInputElement>(null);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  // While the choice is read, the pickers stay usable (the machine starts over on a new choice): disabled under the
  // focus of the one just used, they would drop the keyboard's focus onto the page.
  const reading = useSelector(actor, (s) => s.matches('checking'));
  const ready = useSelector(actor, (s) => s.matches('ready'));
  const invalid = useSelector(actor, (s) => (s.matches('invalid') ? errorCodeOf(s) : undefined));
  const rowCount = useSelector(actor, (s) => s.context.rowCount);
  const problems = useSelector(actor, (s) => s.context.problems);
  const fatal = useSelector(actor, (s) => s.context.fatal);
  const files = useSelector(actor, (s) => s.context.files);

  // Back from an upload cancelled, the files are still chosen (Upload sends them): the choosers show them again,
  // rather than "no file chosen" beside "ready". Given back without a change event, so they are not read again.
  useEffect(() => {
    if (!files || typeof DataTransfer === 'undefined') return;
    const pairs = [
      [metadataRef.current, files.metadata],
      [mediaRef.current, files.media],
    ] as const;
    for (const [input, file] of pairs) {
      if (!input || input.files?.[0] === file) continue;
      const transfer = new DataTransfer();
      transfer.items.add(file);
      input.files = transfer.files;
    }
  }, [files]);

  const chosen = () => {
    const metadata = metadataRef.current?.files?.[0];
    const media = mediaRef.current?.files?.[0];
    if (metadata && media) actor.send({ type: 'files.chosen', metadata, media });
  };

  const problemText = (): string => {
    if (fatal?.code === 'metadata_columns')
      return format(intl, PROBLEMS.metadata_columns, { columns: fatal.missing.join(', ') });
    if (fatal?.code === 'metadata_empty') return format(intl, PROBLEMS.metadata_empty);
    if (fatal?.code === 'metadata_invalid' && 'row' in fatal && fatal.row)
      return `${intl.formatMessage(PROBLEMS.metadata_invalid)} ${intl.formatMessage({ id: 'bulk.problem.element' }, { row: fatal.row })}`;
    if (invalid === 'too_many_elements')
      return format(intl, PROBLEMS.too_many_elements, {
        count: fatal?.code === 'too_many_elements' ? fatal.count : BULK_MAX_ROWS + 1,
        max: BULK_MAX_ROWS,
      });
    if (invalid === 'invalid_rows')
      return format(intl, PROBLEMS.invalid_rows, { count: new Set(problems.map((p) => p.row)).size });
    return intl.formatMessage(PROBLEMS[(invalid ?? 'unknown') as keyof typeof PROBLEMS] ?? PROBLEMS.unknown);
  };

  return (
    <Card className="flex flex-col gap-5" aria-busy={busy}>
      <div className="flex flex-col gap-2 text-slate-700">
        <p>
          <FormattedMessage id="bulk.intro" values={{ max: BULK_MAX_ROWS }} />
        </p>
        <p>
          <FormattedMessage
            id="bulk.columns"
            values={{ code: (chunks) => <code className="rounded bg-slate-100 px-1">{chunks}</code> }}
          />
        </p>
        <p>
          <FormattedMessage
            id="bulk.pictures"
            values={{
              min: intl.formatNumber(BULK_IMAGE_MIN_BYTES),
              max: intl.formatNumber(BULK_IMAGE_MAX_BYTES),
            }}
          />
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-1.5">
          <label htmlFor="bulk-metadata" className="text-sm font-medium text-slate-800">
            <FormattedMessage id="bulk.metadata" />
          </label>
          <FileInput
            ref={metadataRef}
            id="bulk-metadata"
            name="metadata"
            accept=".csv,.json,text/csv,application/json"
            disabled={busy && !reading}
            onChange={chosen}
          />
        </div>
        <div className="flex min-w-0 flex-col gap-1.5">
          <label htmlFor="bulk-media" className="text-sm font-medium text-slate-800">
            <FormattedMessage id="bulk.media" />
          </label>
          <FileInput
            ref={mediaRef}
            id="bulk-media"
            name="media"
            accept=".zip,application/zip"
            disabled={busy && !reading}
            onChange={chosen}
          />
        </div>
      </div>
      {filesNotKept && (
        <p role="status" className="text-sm font-medium text-amber-800" data-testid="bulk-choose-again">
          <FormattedMessage id="bulk.chooseAgain" />
        </p>
      )}
      {busy && <Spinner label={intl.formatMessage({ id: 'bulk.checking' })} />}
      {invalid && (
        <Alert data-testid="bulk-invalid" data-error={invalid} message={problemText()}>
          {invalid === 'invalid_rows' && (
            <ul className="list-disc ps-5 text-sm">
              {problems.slice(0, LISTED_PROBLEMS).map((p) => (
                <li key={`${p.row}-${p.field}`} data-testid={`bulk-problem-${p.row}`}>
                  <FormattedMessage
                    id="bulk.rowProblem"
                    values={{
                      row: p.row,
                      field: fieldText(intl, p.field),
                      message: reasonText(intl, p.code),
                    }}
                  />
                </li>
              ))}
              {problems.length > LISTED_PROBLEMS && (
                <li>
                  <FormattedMessage id="bulk.more" values={{ count: problems.length - LISTED_PROBLEMS }} />
                </li>
              )}
            </ul>
          )}
        </Alert>
      )}
      {ready && (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <p role="status" className="font-medium text-green-800" data-testid="bulk-ready">
            <FormattedMessage id="bulk.ready" values={{ count: rowCount }} />
          </p>
          <Button onClick={() => actor.send({ type: 'upload' })}>
            <FormattedMessage id="bulk.upload" />
          </Button>
        </div>
      )}
    </Card>
  );
}

function ProgressBar({ value, label }: { value: number; label: string }) {
  const percent = Math.round(value * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div className="h-full bg-brand transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  );
}

function Uploading({ actor }: { actor: Actor }) {
  const intl = useIntl();
  const progress = useSelector(actor, (s) => s.context.progress);
  const label = intl.formatMessage(
    { id: 'bulk.uploading' },
    { percent: intl.formatNumber(progress, { style: 'percent' }) },
  );
  return (
    <Card className="flex flex-col gap-4" aria-busy>
      <p role="status">{label}</p>
      <ProgressBar value={progress} label={label} />
      <div>
        <Button variant="secondary" onClick={() => actor.send({ type: 'cancel' })}>
          <FormattedMessage id="bulk.cancel" />
        </Button>
      </div>
    </Card>
  );
}

function Processing({ actor }: { actor: Actor }) {
  const intl = useIntl();
  const job = useSelector(actor, (s) => s.context.job);
  const total = job?.total ?? 0;
  const done = job?.done ?? 0;
  const label = intl.formatMessage(
    { id: 'bulk.processing' },
    { done, total, accepted: job?.accepted ?? 0, rejected: job?.rejected ?? 0 },
  );
  return (
    <Card className="flex flex-col gap-4" aria-busy data-testid="bulk-processing">
      <p role="status">{label}</p>
      <ProgressBar value={total > 0 ? done / total : 0} label={label} />
    </Card>
  );
}

function Failed({ actor }: { actor: Actor }) {
  const intl = useIntl();
  const code = useSelector(actor, (s) => errorCodeOf(s) ?? 'unknown');
  const files = useSelector(actor, (s) => s.context.files);
  const progressLost = code === 'progress_unavailable';
  return (
    <Alert
      data-testid="bulk-failed"
      data-error={code}
      message={format(intl, PROBLEMS[code as keyof typeof PROBLEMS] ?? PROBLEMS.unknown, {
        max: Math.round(BULK_MAX_UPLOAD_BYTES / (1024 * 1024)),
      })}
    >
      {/* The chosen files are kept: trying again sends them as they were, nothing to choose again. */}
      {!progressLost && files && (
        <p
          data-testid="bulk-kept"
          data-metadata={`${files.metadata.name} ${files.metadata.size}`}
          data-media={`${files.media.name} ${files.media.size}`}
        >
          <FormattedMessage
            id="bulk.kept"
            values={{ metadata: files.metadata.name, media: files.media.name }}
          />
        </p>
      )}
      <div className="mt-2 flex flex-wrap gap-3">
        {progressLost ? (
          // The server goes on with the import: the progress of the same job is read again.
          <Button onClick={() => actor.send({ type: 'progress.retried' })}>
            <FormattedMessage id="bulk.readAgain" />
          </Button>
        ) : (
          <Button onClick={() => actor.send({ type: 'upload' })}>
            <FormattedMessage id="bulk.retry" />
          </Button>
        )}
        <Button variant="secondary" onClick={() => actor.send({ type: 'again' })}>
          <FormattedMessage id="bulk.again" />
        </Button>
      </div>
    </Alert>
  );
}

function Results({ actor, intl }: { actor: Actor; intl: IntlShape }) {
  const job = useSelector(actor, (s) => s.context.job);
  const rows = job?.rows ?? [];
  const describe = (r: BulkRowResult) => {
    const field = fieldText(intl, r.field);
    const reason = reasonText(intl, r.reason);
    return {
      outcome: intl.formatMessage(COLUMNS[r.outcome]),
      // The generic codes say nothing of the field; the others (email_already_in_use…) already name it.
      reason: field && reason && GENERIC_CODES.has(r.reason ?? '') ? `${field}: ${reason}` : reason,
    };
  };
  const download = () => {
    const csv = resultsCsv(
      rows,
      [COLUMNS.row, COLUMNS.email, COLUMNS.outcome, COLUMNS.reason, COLUMNS.userId].map((m) =>
        intl.formatMessage(m),
      ),
      describe,
    );
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'bulk-registration-results.csv';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <Card className="flex flex-col gap-4" data-testid="bulk-results">
      <p role="status" id="bulk-summary" className="font-medium">
        <FormattedMessage
          id="bulk.summary"
          values={{ accepted: job?.accepted ?? 0, rejected: job?.rejected ?? 0, total: job?.total ?? 0 }}
        />
      </p>
      {job?.status === 'failed' && (
        <Alert
          data-testid="bulk-interrupted"
          message={intl.formatMessage({ id: 'bulk.interrupted' }, { done: job.done, total: job.total })}
        />
      )}
      {/* No horizontal scrolling on a phone: the cells wrap (an email breaks anywhere). */}
      <div>
        <table className="w-full table-fixed text-left text-sm" aria-describedby="bulk-summary">
          <thead className="border-b border-slate-300 text-slate-700">
            <tr>
              {/* "#" on screen keeps the narrow column narrow in every language; the header still reads "Row". */}
              <th scope="col" className="w-8 py-2 pe-2">
                <span aria-hidden="true">#</span>
                <span className="sr-only">
                  <FormattedMessage {...COLUMNS.row} />
                </span>
              </th>
              <th scope="col" className="py-2 pe-3">
                <FormattedMessage {...COLUMNS.email} />
              </th>
              <th scope="col" className="py-2 pe-3">
                <FormattedMessage {...COLUMNS.outcome} />
              </th>
              <th scope="col" className="py-2">
                <FormattedMessage {...COLUMNS.reason} />
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const text = describe(r);
              return (
                <tr
                  key={r.row}
                  data-testid={`bulk-row-${r.row}`}
                  data-outcome={r.outcome}
                  className="border-b border-slate-100 align-top"
                >
                  <td className="py-2 pe-2 tabular-nums">{r.row}</td>
                  <td className="py-2 pe-3 [overflow-wrap:anywhere]">{r.email}</td>
                  <td
                    className={
                      r.outcome === 'accepted' ? 'py-2 pe-3 text-green-800' : 'py-2 pe-3 text-red-800'
                    }
                  >
                    {text.outcome}
                  </td>
                  <td className="py-2 [overflow-wrap:anywhere]">{text.reason}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap gap-3">
        <Button onClick={download}>
          <FormattedMessage id="bulk.download" />
        </Button>
        <Button variant="secondary" onClick={() => actor.send({ type: 'again' })}>
          <FormattedMessage id="bulk.again" />
        </Button>
      </div>
    </Card>
  );
}
