// The rules of the bulk import's rows (spec §5; §8 user registration codes): a row's result, and when a running job
// has been lost.
import type { BulkRow, BulkRowResult } from '../../contract/domain/bulk';
import { registrationCodeOf } from '../../contract/domain/singles';

/** No row takes this long: a running job that has not moved for longer has lost the process that ran it. */
export const STALE_AFTER_SECONDS = 120;

export const rejected = (row: BulkRow, reason: string, field: string | null): BulkRowResult => ({
  row: row.row,
  email: row.email,
  outcome: 'rejected',
  reason,
  field,
  code: registrationCodeOf(reason),
  user_id: null,
});

export const accepted = (row: BulkRow, userId: string): BulkRowResult => ({
  row: row.row,
  email: row.email,
  outcome: 'accepted',
  reason: null,
  field: null,
  code: 0,
  user_id: userId,
});
