// The test suite's own speed (part `suite` of `npm run bench`): the step times `npm test` recorded
// (tests/support/steps.mjs --record, one line per run in bench/results/test-steps.jsonl), the last complete run
// against the budget and beside the runs before it, so that a suite growing slower shows in the bench as a
// bundle growing larger does. The bench does not run `npm test` itself: it reads what the last runs measured.
import { readStepTimes, STEP_TIMES_FILE, type StepTimesRun } from '../tests/support/step-times.mjs';

/** The most `npm test` may take on a fresh clone of a 2-core machine, npm ci excluded. */
export const SUITE_BUDGET_SECONDS = 10 * 60;
/** How many earlier complete runs the table shows beside the last one. */
const HISTORY = 4;

export interface SuiteBench {
  file: string;
  last: StepTimesRun | undefined;
  earlier: StepTimesRun[];
}

export function benchSuite(file = STEP_TIMES_FILE): SuiteBench {
  const complete = readStepTimes(file).filter((run) => run.ok);
  return { file, last: complete.at(-1), earlier: complete.slice(-1 - HISTORY, -1) };
}

const minutes = (seconds: number) =>
  `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;

/** Rows of step, then the last run and the earlier ones (newest first), in minutes and seconds. */
export function suiteTable(bench: SuiteBench): { headers: string[]; rows: string[][] } {
  const runs = [bench.last, ...[...bench.earlier].reverse()].filter((run) => run !== undefined);
  const headers = [
    'step',
    ...runs.map((run) => `${run.date.slice(0, 16).replace('T', ' ')} ${run.commit ?? ''}`),
  ];
  const steps = [...new Set(runs.flatMap((run) => run.steps.map((s) => s.step)))];
  const rows = steps.map((step) => [
    step,
    ...runs.map((run) => {
      const seconds = run.steps.find((s) => s.step === step)?.seconds;
      return seconds === undefined ? '—' : minutes(seconds);
    }),
  ]);
  rows.push(['total', ...runs.map((run) => minutes(run.totalSeconds))]);
  return { headers, rows };
}
