import type { Driver } from './driver';

// The enrolment's calls: the onboarding, the document and selfie portrayals, liveness, rights and the QR hand-off.

export const ENROLMENT_DRIVERS: Driver[] = [];
