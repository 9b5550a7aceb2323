// Request bodies of the onboarding API and how an invalid one is answered: 422 with one { field, code } per
// wrong field (spec §5: the portal shows common.errors.{code} beside the field).
import { type ArkErrors, type } from 'arktype';
import type { Context } from 'hono';
import { EMAIL_PATTERN } from '../../src/domain/email';
import { HttpProblem } from '../problem';

/** An HttpProblem whose body carries more members (reason, errors, result…); app.onError serialises them. */
export class DetailedProblem extends HttpProblem {
  constructor(status: number, detail: string, code: string, extra: Record<string, unknown>) {
    super(status, detail, code);
    Object.assign(this.problem, extra);
  }
}

export interface FieldError {
  field: string;
  code: string;
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
  const out = schema(raw);
  if (out instanceof type.errors) throw validationProblem(fieldErrors(out));
  return out as T;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);

/** A calendar date YYYY-MM-DD (spec §9 API dates) that exists (no 2023-02-30). */
export const isoDate = type(/^\d{4}-\d{2}-\d{2}$/).narrow((value, ctx) => {
  const date = new Date(`${value}T00:00:00Z`);
  return (!Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value) || ctx.mustBe('a date');
});

const shortText = type('string <= 200');
const optionalText = shortText.or('null');
const documentType = type("'id' | 'id_card' | 'driving_license' | 'passport' | 'others' | 'any' | 'none'");

export const createOnboardingBody = type({
  mode: "'auto' | 'assisted'",
  'location?': optionalText,
  'user_id?': optionalText,
  'userData?': type({ '[string]': 'unknown' }).or('null'),
  'registerMode?': type('string <= 64').or('null'),
  'visit_date?': optionalText,
  'host?': optionalText,
});

export const createPortrayalBody = type({
  'user_id?': optionalText,
  portrayal_type: "'document' | 'selfie'",
  'document_type?': documentType.or('null'),
  'document_country?': type(/^[A-Za-z]{2}$/).or('null'),
  'onboarding_id?': type(UUID).or('null'),
  'process?': type('string <= 64').or('null'),
});

const email = type(EMAIL_PATTERN).and('string <= 254');

export const registrationPayload = type({
  first_name: 'string > 0',
  last_name: 'string > 0',
  birth_date: isoDate,
  'expiry_date?': isoDate.or('null'),
  'id_number?': type(/^[A-Za-z0-9]{1,32}$/).or("null | ''"),
  document_number: type(/^[A-Za-z0-9]{1,32}$/),
  document_type: documentType,
  'expedition_country?': type(/^[A-Za-z]{2,3}$/).or("null | ''"),
  'nationality?': type(/^[A-Za-z]{2,3}$/).or("null | ''"),
  'email?': email.or("null | ''"),
  'nie?': type(/^[A-Za-z0-9]{1,32}$/).or("null | ''"),
  'extra_fields?': type({ '[string]': 'unknown' }).or('null'),
  'skip_email_check?': 'boolean',
  'username?': optionalText,
  'acs_id?': type(/^[\x21-\x7e]{1,64}$/).or("null | ''"),
  'id?': optionalText,
});
export type RegistrationPayload = typeof registrationPayload.infer;

export const challengeBody = type({
  'length?': '1 <= number.integer <= 10',
  /** Seconds the challenge stays valid. */
  'expiration?': '5 <= number.integer <= 600',
});

export const userCodeGenerateBody = type({ 'onboarding_id?': type(UUID).or('null') });
export const userCodeRedeemBody = type({ code: 'string <= 32' });
export const faultBody = type({ on: 'boolean' });
