import { type } from 'arktype';

// Limits on what a request may carry (issue #9): every string of a request schema has a maximum length and
// no control characters, and free-form JSON (userData, extra_fields) has a size and a depth. The server
// refuses more with a 422 field error; the portal's forms check the same limits before sending.

export const TEXT_LIMITS = {
  /** First and last names. */
  name: 100,
  /** RFC 5321: an address is at most 254 characters. */
  email: 254,
  /** Ids of accounts, users, processes, modes. */
  id: 64,
  /** Short texts: a location, a host, a date as sent. */
  text: 200,
  phone: 32,
} as const;

export const JSON_LIMITS = {
  /** userData, extra_fields, the life_proofing data: at most this many characters as JSON. */
  maxChars: 16 * 1024,
  /** …and at most this many levels of objects and arrays (the value itself is level 1). */
  maxDepth: 8,
} as const;

/**
 * Whether a string is text a field can hold: no C0 control character nor DEL (PostgreSQL text refuses NUL; no
 * field of the portal takes the others), but tab and line breaks in free text; and no lone UTF-16 surrogate
 * (not a character, and PostgreSQL refuses it in JSON).
 */
export function isCleanText(value: string, freeText = false): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) {
      if (!(freeText && (code === 0x09 || code === 0x0a || code === 0x0d))) return false;
    } else if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return false;
    }
  }
  return true;
}

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
