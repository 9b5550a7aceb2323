// The effects of AuditAccesses (spec §2, §7 Visits and audit): the list machine's pages of the access audit, the
// facilities of its filter, and the csv export (streamed, its progress reported to the screen's src/runtime/export-progress.ts store).

import type { AuditFilter } from '../../contract/api/audit';
import type { Facility } from '../../contract/api/facilities';
import type { StaffActionsFilter } from '../../contract/api/staff-actions';
import {
  type AuditExportFile,
  auditExportMachine,
  type ExportFilter,
} from '../../machines/audit-export.machine';
import { listMachine, type Page, type PageQuery } from '../../machines/list.machine';
import { lazyCalls } from '../api/lazy';
import { hasRole } from '../auth/access';
import { apiFilterOf, decodeAuditFilter } from '../domain/audit';
import { PAGE_SIZES } from '../domain/lists';
import { decodeStaffActionsForm, staffActionsFilterOf } from '../domain/staff-actions';
import type { Runtime } from '../runtime/context';
import type { ExportProgressSink } from '../runtime/machines';
import { firstPageQuery } from './first-page';
import { type FirstCalls, preloadable } from './preloaded-calls';
import { fromPromise } from './promise';

const audit = lazyCalls(() => import('../api/audit'));
const { exportAuditAccesses } = audit;
const facilities = lazyCalls(() => import('../api/facilities'));
const { exportStaffActions, listStaffActions } = lazyCalls(() => import('../api/staff-actions'));
// AuditAccesses' first calls (src/actors/preload.ts).
const listAuditAccesses = preloadable('listAuditAccesses', audit.listAuditAccesses);
const listFacilities = preloadable('listFacilities', facilities.listFacilities);

type Api = Pick<Runtime, 'apiClient'>;

const auditPage =
  (runtime: Api, timeZone: string, now: () => Date) =>
  async ({ input, signal }: { input: PageQuery; signal: AbortSignal }): Promise<Page> => {
    const filter = apiFilterOf(decodeAuditFilter(input.filter, now(), timeZone));
    const page = await listAuditAccesses(
      await runtime.apiClient(),
      { ...filter, pageSize: input.pageSize, pageIndex: input.pageIndex },
      { signal },
    );
    return { items: page.items, totalItems: page.total, totalIsLowerBound: page.totalIsLowerBound };
  };

/** The pages of AuditAccesses: the list machine's filter string is the screen's AuditListFilter. */
export function auditListLogic(runtime: Api, timeZone: string, now: () => Date = () => new Date()) {
  return listMachine.provide({
    actors: { fetchPage: fromPromise<Page, PageQuery>(auditPage(runtime, timeZone, now)) },
  });
}

/** The pages of the Staff actions tab: the list machine's filter string is the tab's form. */
export function staffActionsListLogic(runtime: Api, timeZone: string) {
  return listMachine.provide({
    actors: {
      fetchPage: fromPromise<Page, PageQuery>(async ({ input, signal }) => {
        const filter = staffActionsFilterOf(decodeStaffActionsForm(input.filter), timeZone);
        const page = await listStaffActions(
          await runtime.apiClient(),
          { ...filter, pageSize: input.pageSize, pageIndex: input.pageIndex },
          { signal },
        );
        return { items: page.items, totalItems: page.total, totalIsLowerBound: page.totalIsLowerBound };
      }),
    },
  });
}

const facilitiesOf =
  (runtime: Api, mine: boolean) =>
  async ({ signal }: { signal: AbortSignal }): Promise<Facility[]> =>
    listFacilities(await runtime.apiClient(), { signal, mine });

/** The facilities of the filter: every one of the tenant, or only the caller's own (`mine`). */
export function auditFacilitiesLogic(runtime: Api, mine: boolean) {
  return fromPromise<Facility[]>(facilitiesOf(runtime, mine));
}

/**
 * AuditAccesses' first calls, as its screen starts them: the first page of the default range (the last 30 days, up
 * to the instant the screen opens) and the facilities of its filter (the caller's own without
 * post_audit_accesses_all).
 */
export const auditAccessesFirstCalls: FirstCalls = (runtime, session, signal, openedAt) =>
  Promise.all([
    auditPage(
      runtime,
      runtime.app.getSnapshot().context.tenant?.settings.timeZone ?? '',
      () => openedAt,
    )({ input: firstPageQuery(PAGE_SIZES.audit), signal }),
    facilitiesOf(runtime, !hasRole(session, 'post_audit_accesses_all'))({ signal }),
  ]);

/** Hands a file to the browser as a download. */
function saveBlob(file: Blob, name: string) {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the file by the time the next task runs; a minute is generous.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const exportName = (prefix: string, now: Date) =>
  `${prefix}-${now.toISOString().slice(0, 16).replace(/[:T]/g, '-')}.csv`;

type Download = (
  api: Awaited<ReturnType<Api['apiClient']>>,
  filter: ExportFilter,
  onProgress: (read: { bytes: number; lines: number }) => void,
  options: { signal: AbortSignal },
) => Promise<Blob>;

/** The export machine with one streamed csv download and the save: the access audit's or the staff actions'. */
function exportLogic(runtime: Api, progress: ExportProgressSink, download: Download, prefix: string) {
  let file: Blob | null = null;
  return auditExportMachine.provide({
    actors: {
      exportCsv: fromPromise<AuditExportFile, { filter: ExportFilter; expected: number | null }>(
        async ({ input, signal }) => {
          progress.report({ bytes: 0, lines: 0 }, true);
          let last: { bytes: number; lines: number } = { bytes: 0, lines: 0 };
          const blob = await download(
            await runtime.apiClient(),
            input.filter,
            (read) => {
              last = read;
              progress.report(read);
            },
            { signal },
          );
          progress.report(last, true);
          file = blob;
          return { file: blob, rows: Math.max(0, last.lines - 1), bytes: blob.size };
        },
      ),
    },
    actions: {
      saveFile: () => {
        if (file) saveBlob(file, exportName(prefix, new Date()));
        file = null;
      },
    },
  });
}

/** The export machine with the streamed POST /public/audit_accesses and the download. */
export function auditExportLogic(runtime: Api, progress: ExportProgressSink) {
  // The machine exports what its screen started: AuditAccesses' list starts it with the access audit's filter.
  const download: Download = (api, filter, onProgress, options) =>
    exportAuditAccesses(api, filter as AuditFilter, onProgress, options);
  return exportLogic(runtime, progress, download, 'audit-accesses');
}

/** The export machine with the streamed POST /public/staff_actions and the download. */
export function staffActionsExportLogic(runtime: Api, progress: ExportProgressSink) {
  // The Staff actions tab starts it with its own filter.
  const download: Download = (api, filter, onProgress, options) =>
    exportStaffActions(api, filter as StaffActionsFilter, onProgress, options);
  return exportLogic(runtime, progress, download, 'staff-actions');
}
