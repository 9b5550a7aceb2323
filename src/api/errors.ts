import type { FieldError, Problem, ProblemLink } from '../../contract/api/problem.ts';
import { errorMessageId } from '../i18n/error-text.ts';

export { errorMessageId };

export type NoticeLevel = 'info' | 'success' | 'warning' | 'error';
/**
 * A message for the person, by catalogue id or (a server's detail) as text. `fallback` is the server's own text
 * for an id the catalogue may have no words for (a code of the server's): shown instead, in the person's language
 * sentence (src/i18n/error-text.ts), so that a notice is never empty. `reference`: the request id of an error the
 * portal did not expect, shown in small print for the person to quote to support (a code notice shows it only
 * when the code has no words of its own).
 */
export type Notice = (
  | { level: NoticeLevel; messageId: string; values?: Record<string, string>; fallback?: string }
  | { level: NoticeLevel; text: string }
) & { reference?: string };

// http: the server answered outside 2xx. network: fetch threw (after retries). timeout: no answer in
// time. contract: a 2xx whose body is not what the schema says. aborted: the caller's signal fired.
export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'contract' | 'aborted';

// Which step of the handler chain (spec §7) dealt with the error; set by the client.
export type HandledBy = 'status' | 'default' | 'link' | 'onError' | 'general' | 'none';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  method: string;
  path: string;
  status?: number;
  statusText?: string;
  problem?: Problem;
  body?: unknown;
  cause?: unknown;
  message?: string;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly method: string;
  readonly path: string;
  /** HTTP status; 0 when no response arrived (network, timeout, aborted). */
  readonly status: number;
  readonly statusText: string;
  /** The error body, salvaged leniently; present for every `http` error, undefined otherwise. */
  readonly problem: Problem | undefined;
  /** The raw body as received (parsed JSON, text or undefined). */
  readonly body: unknown;
  /** field → message id (`common.errors.{code}`) for 409/422; '_form' when only a top-level code came. */
  readonly fieldErrors: Record<string, string>;
  handledBy: HandledBy | undefined;

  constructor(init: ApiErrorInit) {
    const status = init.status ?? 0;
    super(init.message ?? `${init.method} ${init.path} failed: ${init.kind}${status ? ` ${status}` : ''}`, {
      cause: init.cause,
    });
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.status = status;
    this.statusText = init.statusText ?? '';
    this.problem = init.problem;
    this.body = init.body;
    this.fieldErrors = init.kind === 'http' ? fieldErrorsFrom(status, init.problem) : {};
    this.handledBy = undefined;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// The contract's fieldError and lenientQuery (contract/problem.ts) checked by hand, so that the screens that
// only handle errors load no schema library.
function isFieldError(value: unknown): value is FieldError {
  return isRecord(value) && typeof value.field === 'string' && typeof value.code === 'string';
}

function isLenientQuery(value: unknown): value is Record<string, string | number | boolean> {
  return (
    isRecord(value) &&
    Object.values(value).every(
      (v) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v)),
    )
  );
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function salvageLink(value: unknown): ProblemLink | undefined {
  if (!isRecord(value) || typeof value.uri !== 'string') {
    return undefined;
  }
  const { query } = value;
  if (!isLenientQuery(query)) {
    return { uri: value.uri };
  }
  return { uri: value.uri, query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) };
}

/**
 * Reads an error body leniently: a JSON string is parsed, anything that is not an object yields an
 * empty problem, and each known field is kept only when it has the right type.
 */
export function problemFromBody(body: unknown, status: number): Problem {
  let data = body;
  if (typeof data === 'string' && /^\s*\{/.test(data)) {
    try {
      data = JSON.parse(data);
    } catch {
      data = undefined;
    }
  }
  const record = isRecord(data) ? data : {};
  const result: Problem = {
    status: typeof record.status === 'number' && Number.isInteger(record.status) ? record.status : status,
    title: optionalString(record.title) ?? '',
    detail: optionalString(record.detail) ?? '',
  };
  const code = optionalString(record.code);
  if (code !== undefined) result.code = code;
  const reason = optionalString(record.reason);
  if (reason !== undefined) result.reason = reason;
  if (Array.isArray(record.errors)) {
    result.errors = record.errors.filter(isFieldError);
  }
  const link = salvageLink(record.link);
  if (link !== undefined) result.link = link;
  const requestId = optionalString(record.request_id);
  if (requestId !== undefined) result.request_id = requestId;
  return result;
}

export function fieldErrorsFrom(status: number, problem: Problem | undefined): Record<string, string> {
  if ((status !== 409 && status !== 422) || problem === undefined) {
    return {};
  }
  // Built through entries so a field named '__proto__' stays a plain own key.
  const entries = new Map<string, string>();
  for (const { field, code } of problem.errors ?? []) {
    if (!entries.has(field)) entries.set(field, errorMessageId(code));
  }
  if (entries.size === 0 && problem.code) {
    entries.set('_form', errorMessageId(problem.code));
  }
  return Object.fromEntries(entries);
}

const STATUS_MESSAGES: Partial<Record<number, { level: NoticeLevel; messageId: string }>> = {
  401: { level: 'warning', messageId: 'common.http.unauthorized' },
  404: { level: 'error', messageId: 'common.http.notFound' },
  405: { level: 'error', messageId: 'common.http.notAllowed' },
  500: { level: 'error', messageId: 'common.http.serverError' },
};

/** The general handler's notice (spec §8 "HTTP"), or undefined when the form shows the error itself. */
export function generalNotice(error: ApiError): Notice | undefined {
  switch (error.kind) {
    case 'aborted':
      return undefined;
    case 'network':
      return { level: 'error', messageId: 'common.http.network' };
    case 'timeout':
      return { level: 'error', messageId: 'common.http.timeout' };
    case 'contract':
      return { level: 'error', messageId: 'common.http.contract' };
    case 'http':
      break;
  }
  // A fault of the server, or an answer the portal has no words for: the person gets its request id to quote.
  const reference = error.problem?.request_id;
  const referenced = (notice: Notice): Notice => (reference ? { ...notice, reference } : notice);
  const fixed = STATUS_MESSAGES[error.status];
  if (fixed) {
    return error.status >= 500 ? referenced({ ...fixed }) : { ...fixed };
  }
  const conflict = error.status === 409 || error.status === 422;
  if (conflict && Object.keys(error.fieldErrors).some((field) => field !== '_form')) {
    return undefined;
  }
  // A refusal with a code (403 forbidden, 429…) is said in the person's words for that code; the server's own text,
  // in whatever language the server wrote it, is only the fallback for a code the catalogue has no words for.
  if (error.problem?.code && error.status < 500) {
    const notice: Notice = { level: 'warning', messageId: errorMessageId(error.problem.code) };
    const fallback = serverText(error);
    const withFallback = fallback ? { ...notice, fallback } : notice;
    return conflict ? referenced(withFallback) : withFallback;
  }
  const text = serverText(error);
  if (!text) return referenced({ level: 'warning', messageId: 'common.http.unknown' });
  return error.status >= 500 ? referenced({ level: 'warning', text }) : { level: 'warning', text };
}

/** Spec §8: the problem's detail, else its title, else the HTTP status text ('' when there is none). */
export function serverText(error: ApiError): string {
  return error.problem?.detail || error.problem?.title || error.statusText;
}
