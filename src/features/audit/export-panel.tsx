import { useActorRef, useSelector } from '@xstate/react';
import { useState, useSyncExternalStore } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ExportFilter } from '../../../machines/audit-export.machine';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { ExportProgressStore } from '../../runtime/export-progress';
import { useScreenMachine } from '../../runtime/machines';

/** The csv export of a list (the access audit's or the staff actions'), with its progress; test ids `<prefix>-export…`. */
export function ExportPanel({
  machine,
  filter,
  expected,
  prefix,
}: {
  machine: 'auditExport' | 'staffActionsExport';
  filter: ExportFilter;
  expected: number | null;
  prefix: string;
}) {
  const intl = useIntl();
  const [progress] = useState(() => new ExportProgressStore());
  const logic = useScreenMachine(machine, progress);
  const actor = useActorRef(logic);
  const exporting = useSelector(actor, (s) => s.hasTag('busy'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const result = useSelector(actor, (s) => (s.matches('done') ? s.context.result : null));
  const read = useSyncExternalStore(progress.subscribe, progress.get, progress.get);
  const rows = Math.max(0, read.lines - 1);
  const start = () => actor.send({ type: 'export.start', filter, expected });

  return (
    <div className="flex flex-col gap-2" aria-live="polite">
      <div className="flex flex-wrap gap-2">
        <Button onClick={start} loading={exporting} data-testid={`${prefix}-export`} size="sm">
          <FormattedMessage id="audit.export" />
        </Button>
        {exporting && (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => actor.send({ type: 'export.cancel' })}
            data-testid={`${prefix}-export-cancel`}
          >
            <FormattedMessage id="audit.export.cancel" />
          </Button>
        )}
      </div>
      {exporting && (
        <div className="flex flex-col gap-1" data-testid={`${prefix}-export-progress`}>
          {expected !== null && expected > 0 && (
            <progress
              className="h-2 w-full"
              max={expected}
              value={Math.min(rows, expected)}
              aria-label={intl.formatMessage({ id: 'audit.export.running' })}
            />
          )}
          <p className="text-sm text-slate-700">
            <FormattedMessage
              id="audit.export.progress"
              values={{ rows, kilobytes: Math.round(read.bytes / 1024) }}
            />
          </p>
        </div>
      )}
      {result && (
        <p className="text-sm text-emerald-800" data-testid={`${prefix}-export-done`} data-rows={result.rows}>
          <FormattedMessage
            id="audit.export.done"
            values={{ rows: result.rows, kilobytes: Math.max(1, Math.round(result.bytes / 1024)) }}
          />
        </p>
      )}
      {failed && (
        <Alert
          className="text-sm"
          message={intl.formatMessage({ id: 'audit.export.failed' })}
          data-testid={`${prefix}-export-failed`}
        />
      )}
    </div>
  );
}
