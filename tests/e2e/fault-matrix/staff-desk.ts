import type { Driver } from './driver';

// The desk's calls beyond its lists: a person's detail and state, accounts, reception's check-in and check-out, and
// the audit's staff-actions tab.

export const DESK_DRIVERS: Driver[] = [];
