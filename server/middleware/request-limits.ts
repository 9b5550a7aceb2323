// Limits every /api request meets before its handler, so that one too large or malformed is refused (4xx) rather
// than failing (5xx): a body of at most JSON_MAX_BYTES, except the image uploads, which have larger limits of their
// own (onboarding/routers/portrayal-images.ts); and query parameters of bounded length without control characters
// (PostgreSQL text refuses NUL).
import type { MiddlewareHandler } from 'hono';
import { isCleanText } from '../../contract/api/text';
import type { AppEnv } from '../http/env';
import { DetailedProblem, jsonBodyLimit } from '../http/validation';

/** PUT /api/internal/portrayals/{id}/obverse|reverse|selfie|lifeproof: images, limited by their route. */
const IMAGE_UPLOAD = /^\/api\/internal\/portrayals\/[^/]+\/(obverse|reverse|selfie|lifeproof)\/?$/;

/** No query parameter of the API needs more (a filter, an email, an id). */
export const QUERY_VALUE_MAX_CHARS = 1024;

/** POST /api/public/singles: a registration with an image, limited by its route (server/singles/routes.ts). */
const SINGLES = /^\/api\/public\/singles\/?$/;
/** POST /api/public/singles/bulk: the bulk import's metadata and zip, limited while read (bulk/upload.ts). */
const BULK = /^\/api\/public\/singles\/bulk\/?$/;
/** POST /api/public/watchlists and /api/watchlists: a csv of up to 10 MB, limited by its route (audit/routes.ts). */
const WATCHLIST_UPLOAD = /^\/api\/(?:public\/)?watchlists\/?$/;

export const apiBodyLimit: MiddlewareHandler<AppEnv> = (c, next) =>
  IMAGE_UPLOAD.test(c.req.path) ||
  SINGLES.test(c.req.path) ||
  BULK.test(c.req.path) ||
  WATCHLIST_UPLOAD.test(c.req.path)
    ? next()
    : jsonBodyLimit(c, next);

export const apiQueryLimits: MiddlewareHandler<AppEnv> = async (c, next) => {
  for (const [name, values] of Object.entries(c.req.queries())) {
    const field = isCleanText(name) && name.length <= 64 ? name : 'query';
    const code =
      field === 'query' || values.some((value) => !isCleanText(value))
        ? 'wrong_format'
        : values.some((value) => value.length > QUERY_VALUE_MAX_CHARS)
          ? 'too_long'
          : null;
    if (code) {
      throw new DetailedProblem(400, `The query parameter ${field} is not valid.`, 'invalid_query', {
        errors: [{ field, code }],
      });
    }
  }
  await next();
};
