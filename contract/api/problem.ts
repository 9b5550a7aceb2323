import { type } from 'arktype';

// Error body of every API response outside 2xx (RFC 9457 style, spec §7 and §8).
// The server validates what it sends with `problem`; the client reads bodies leniently
// (see `problemFromBody` in ../errors.ts) because proxies and crashes send other shapes.

// One invalid field of a 409/422: the form shows `common.errors.{code}` beside `field`.
export const fieldError = type({ field: 'string', code: 'string' });
export type FieldError = typeof fieldError.infer;

// Where the portal should go next; followed only to a same-origin path (src/domain/safe-link.ts).
export const problemLink = type({ uri: 'string', 'query?': 'Record<string, string>' });
export type ProblemLink = typeof problemLink.infer;

export const problem = type({
  status: 'number.integer',
  title: 'string',
  detail: 'string',
  'code?': 'string',
  'reason?': 'string',
  'errors?': fieldError.array(),
  'link?': problemLink,
  // The id of the request (its X-Request-Id), shown under an unexpected error for the person to quote to support;
  // optional, as older servers and proxies do not send it.
  'request_id?': 'string',
});
export type Problem = typeof problem.infer;

// Lenient pieces used to salvage what is usable from an odd body.
export const lenientQuery = type({ '[string]': 'string | number | boolean' });
