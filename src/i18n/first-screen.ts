/**
 * The messages the first screens draw: Welcome, Landing, the header, the menu, the error screens and the notices.
 * The build splits each language's catalogue in two (vite.config.ts): these load with the app, the rest with the
 * first screen that needs it (src/app/lazy-screen.ts). Ids are grouped by their first segment.
 */
export const FIRST_SCREEN_PREFIXES: readonly string[] = [
  'chunk',
  'enrolment',
  'error',
  'header',
  'knowMore',
  'landing',
  'menu',
  'portal',
  'session',
  'tenant',
  'welcome',
];

/**
 * Single texts of other groups that a first screen draws: Landing's assisted email field, the notices' close button
 * and the loading bar, the sign-in return's spinner, and the words of a notice whose own words have not loaded
 * (src/i18n/error-text.ts: the server's text in a sentence, or an unknown problem). The `common` and `screen` groups
 * (~7 KB of text per language) are the other areas' (left out to keep Landing within its JS budget).
 */
const FIRST_SCREEN_IDS: ReadonlySet<string> = new Set([
  'validation.email',
  'validation.required',
  'common.dismiss',
  'common.loading',
  'common.serverProblem',
  'common.reference',
  'common.errors.unknown',
  'screen.Callback',
]);

export function isFirstScreenMessage(id: string): boolean {
  if (FIRST_SCREEN_IDS.has(id)) return true;
  const dot = id.indexOf('.');
  return FIRST_SCREEN_PREFIXES.includes(dot < 0 ? id : id.slice(0, dot));
}
