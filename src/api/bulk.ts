import type { BulkJob, BulkJobAccepted } from '../../contract/api/bulk.ts';
import { bulkJob, bulkJobAccepted } from './answers.ts';
import type { ApiClient } from './client.ts';

// Add users from photos (bulk import): the upload, then the job's progress.

// POST /public/singles/bulk: multipart `metadata` and `media`; 202 { job_id, total }. No timeout: a large zip on a
// slow line takes as long as it takes, and the progress shows it moving.
export function uploadBulk(
  api: ApiClient,
  files: { metadata: File; media: File },
  options: { onUploadProgress: (fraction: number) => void; signal: AbortSignal },
): Promise<BulkJobAccepted> {
  const body = new FormData();
  body.append('metadata', files.metadata, files.metadata.name);
  body.append('media', files.media, files.media.name);
  return api.post('/public/singles/bulk', {
    body,
    schema: bulkJobAccepted,
    silent: true,
    timeout: false,
    onUploadProgress: options.onUploadProgress,
    signal: options.signal,
  });
}

// GET /public/singles/bulk/{jobId}: the job's status and the rows done so far.
export function fetchBulkJob(api: ApiClient, jobId: string, signal?: AbortSignal): Promise<BulkJob> {
  return api.get(`/public/singles/bulk/${encodeURIComponent(jobId)}`, {
    schema: bulkJob,
    silent: true,
    ...(signal ? { signal } : {}),
  });
}
