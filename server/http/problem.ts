import { type ServerResponse, STATUS_CODES } from 'node:http';
import { currentRequestId } from '../request-context';

// RFC 9457 style body; the SPA reads detail, then title, then the status text.
export interface Problem {
  status: number;
  title: string;
  detail: string;
  code?: string;
  /** The id of the request that got this answer (its X-Request-Id), which a person can quote to support. */
  request_id?: string;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function makeProblem(status: number, detail: string, code?: string, title?: string): Problem {
  const body: Problem = { status, title: title ?? STATUS_CODES[status] ?? 'Error', detail };
  if (code !== undefined) body.code = code;
  return body;
}

/** The problem's JSON, naming the request it answers when there is one. */
export function problemJson(problem: Problem, extra?: Record<string, unknown>): string {
  const reqId = currentRequestId();
  return JSON.stringify({ ...problem, ...extra, ...(reqId !== undefined ? { request_id: reqId } : {}) });
}

export function problemResponse(problem: Problem, extra?: Record<string, unknown>): Response {
  return new Response(problemJson(problem, extra), {
    status: problem.status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE },
  });
}

/** A problem answered on a node response, outside Hono (the listener, raw handlers); a started answer is cut. */
export function sendRawError(
  res: ServerResponse,
  status: number,
  detail: string,
  code?: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', PROBLEM_CONTENT_TYPE);
  res.end(problemJson(makeProblem(status, detail, code)));
}

// Thrown by handlers and middleware; app.onError turns it into a problem response.
export class HttpProblem extends Error {
  readonly problem: Problem;

  constructor(status: number, detail: string, code?: string, title?: string) {
    super(detail);
    this.name = 'HttpProblem';
    this.problem = makeProblem(status, detail, code, title);
  }
}
