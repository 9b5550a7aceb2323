// How the API reads a request body and answers an invalid one: 422 with one { field, code } per wrong field
// (spec §5: the portal shows common.errors.{code} beside the field). The schemas are the contract's, from
// contract/api.
import { type ArkErrors, type } from 'arktype';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { uuid } from '../../contract/api/onboarding';
import type { FieldError } from '../../contract/api/problem';
import { HttpProblem } from './problem';

/** An HttpProblem whose body carries more members (reason, errors, result…); app.onError serialises them. */
export class DetailedProblem extends HttpProblem {
  constructor(status: number, detail: string, code: string, extra: Record<string, unknown>) {
    super(status, detail, code);
    Object.assign(this.problem, extra);
  }
}

const CODES: Record<string, string> = {
  required: 'required',
  minLength: 'required',
  maxLength: 'too_long',
  min: 'out_of_range',
  max: 'out_of_range',
  divisor: 'wrong_format',
  pattern: 'wrong_format',
  predicate: 'wrong_format',
  unit: 'wrong_value',
  union: 'wrong_value',
  domain: 'wrong_type',
  proto: 'wrong_type',
};

function codeOf(error: ArkErrors[number]): string {
  // A union of literals compiles to a predicate whose expectation lists the quoted choices.
  if (error.code === 'predicate' && error.expected.startsWith('"')) return 'wrong_value';
  // The size and depth limits of free-form JSON (contract/api/text.ts).
  if (error.code === 'predicate' && error.expected.startsWith('at most')) return 'too_long';
  if (error.code === 'union') {
    const branches = (error as unknown as { errors?: { code: string }[] }).errors ?? [];
    return branches.some((branch) => branch.code === 'pattern') ? 'wrong_format' : 'wrong_value';
  }
  return CODES[error.code] ?? 'invalid';
}

export function fieldErrors(errors: ArkErrors): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const error of errors) {
    const field = error.path.map(String).join('.') || 'body';
    const code = codeOf(error);
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, code });
  }
  return out;
}

export function validationProblem(errors: FieldError[]): DetailedProblem {
  return new DetailedProblem(422, 'validation', 'validation', { errors });
}

/** JSON bodies are small (the largest is a registration payload); anything bigger is refused unread. */
export const JSON_MAX_BYTES = 64 * 1024;

export const jsonBodyLimit = bodyLimit({
  maxSize: JSON_MAX_BYTES,
  onError: () => {
    throw new HttpProblem(413, `The body is larger than ${JSON_MAX_BYTES} bytes.`, 'payload_too_large');
  },
});

/** No request body of the contract nests deeper than this (userData has its own, lower limit). */
export const JSON_MAX_DEPTH = 16;

/** The top-level member (or 'body') under which a value nests deeper than maxDepth; null when none does. */
export function tooDeep(value: unknown, maxDepth = JSON_MAX_DEPTH): string | null {
  // Iterative: a body nested thousands of levels must not overflow the stack here (nor in the schema).
  const stack: { node: unknown; depth: number; field: string }[] = [{ node: value, depth: 1, field: 'body' }];
  while (stack.length > 0) {
    const { node, depth, field } = stack.pop() as { node: unknown; depth: number; field: string };
    if (node === null || typeof node !== 'object') continue;
    if (depth > maxDepth) return field;
    for (const [key, child] of Object.entries(node)) {
      stack.push({ node: child, depth: depth + 1, field: depth === 1 && !Array.isArray(node) ? key : field });
    }
  }
  return null;
}

/** Parses a JSON body (an empty body is {}) and validates it; throws 400 or 422 problems. */
export async function readBody<T>(c: Context, schema: (input: unknown) => T | ArkErrors): Promise<T> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new HttpProblem(400, 'The body must be JSON.', 'invalid_json');
    }
  }
  const deep = tooDeep(raw);
  if (deep !== null) throw validationProblem([{ field: deep, code: 'too_long' }]);
  const out = schema(raw);
  if (out instanceof type.errors) throw validationProblem(fieldErrors(out));
  return out as T;
}

/** Ids in paths: anything but a uuid is simply not found (no 422 for a made-up id). */
export const isUuid = (value: string): boolean => uuid.allows(value);

/** A trimmed text, or null when there is none (optional fields may come as '' or spaces). */
export function nonEmpty(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
