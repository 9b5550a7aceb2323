import { describe, expect, it } from 'vitest';
import { type AuditExportEvent, auditExportMachine } from '../../machines/audit-export.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

const spec: ModelSpec<typeof auditExportMachine> = {
  machine: auditExportMachine,
  events: () => [
    { type: 'export.start', filter: { result: 'denied' }, expected: 12 } satisfies AuditExportEvent,
    { type: 'export.cancel' } satisfies AuditExportEvent,
    { type: 'export.dismiss' } satisfies AuditExportEvent,
    { type: 'xstate.done.actor.exportCsv', output: { file: new Blob(['x']), rows: 12, bytes: 900 } },
    { type: 'xstate.error.actor.exportCsv', error: new Error('network') },
  ],
  provide: (control) =>
    auditExportMachine.provide({
      actors: { exportCsv: control.actor('exportCsv') },
      actions: { saveFile: () => {} },
    }),
  errorCodes: { expected: ['export_failed'], read: codesInMeta('errorCode') },
};

describe('audit export machine (generated paths)', () => {
  it('covers every transition and every error on a real actor', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });
});
