export const STEP_TIMES_FILE: string;
export interface StepTimesRun {
  date: string;
  commit: string | null;
  cores: number;
  ci: boolean;
  ok: boolean;
  totalSeconds: number;
  steps: { step: string; seconds: number; result: string }[];
}
export function readStepTimes(file?: string): StepTimesRun[];
