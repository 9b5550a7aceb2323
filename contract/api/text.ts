import { type } from 'arktype';
import { isCleanText, JSON_LIMITS } from './limits.ts';

// Limits on what a request may carry, so that none makes the server fail: every string of a request schema has a
// maximum length and no control characters, and free-form JSON (userData, extra_fields) has a size and a depth. The
// server refuses more with a 422 field error; the portal's forms check the same limits before sending.

export { isCleanText, JSON_LIMITS, TEXT_LIMITS } from './limits.ts';

const NO_CONTROLS = 'text without control characters';

/** A string of at most `max` characters and no control character (code too_long, else wrong_format). */
export const text = (max: number) =>
  type('string')
    .atMostLength(max)
    .narrow((value, ctx) => isCleanText(value) || ctx.mustBe(NO_CONTROLS));

/** The same with at least one character. */
export const requiredText = (max: number) =>
  type('string > 0')
    .atMostLength(max)
    .narrow((value, ctx) => isCleanText(value) || ctx.mustBe(NO_CONTROLS));

/** Why a JSON value is refused, or null when it fits the limits (depth first: a deep value is not walked). */
export function jsonProblem(value: unknown): 'too_deep' | 'too_large' | 'control_characters' | null {
  let clean = true;
  const walk = (node: unknown, depth: number): boolean => {
    if (typeof node === 'string') {
      if (!isCleanText(node, true)) clean = false;
      return true;
    }
    if (node === null || typeof node !== 'object') return true;
    if (depth > JSON_LIMITS.maxDepth) return false;
    for (const [key, child] of Object.entries(node)) {
      if (!isCleanText(key)) clean = false;
      if (!walk(child, depth + 1)) return false;
    }
    return true;
  };
  if (!walk(value, 1)) return 'too_deep';
  if (!clean) return 'control_characters';
  if ((JSON.stringify(value)?.length ?? 0) > JSON_LIMITS.maxChars) return 'too_large';
  return null;
}

/** Expectations of jsonObject, which the server maps to the codes too_long and wrong_format. */
export const JSON_EXPECTATIONS = {
  too_large: `at most ${JSON_LIMITS.maxChars} characters as JSON`,
  too_deep: `at most ${JSON_LIMITS.maxDepth} levels deep`,
  control_characters: NO_CONTROLS,
} as const;

/** A JSON object within JSON_LIMITS, whose keys and strings hold no control characters. */
export const jsonObject = type({ '[string]': 'unknown' }).narrow((value, ctx) => {
  const why = jsonProblem(value);
  return why === null || ctx.mustBe(JSON_EXPECTATIONS[why]);
});
