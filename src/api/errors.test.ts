import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldError, lenientQuery, problem } from '../../contract/api/problem.ts';
import { ApiError, errorMessageId, fieldErrorsFrom, generalNotice, problemFromBody } from './errors.ts';

const httpError = (status: number, body: unknown, statusText = '') =>
  new ApiError({
    kind: 'http',
    method: 'POST',
    path: '/x',
    status,
    statusText,
    problem: problemFromBody(body, status),
    body,
  });

describe('problemFromBody', () => {
  it('keeps a well-formed problem as is', () => {
    const body = {
      status: 422,
      title: 'Invalid',
      detail: 'Check the form',
      code: 'invalid',
      reason: 'underaged',
      errors: [{ field: 'email', code: 'email_invalid' }],
      link: { uri: '/terms', query: { step: '2' } },
    };
    expect(problemFromBody(body, 422)).toEqual(body);
  });

  it('parses a JSON string body', () => {
    expect(problemFromBody('{"title":"T","detail":"D"}', 400)).toEqual({
      status: 400,
      title: 'T',
      detail: 'D',
    });
  });

  it('keeps only the fields that have the right type', () => {
    expect(
      problemFromBody(
        {
          status: '500',
          title: 3,
          detail: 'ok',
          code: null,
          errors: [{ field: 'a', code: 'b' }, { field: 1 }, 'x'],
          link: { uri: '/p', query: { n: 2, b: true } },
        },
        409,
      ),
    ).toEqual({
      status: 409,
      title: '',
      detail: 'ok',
      errors: [{ field: 'a', code: 'b' }],
      link: { uri: '/p', query: { n: '2', b: 'true' } },
    });
    expect(problemFromBody({ link: { uri: '/p', query: { x: {} } } }, 400).link).toEqual({ uri: '/p' });
    expect(problemFromBody({ link: { href: '/p' } }, 400).link).toBeUndefined();
  });

  it('always yields a problem that satisfies the contract', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.anything(), fc.json(), fc.string()),
        fc.integer({ min: 400, max: 599 }),
        (body, status) => {
          expect(problem.allows(problemFromBody(body, status))).toBe(true);
        },
      ),
    );
  });
});

describe('problemFromBody without a schema library', () => {
  it('keeps the field errors and link queries the contract allows, and only those', () => {
    const entry = fc.oneof(
      fc.record({
        field: fc.oneof(fc.string(), fc.integer()),
        code: fc.oneof(fc.string(), fc.constant(null)),
      }),
      fc.anything(),
    );
    fc.assert(
      fc.property(fc.array(entry), fc.dictionary(fc.string(), fc.anything()), (errors, query) => {
        const salvaged = problemFromBody({ errors, link: { uri: '/x', query } }, 422);
        expect(salvaged.errors).toEqual(errors.filter((e) => fieldError.allows(e)));
        expect(salvaged.link?.query !== undefined).toBe(lenientQuery.allows(query));
      }),
      { numRuns: 500 },
    );
  });
});

describe('fieldErrorsFrom', () => {
  it('only for 409 and 422', () => {
    const body = problemFromBody({ errors: [{ field: 'a', code: 'b' }], code: 'c' }, 400);
    expect(fieldErrorsFrom(400, body)).toEqual({});
    expect(fieldErrorsFrom(409, body)).toEqual({ a: 'common.errors.b' });
    expect(fieldErrorsFrom(422, problemFromBody({ code: 'c' }, 422))).toEqual({ _form: 'common.errors.c' });
    expect(fieldErrorsFrom(422, problemFromBody({}, 422))).toEqual({});
    expect(fieldErrorsFrom(422, undefined)).toEqual({});
  });

  it('keeps a field called __proto__ as a plain key', () => {
    const errors = fieldErrorsFrom(
      422,
      problemFromBody({ errors: [{ field: '__proto__', code: 'x' }] }, 422),
    );
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
    expect(Object.keys(errors)).toEqual(['__proto__']);
  });
});

describe('errorMessageId', () => {
  it('turns a code into a message id, refusing odd characters', () => {
    expect(errorMessageId('user_already_registered')).toBe('common.errors.user_already_registered');
    expect(errorMessageId('accreditation-request/credential-already-exists')).toBe(
      'common.errors.accreditation-request/credential-already-exists',
    );
    expect(errorMessageId('a b')).toBe('common.errors.unknown');
    expect(errorMessageId('{x}')).toBe('common.errors.unknown');
    expect(errorMessageId('')).toBe('common.errors.unknown');
  });
});

