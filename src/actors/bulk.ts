// The real effects of AddUsersFromPhotos (machines/bulk-registration): the browser's check of the two files, the
// upload with its progress, and the job's progress. fflate (the zip reader, ~8 kB) loads only when a zip is checked.
import { fromCallback, fromPromise } from 'xstate';
import {
  type BulkCheck,
  type BulkFiles,
  type BulkRegistrationEvent,
  bulkRegistrationMachine,
} from '../../machines/bulk-registration.machine';
import type { BulkJob } from '../api/contract/bulk';
import { isApiError } from '../api/errors';
import {
  BULK_MAX_METADATA_BYTES,
  checkRows,
  metadataKindOf,
  parseMetadata,
  type ZipListing,
} from '../domain/bulk';
import type { AcsIdSchema } from '../domain/singles';
import type { Runtime } from '../runtime/context';

type BulkRuntime = Pick<Runtime, 'apiClient'>;

/** The zip's entries and their inflated sizes from its central directory (nothing is inflated); null when corrupt. */
export async function listZip(media: Blob): Promise<ZipListing | null> {
  const { unzipSync } = await import('fflate');
  const listing = new Map<string, number>();
  try {
    unzipSync(new Uint8Array(await media.arrayBuffer()), {
      filter: (file) => {
        if (!file.name.endsWith('/')) listing.set(file.name.replace(/^\.\//, ''), file.originalSize);
        return false;
      },
    });
  } catch {
    return null;
  }
  return listing.size > 0 ? listing : null;
}

/** What the browser finds wrong with the selection before anything is sent. */
export async function checkBulkFiles(files: BulkFiles & { acsIdSchema: AcsIdSchema }): Promise<BulkCheck> {
  if (files.metadata.size > BULK_MAX_METADATA_BYTES)
    return { rows: 0, problems: [], fatal: { code: 'metadata_invalid' } };
  const text = await files.metadata.text();
  const parsed = parseMetadata(text, metadataKindOf(files.metadata.name, text));
  if (!parsed.ok) return { rows: 0, problems: [], fatal: parsed.problem };
  const pictures = await listZip(files.media);
  if (!pictures) return { rows: parsed.rows.length, problems: [], fatal: { code: 'media_corrupt' } };
  return {
    rows: parsed.rows.length,
    problems: checkRows(parsed.rows, { acsIdSchema: files.acsIdSchema, pictures }),
    fatal: null,
  };
}

export function bulkRegistrationLogic(runtime: BulkRuntime) {
  const calls = () => import('../api/bulk');
  return bulkRegistrationMachine.provide({
    actors: {
      checkFiles: fromPromise<BulkCheck, BulkFiles & { acsIdSchema: AcsIdSchema }>(({ input }) =>
        checkBulkFiles(input),
      ),
      uploadBatch: fromCallback<BulkRegistrationEvent, BulkFiles>(({ input, sendBack }) => {
        const controller = new AbortController();
        (async () => {
          try {
            const [api, { uploadBulk }] = await Promise.all([runtime.apiClient(), calls()]);
            const accepted = await uploadBulk(api, input, {
              signal: controller.signal,
              onUploadProgress: (fraction) => sendBack({ type: 'upload.progress', fraction }),
            });
            sendBack({ type: 'upload.accepted', jobId: accepted.job_id, total: accepted.total });
          } catch (error) {
            if (controller.signal.aborted) return;
            if (isApiError(error) && error.status >= 400 && error.status < 500) {
              const problem = error.problem as { code?: string; count?: unknown } | undefined;
              sendBack({
                type: 'upload.refused',
                refusal: {
                  status: error.status,
                  ...(problem?.code ? { code: problem.code } : {}),
                  ...(typeof problem?.count === 'number' ? { count: problem.count } : {}),
                },
              });
            } else sendBack({ type: 'upload.failed' });
          }
        })();
        return () => controller.abort();
      }),
      fetchJob: fromPromise<BulkJob, { jobId: string }>(async ({ input, signal }) => {
        const [api, { fetchBulkJob }] = await Promise.all([runtime.apiClient(), calls()]);
        return fetchBulkJob(api, input.jobId, signal);
      }),
    },
  });
}
