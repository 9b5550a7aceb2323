// Where the journeys write down each accessibility check (tests/e2e/support.ts expectAccessible: axe, then the
// 360-px width), one JSON line per check, and how scripts/screen-checks.ts reads them back for its coverage report.
// The file lives in Playwright's output folder, which every run empties: it holds the last run's checks only.
import { readJsonLines } from './json-lines.mjs';

export const SCREEN_CHECKS_DIR = 'test-results';
export const SCREEN_CHECKS_FILE = `${SCREEN_CHECKS_DIR}/screen-checks.jsonl`;

/** The checks of the last run: { route, lang, overflow, journey }; a line cut off while written is left out. */
export function readScreenChecks(file = SCREEN_CHECKS_FILE) {
  return readJsonLines(file);
}
