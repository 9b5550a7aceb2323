import { assign, fromPromise, setup } from 'xstate';
import type { AuditFilter } from '../contract/api/audit';
import type { StaffActionsFilter } from '../contract/api/staff-actions';
import { outputOf } from './actor-events';

// AuditAccesses' csv export (spec §2 AuditAccesses, §7 POST /public/audit_accesses with a blob response): exactly
// the rows the list shows under its filters, read as a stream so the screen can count bytes and rows as they
// come (src/actors/audit.ts keeps that progress beside the machine), then saved as a file. The Staff actions tab
// exports its record (POST /public/staff_actions) with the same machine.

/** The filter of the list being exported: the access audit's or the staff actions'. */
export type ExportFilter = AuditFilter | StaffActionsFilter;

/** What the export read: the file and how much of it there is. */
export interface AuditExportFile {
  file: Blob;
  rows: number;
  bytes: number;
}

export interface AuditExportContext {
  filter: ExportFilter | null;
  /** The list's total for the filter (a lower bound beyond 10,000), to show how far the export is. */
  expected: number | null;
  result: { rows: number; bytes: number } | null;
}

export type AuditExportEvent =
  | { type: 'export.start'; filter: ExportFilter; expected: number | null }
  | { type: 'export.cancel' }
  | { type: 'export.dismiss' };

export const auditExportMachine = setup({
  types: {
    context: {} as AuditExportContext,
    events: {} as AuditExportEvent,
  },
  actors: {
    // Placeholder: src/actors/audit.ts provides the streamed POST /public/audit_accesses.
    exportCsv: fromPromise<AuditExportFile, { filter: ExportFilter; expected: number | null }>(async () => {
      throw new Error('exportCsv is provided by src/actors/audit.ts');
    }),
  },
  actions: {
    storeFilter: assign(({ context, event }) =>
      event.type === 'export.start'
        ? { filter: event.filter, expected: event.expected, result: null }
        : context,
    ),
    storeResult: assign({
      result: ({ event }) => {
        const { rows, bytes } = outputOf<AuditExportFile>(event);
        return { rows, bytes };
      },
    }),
    // Placeholder: src/actors/audit.ts hands the file to the browser as a download.
    saveFile: () => {},
    forget: assign({ filter: null, expected: null, result: null }),
  },
}).createMachine({
  id: 'auditExport',
  description:
    'The csv export of AuditAccesses (spec §2, §7 POST /public/audit_accesses as a blob): the filtered rows streamed with a byte and row counter, then saved as audit-accesses.csv; a failed export is error export_failed.',
  context: { filter: null, expected: null, result: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'AuditAccesses with its "Export csv" button.',
      meta: { screen: 'AuditAccesses' },
      on: { 'export.start': { target: 'exporting', actions: 'storeFilter' } },
    },
    exporting: {
      description:
        'AuditAccesses, exporting: the bytes and rows read so far (of the expected rows), and a Cancel button.',
      meta: { screen: 'AuditAccesses' },
      tags: ['busy'],
      invoke: {
        id: 'exportCsv',
        src: 'exportCsv',
        input: ({ context }) => ({ filter: context.filter ?? {}, expected: context.expected }),
        onDone: { target: 'done', actions: ['storeResult', 'saveFile'] },
        onError: 'failed',
      },
      on: { 'export.cancel': { target: 'idle', actions: 'forget' } },
    },
    done: {
      description: 'AuditAccesses: the file is saved; how many rows and bytes it holds.',
      meta: { screen: 'AuditAccesses' },
      on: {
        'export.start': { target: 'exporting', actions: 'storeFilter' },
        'export.dismiss': { target: 'idle', actions: 'forget' },
      },
    },
    failed: {
      description:
        'Error export_failed: the export stopped (no answer, or the server failed); the button exports again.',
      meta: { screen: 'AuditAccesses', errorCode: 'export_failed' },
      tags: ['error'],
      on: {
        'export.start': { target: 'exporting', actions: 'storeFilter' },
        'export.dismiss': { target: 'idle', actions: 'forget' },
      },
    },
  },
});
