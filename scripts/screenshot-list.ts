// The screens `npm run screenshots` (scripts/screenshots.ts) photographs for the README, in the order the README
// shows them: a person's enrolment, their home and visits, then the staff portal. scripts/screenshots.test.ts
// checks that each has its picture and that the README shows only pictures that exist.

export const SCREENSHOT_SCREENS = [
  'Landing',
  'DocumentScan',
  'ReviewRegister',
  'FinishRegisterWithQr',
  'UserHome',
  'MyVisits',
  'VisitDetail',
  'PortalUsers',
  'PortalUserDetail',
  'AuditAccesses',
] as const;

export type ScreenshotScreen = (typeof SCREENSHOT_SCREENS)[number];

/** Where the English pictures go; another language's go to a folder of its own below it. */
export const SCREENSHOT_DIR = 'docs/screenshots';

export const screenshotPath = (screen: ScreenshotScreen, lang = 'en') =>
  lang === 'en' ? `${SCREENSHOT_DIR}/${screen}.png` : `${SCREENSHOT_DIR}/${lang}/${screen}.png`;
