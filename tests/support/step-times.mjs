// Where `npm test` keeps the wall time of each of its steps, one JSON line per run (tests/support/steps.mjs
// --record), and how `npm run bench` reads them back (bench/run.ts, part `suite`).
import { readJsonLines } from './json-lines.mjs';

export const STEP_TIMES_FILE = 'bench/results/test-steps.jsonl';

/**
 * The recorded runs, oldest first: { date, commit, cores, ci, ok, totalSeconds, steps: [{ step, seconds, result }] }.
 * A line that does not parse (a run cut off while writing) is left out.
 */
export function readStepTimes(file = STEP_TIMES_FILE) {
  return readJsonLines(file);
}
