// Hand-written checks of JSON shapes, for the few contract checks the first screen needs before it can draw
// (tenant settings, the access token's claims): arktype would add ~45 KB and its start-up work to every first
// visit. Each use has a test proving it agrees with the contract's arktype schema on the shipped data and on
// thousands of variants of it. Problems read `path must be … (was …)`, like arktype's summaries.

export type Problems = string[];
export type Check = (value: unknown, path: string, problems: Problems) => void;

const show = (value: unknown) => {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};
const fail = (problems: Problems, path: string, expected: string, value: unknown) =>
  problems.push(`${path || 'value'} must be ${expected} (was ${show(value)})`);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const string: Check = (v, path, p) => {
  if (typeof v !== 'string') fail(p, path, 'a string', v);
};
export const nonEmpty: Check = (v, path, p) => {
  if (typeof v !== 'string' || v.length === 0) fail(p, path, 'a non-empty string', v);
};
export const boolean: Check = (v, path, p) => {
  if (typeof v !== 'boolean') fail(p, path, 'boolean', v);
};
export const matching =
  (pattern: RegExp): Check =>
  (v, path, p) => {
    if (typeof v !== 'string' || !pattern.test(v)) fail(p, path, `a string matching ${pattern}`, v);
  };
export const oneOf =
  (...values: readonly (string | null)[]): Check =>
  (v, path, p) => {
    if (!values.includes(v as string | null)) fail(p, path, values.map((x) => show(x)).join(' or '), v);
  };
export const arrayOf =
  (item: Check, minLength = 0): Check =>
  (v, path, p) => {
    if (!Array.isArray(v)) return fail(p, path, 'an array', v);
    if (v.length < minLength) fail(p, path, `at least ${minLength} long`, v);
    v.forEach((x, i) => {
      item(x, `${path}[${i}]`, p);
    });
  };
/** Like arktype's `Record<string, …>`, an array whose items fit passes too (its keys are strings). */
export const recordOf =
  (item: Check): Check =>
  (v, path, p) => {
    if (typeof v !== 'object' || v === null) return fail(p, path, 'an object', v);
    for (const [key, x] of Object.entries(v)) item(x, path ? `${path}.${key}` : key, p);
  };
/** Keys ending in `?` are optional; undeclared keys are kept, as arktype does by default. */
export const object =
  (shape: Record<string, Check>): Check =>
  (v, path, p) => {
    if (!isRecord(v)) return fail(p, path, 'an object', v);
    for (const [declared, check] of Object.entries(shape)) {
      const optional = declared.endsWith('?');
      const key = optional ? declared.slice(0, -1) : declared;
      const at = path ? `${path}.${key}` : key;
      if (!(key in v)) {
        if (!optional) fail(p, at, 'present', undefined);
        continue;
      }
      check(v[key], at, p);
    }
  };
export const integerBetween =
  (min: number, max: number): Check =>
  (v, path, p) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
      fail(p, path, `an integer from ${min} to ${max}`, v);
  };
export const integerAtLeastZero: Check = (v, path, p) => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail(p, path, 'an integer ≥ 0', v);
};

/** Every problem of a value, each with its path; none when it fits. */
export const problemsOf = (check: Check, raw: unknown): Problems => {
  const problems: Problems = [];
  check(raw, '', problems);
  return problems;
};

export const number: Check = (v, path, p) => {
  if (typeof v !== 'number' || Number.isNaN(v)) fail(p, path, 'a number', v);
};
/** Any object, lists included, as arktype's `Record<string, unknown>`. */
export const anyObject: Check = (v, path, p) => {
  if (typeof v !== 'object' || v === null) fail(p, path, 'an object', v);
};
export const orNull =
  (check: Check): Check =>
  (v, path, p) => {
    if (v !== null) check(v, path, p);
  };
