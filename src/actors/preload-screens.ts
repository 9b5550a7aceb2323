import type { ScreenName } from '../domain/screens';

/**
 * The screens whose first calls go out from boot (src/actors/preload.ts has one entry for each). Only this list is
 * in the entry: the table, and the code that keeps the calls, load for these screens alone, beside the settings.
 */
export const PRELOADED_SCREENS = [
  'UserHome',
  'MyAccreditations',
  'UserProfile',
  'MyVisits',
  'VisitList',
  'NewVisit',
  'PortalUsers',
  'PortalAccounts',
] as const satisfies readonly ScreenName[];

export type PreloadedScreen = (typeof PRELOADED_SCREENS)[number];

export const hasFirstCalls = (screen: ScreenName | undefined): screen is PreloadedScreen =>
  (PRELOADED_SCREENS as readonly string[]).includes(screen ?? '');
