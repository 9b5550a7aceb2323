// The real effects of AddUsersFromPhotos (machines/bulk-registration): the browser's check of the two files, the
// upload with its progress, and the job's progress. The zip's central directory is read from the end of the file and
// each picture's first bytes from its entry; fflate (its inflater) loads only when a deflated picture is looked at.
import { fromCallback } from 'xstate';
import type { BulkJob } from '../../contract/api/bulk';
import {
  BULK_MAX_METADATA_BYTES,
  checkRows,
  metadataKindOf,
  parseMetadata,
  type ZipListing,
} from '../../contract/domain/bulk';
import { PICTURE_SIGNATURE_BYTES, pictureTypeOf } from '../../contract/domain/picture-type';
import type { AcsIdSchema } from '../../contract/domain/singles';
import {
  readCentralDirectory,
  readZipEnd,
  ZIP_END_MAX_BYTES,
  type ZipEntryInfo,
  zipPathOf,
} from '../../contract/domain/zip';
import {
  type BulkCheck,
  type BulkFiles,
  type BulkRegistrationEvent,
  bulkRegistrationMachine,
} from '../../machines/bulk-registration.machine';
import { isApiError } from '../api/errors';
import type { Runtime } from '../runtime/context';
import { fromPromise } from './promise';

type BulkRuntime = Pick<Runtime, 'apiClient'>;

/**
 * The zip's central directory, read from the end of the file (nothing is inflated): each entry's name, sizes, CRC-32
 * and where it starts. Null when the file is not a whole zip.
 */
export async function readZipDirectory(media: Blob): Promise<ZipEntryInfo[] | null> {
  const tailStart = Math.max(0, media.size - ZIP_END_MAX_BYTES);
  const end = readZipEnd(new Uint8Array(await media.slice(tailStart).arrayBuffer()));
  if (!end || end.directoryOffset + end.directorySize > media.size) return null;
  const directory = new Uint8Array(
    await media.slice(end.directoryOffset, end.directoryOffset + end.directorySize).arrayBuffer(),
  );
  return readCentralDirectory(directory, end.entries);
}

/** The pictures of a zip directory by name, with their inflated sizes, without folders; null when there are none. */
function listingOf(entries: readonly ZipEntryInfo[]): ZipListing | null {
  const listing = new Map<string, number>();
  for (const entry of entries) if (!entry.name.endsWith('/')) listing.set(zipPathOf(entry.name), entry.size);
  return listing.size > 0 ? listing : null;
}

/** The zip's pictures and their inflated sizes (from its central directory); null when corrupt or empty. */
export async function listZip(media: Blob): Promise<ZipListing | null> {
  const entries = await readZipDirectory(media);
  return entries ? listingOf(entries) : null;
}

/** Compressed bytes read from the start of an entry to learn its first bytes: plenty for a deflate block's start. */
const HEAD_READ_BYTES = 16 * 1024;

/** The first bytes of an entry once inflated (stored or deflated), without reading the rest; null when unreadable. */
async function headOf(media: Blob, entry: ZipEntryInfo): Promise<Uint8Array | null> {
  const header = new Uint8Array(await media.slice(entry.offset, entry.offset + 30).arrayBuffer());
  const v = new DataView(header.buffer);
  if (header.length < 30 || v.getUint32(0, true) !== 0x04034b50) return null;
  const start = entry.offset + 30 + v.getUint16(26, true) + v.getUint16(28, true);
  const length = Math.min(entry.compressedSize, HEAD_READ_BYTES);
  const data = new Uint8Array(await media.slice(start, start + length).arrayBuffer());
  if (entry.method === 0) return data.subarray(0, PICTURE_SIGNATURE_BYTES);
  if (entry.method !== 8) return null;
  const { Inflate } = await import('fflate');
  const out: Uint8Array[] = [];
  const inflate = new Inflate((chunk) => out.push(chunk));
  try {
    inflate.push(data, length === entry.compressedSize);
  } catch {
    return null;
  }
  const head = new Uint8Array(PICTURE_SIGNATURE_BYTES);
  let filled = 0;
  for (const chunk of out) {
    const part = chunk.subarray(0, head.length - filled);
    head.set(part, filled);
    filled += part.length;
    if (filled === head.length) break;
  }
  return head.subarray(0, filled);
}

/**
 * A picture's problem by its bytes, as the server judges them (spec §5: jpg or png): image_corrupt when its start
 * cannot be read, image_not_picture when its first bytes are neither a JPEG's nor a PNG's, whatever its name says.
 */
async function pictureProblem(media: Blob, entry: ZipEntryInfo): Promise<string | null> {
  const head = await headOf(media, entry);
  if (!head) return 'image_corrupt';
  return pictureTypeOf(head) ? null : 'image_not_picture';
}

/** What the browser finds wrong with the selection before anything is sent. */
export async function checkBulkFiles(files: BulkFiles & { acsIdSchema: AcsIdSchema }): Promise<BulkCheck> {
  if (files.metadata.size > BULK_MAX_METADATA_BYTES)
    return { rows: 0, problems: [], fatal: { code: 'metadata_invalid' } };
  const text = await files.metadata.text();
  const parsed = parseMetadata(text, metadataKindOf(files.metadata.name, text));
  if (!parsed.ok) return { rows: 0, problems: [], fatal: parsed.problem };
  const entries = await readZipDirectory(files.media);
  const pictures = entries ? listingOf(entries) : null;
  if (!entries || !pictures)
    return { rows: parsed.rows.length, problems: [], fatal: { code: 'media_corrupt' } };
  const problems = checkRows(parsed.rows, { acsIdSchema: files.acsIdSchema, pictures });
  // Each picture a row names, found and within its byte bounds, is judged by its first bytes (once per picture).
  const judged = new Set(problems.filter((p) => p.field === 'image').map((p) => p.row));
  const byName = new Map(entries.map((entry) => [zipPathOf(entry.name), entry]));
  const verdicts = new Map<string, string | null>();
  for (const row of parsed.rows) {
    const entry = byName.get(row.image);
    if (judged.has(row.row) || !entry) continue;
    if (!verdicts.has(row.image)) verdicts.set(row.image, await pictureProblem(files.media, entry));
    const code = verdicts.get(row.image);
    if (code) problems.push({ row: row.row, field: 'image', code });
  }
  // In the order of the rows, and of the fields within a row as checkRows lists them.
  problems.sort((a, b) => a.row - b.row);
  return { rows: parsed.rows.length, problems, fatal: null };
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
            // An answer (a refusal, or the server's own fault) is told apart from no answer at all.
            if (isApiError(error) && error.kind === 'http' && error.status >= 400) {
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
