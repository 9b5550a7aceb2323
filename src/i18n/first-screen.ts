/**
 * The messages the first screens draw (issue 15): Welcome, Landing, the header, the menu, the error screens and
 * the notices. The build splits each language's catalogue in two (vite.config.ts): these load with the app, the
 * rest with the first screen that needs it (src/app/lazy-screen.ts). Ids are grouped by their first segment.
 */
export const FIRST_SCREEN_PREFIXES: readonly string[] = [
  'chunk',
  'common',
  'enrolment',
  'error',
  'header',
  'knowMore',
  'landing',
  'menu',
  'portal',
  'screen',
  'session',
  'tenant',
  'welcome',
];

export function isFirstScreenMessage(id: string): boolean {
  const dot = id.indexOf('.');
  return FIRST_SCREEN_PREFIXES.includes(dot < 0 ? id : id.slice(0, dot));
}
