/**
 * Whether a request's `If-None-Match` names `etag` (or `*`, any current representation: RFC 9110 §13.1.2), so that
 * the answer is 304 Not Modified.
 */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch?.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*') ?? false;
}
