import type { Driver } from './driver';

// The staff's calls beyond their lists: administration, watchlists, bulk registration, reception and the audit's tabs.

export const STAFF_DRIVERS: Driver[] = [];