describe('generalNotice', () => {
  it('maps the non-http kinds', () => {
    const of = (kind: 'network' | 'timeout' | 'contract' | 'aborted') =>
      generalNotice(new ApiError({ kind, method: 'GET', path: '/x' }));
    expect(of('network')).toEqual({ level: 'error', messageId: 'common.http.network' });
    expect(of('timeout')).toEqual({ level: 'error', messageId: 'common.http.timeout' });
    expect(of('contract')).toEqual({ level: 'error', messageId: 'common.http.contract' });
    expect(of('aborted')).toBeUndefined();
  });

  it('409/422 with field entries give no notice, with only a code a warning', () => {
    expect(generalNotice(httpError(422, { errors: [{ field: 'a', code: 'b' }], code: 'c' }))).toBeUndefined();
    expect(generalNotice(httpError(409, { code: 'c' }))).toEqual({
      level: 'warning',
      messageId: 'common.errors.c',
    });
    expect(generalNotice(httpError(409, {}, 'Conflict'))).toEqual({ level: 'warning', text: 'Conflict' });
  });

  // A code the catalogue may have no words for carries the spec's fallback with it (detail, else title, else status
  // text), which the Toaster shows instead of an empty notice.
  it('a 409/422 code notice carries the detail, else the title, else the status text as its fallback', () => {
    const code = 'zz_code_that_exists_nowhere';
    expect(
      generalNotice(httpError(409, { code, detail: 'The frobnicator is locked.', title: 'T' }, 'S')),
    ).toEqual({
      level: 'warning',
      messageId: `common.errors.${code}`,
      fallback: 'The frobnicator is locked.',
    });
    expect(generalNotice(httpError(422, { code, title: 'Unprocessable Content' }, 'S'))).toMatchObject({
      fallback: 'Unprocessable Content',
    });
    expect(generalNotice(httpError(409, { code }, 'Conflict'))).toMatchObject({ fallback: 'Conflict' });
  });

  it('a refusal with a code (403, 429…) is the code’s words, the server’s text only their fallback', () => {
    expect(generalNotice(httpError(403, { code: 'forbidden', detail: 'No.', request_id: 'r' }))).toEqual({
      level: 'warning',
      messageId: 'common.errors.forbidden',
      fallback: 'No.',
    });
  });

  it('403 and other statuses: detail, title, status text, unknown', () => {
    expect(generalNotice(httpError(403, { detail: 'd', title: 't' }, 's'))).toEqual({
      level: 'warning',
      text: 'd',
    });
    expect(generalNotice(httpError(403, { title: 't' }, 's'))).toEqual({ level: 'warning', text: 't' });
    expect(generalNotice(httpError(502, undefined, 'Bad Gateway'))).toEqual({
      level: 'warning',
      text: 'Bad Gateway',
    });
    expect(generalNotice(httpError(400, undefined))).toEqual({
      level: 'warning',
      messageId: 'common.http.unknown',
    });
  });

  // The request id a problem names goes with the notice of an error the portal did not expect, for the person to
  // quote to support; a refusal the server explains (403, 404, 429…) is not such an error.
  it('a fault of the server or an answer without words carries the problem’s request_id as the reference', () => {
    const request_id = 'req-42';
    expect(problemFromBody({ title: 'T', request_id }, 500).request_id).toBe(request_id);
    expect(problemFromBody({ title: 'T', request_id: 42 }, 500)).not.toHaveProperty('request_id');
    expect(generalNotice(httpError(500, { title: 'Internal Server Error', request_id }))).toEqual({
      level: 'error',
      messageId: 'common.http.serverError',
      reference: request_id,
    });
    expect(generalNotice(httpError(503, { detail: 'Starting.', request_id }))).toEqual({
      level: 'warning',
      text: 'Starting.',
      reference: request_id,
    });
    expect(generalNotice(httpError(409, { code: 'c', request_id }))).toEqual({
      level: 'warning',
      messageId: 'common.errors.c',
      reference: request_id,
    });
    expect(generalNotice(httpError(400, { request_id }))).toMatchObject({ reference: request_id });
    expect(generalNotice(httpError(403, { detail: 'd', request_id }))).toEqual({
      level: 'warning',
      text: 'd',
    });
    expect(generalNotice(httpError(404, { request_id }))).not.toHaveProperty('reference');
    expect(generalNotice(httpError(500, { title: 'Internal Server Error' }))).not.toHaveProperty('reference');
  });
});

describe('ApiError', () => {
  it('is an Error with a readable message and the cause', () => {
    const cause = new TypeError('Failed to fetch');
    const error = new ApiError({ kind: 'network', method: 'GET', path: '/x', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiError');
    expect(error.message).toBe('GET /x failed: network');
    expect(error.cause).toBe(cause);
    expect(error.status).toBe(0);
    expect(error.fieldErrors).toEqual({});
    expect(httpError(404, {}).message).toBe('POST /x failed: http 404');
  });
});
