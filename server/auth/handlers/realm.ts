// What every page of a tenant's realm is given (the request, its tenant, origin and provider, the tenant's
// theme), and the small node answers they share.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Db } from '../../db/db';
import { makeProblem, PROBLEM_CONTENT_TYPE, problemJson } from '../../http/problem';
import { type PageLanguage, page, pickLanguage, type TenantTheme } from '../pages';

const FORM_LIMIT = 16 * 1024;

export interface RealmRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  db: Db;
  tenant: string;
  /** The realm's path, /auth/realms/{tenant}. */
  realm: string;
  /** The known origin the browser used: every link of the pages (and of the reset mail) is made for it. */
  origin: string;
  provider: Provider;
  now: () => number;
  /** The page's language: the one asked for when the tenant has it, else the browser's, else the tenant's. */
  langOf: (asked?: string | null) => PageLanguage;
  /** Answers an HTML page in the tenant's theme. */
  html: (
    status: number,
    lang: PageLanguage,
    title: string,
    body: string,
    languageHref?: (l: PageLanguage) => string,
  ) => void;
}

export function realmRequest(
  fields: Omit<RealmRequest, 'langOf' | 'html'> & { theme: TenantTheme },
): RealmRequest {
  const { theme, ...request } = fields;
  return {
    ...request,
    langOf: (asked) => pickLanguage(theme, asked ?? undefined, fields.req.headers['accept-language']),
    html: (status, lang, title, body, languageHref) =>
      send(
        fields.res,
        status,
        'text/html; charset=utf-8',
        page({ theme, lang, title, body, ...(languageHref ? { languageHref } : {}) }),
      ),
  };
}

export class FormTooLarge extends Error {}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > FORM_LIMIT) throw new FormTooLarge('form too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-store');
  res.end(body);
}

export function sendProblem(res: ServerResponse, status: number, detail: string, code?: string): void {
  send(res, status, PROBLEM_CONTENT_TYPE, problemJson(makeProblem(status, detail, code)));
}

export const methodNotAllowed = (res: ServerResponse) => sendProblem(res, 405, 'Method not allowed.');
