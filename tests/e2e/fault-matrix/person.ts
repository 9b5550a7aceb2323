import type { Driver } from './driver';

// A person's own calls beyond their lists: their credentials, language, data export, mailed links and visit QR.

export const PERSON_DRIVERS: Driver[] = [];
