import { HttpProblem } from './problem';

/** An integer query parameter from min to max, the fallback when absent or empty; 400 invalid_query otherwise. */
export function intParam(
  value: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
) {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new HttpProblem(400, `${name} must be an integer from ${min} to ${max}.`, 'invalid_query');
  }
  return n;
}
