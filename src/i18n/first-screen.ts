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

/** Single texts of other groups that a first screen draws: Landing's assisted email field. */
const FIRST_SCREEN_IDS: ReadonlySet<string> = new Set(['validation.email', 'validation.required']);

export function isFirstScreenMessage(id: string): boolean {
  if (FIRST_SCREEN_IDS.has(id)) return true;
  const dot = id.indexOf('.');
  return FIRST_SCREEN_PREFIXES.includes(dot < 0 ? id : id.slice(0, dot));
}
