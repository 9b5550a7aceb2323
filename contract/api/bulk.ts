import { type } from 'arktype';

// Add users from photos (bulk import): POST /public/singles/bulk (multipart `metadata` + `media`) answers 202 with
// the job; GET /public/singles/bulk/{jobId} answers its progress and the result of every row done so far.

export const bulkJobAccepted = type({ job_id: 'string', total: 'number.integer >= 0' });
export type BulkJobAccepted = typeof bulkJobAccepted.infer;

export const bulkRowResult = type({
  row: 'number.integer >= 1',
  email: 'string',
  outcome: "'accepted' | 'rejected'",
  reason: 'string | null',
  'field?': 'string | null',
  code: '0 | 1 | 2 | 3',
  'user_id?': 'string | null',
});

export const bulkJob = type({
  job_id: 'string',
  status: "'running' | 'done' | 'failed'",
  total: 'number.integer >= 0',
  done: 'number.integer >= 0',
  accepted: 'number.integer >= 0',
  rejected: 'number.integer >= 0',
  rows: bulkRowResult.array(),
});
export type BulkJob = typeof bulkJob.infer;
