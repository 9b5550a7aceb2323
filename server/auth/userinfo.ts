// UserInfo (OpenID Connect Core §5.3) for the access tokens the portal and any other client of a realm get.
// oidc-provider's own endpoint cannot take them: it only finds tokens it stored, and a JWT access token is never
// stored; and it refuses any token that names an audience ("token audience prevents accessing the userinfo
// endpoint"), while every token here is a JWT for the API (resource indicators, provider.ts). So the handler answers
// the endpoint the discovery document names, with the token checked exactly as the API checks it (signature, issuer,
// audience, expiry, a grant still alive) and issued by this very issuer, and the claims the token's scopes release.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeJwt } from 'jose';
import type { AccessTokenClaims } from '../../contract/api/access-token';
import type { Db } from '../db/db';
import { accountClaims, SCOPE_CLAIMS } from './provider';

export interface UserInfoContext {
  db: Db;
  tenant: string;
  /** The issuer whose endpoint this is: a token of the same tenant at another origin is someone else's. */
  issuer: string;
  /** The portal's origin: the only one a cross-origin call may come from (as the provider's clientBasedCORS). */
  origin: string;
  /** The API's bearer check (verify.ts): the claims of a valid token, or it throws. */
  verify: (authorization: string | undefined) => Promise<AccessTokenClaims>;
}

const FORM_LIMIT = 16 * 1024;

type Refusal = { status: 400 | 401 | 403; error?: string; description: string; scope?: string };

const quoted = (value: string) => `"${value.replace(/["\\]/g, '')}"`;

function answer(res: ServerResponse, status: number, body: unknown) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify(body));
}

/** RFC 6750 §3: the challenge names the error, except when the request carried no token at all. */
function refuse(res: ServerResponse, context: UserInfoContext, refusal: Refusal) {
  const parts = [`realm=${quoted(context.issuer)}`];
  if (refusal.error) {
    parts.push(`error=${quoted(refusal.error)}`, `error_description=${quoted(refusal.description)}`);
  }
  if (refusal.scope) parts.push(`scope=${quoted(refusal.scope)}`);
  res.setHeader('WWW-Authenticate', `Bearer ${parts.join(', ')}`);
  answer(res, refusal.status, {
    error: refusal.error ?? 'invalid_request',
    error_description: refusal.description,
  });
}

/** The access_token of a form body (RFC 6750 §2.2), or undefined when the body is not a form. */
async function formToken(req: IncomingMessage): Promise<string | undefined> {
  if (
    req.method !== 'POST' ||
    !/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')
  ) {
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > FORM_LIMIT) throw new RangeError('form too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('access_token') ?? undefined;
}

/** The claims of `all` that the scopes release, sub always. */
function released(all: Record<string, unknown>, scopes: Set<string>): Record<string, unknown> {
  const names = new Set<string>(['sub']);
  for (const [scope, claims] of Object.entries(SCOPE_CLAIMS)) {
    if (scopes.has(scope)) for (const name of claims) names.add(name);
  }
  return Object.fromEntries(
    Object.entries(all).filter(([name, value]) => names.has(name) && value !== undefined),
  );
}

/** Answers GET or POST at the UserInfo endpoint. */
export async function answerUserInfo(req: IncomingMessage, res: ServerResponse, context: UserInfoContext) {
  if (req.headers.origin === context.origin) {
    res.setHeader('Access-Control-Allow-Origin', context.origin);
    res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate');
    res.setHeader('Vary', 'Origin');
  }
  let fromForm: string | undefined;
  try {
    fromForm = await formToken(req);
  } catch {
    refuse(res, context, { status: 400, error: 'invalid_request', description: 'the body is too large' });
    return;
  }
  const header = req.headers.authorization;
  if (header !== undefined && fromForm !== undefined) {
    // RFC 6750 §2: a client uses one way of sending the token, never two.
    refuse(res, context, { status: 400, error: 'invalid_request', description: 'the token came twice' });
    return;
  }
  if (header === undefined && fromForm === undefined) {
    refuse(res, context, { status: 401, description: 'no access token provided' });
    return;
  }
  const authorization = header ?? `Bearer ${fromForm}`;
  let claims: AccessTokenClaims;
  try {
    claims = await context.verify(authorization);
  } catch {
    refuse(res, context, { status: 401, error: 'invalid_token', description: 'invalid token provided' });
    return;
  }
  if (claims.iss !== context.issuer || claims.tenant !== context.tenant) {
    refuse(res, context, {
      status: 401,
      error: 'invalid_token',
      description: 'the token is of another issuer',
    });
    return;
  }
  // Verified above; its scope is read from the same token.
  const token = authorization.trim().split(/ +/)[1] ?? '';
  const scope = decodeJwt(token).scope;
  const scopes = new Set(typeof scope === 'string' ? scope.split(' ') : []);
  if (!scopes.has('openid')) {
    refuse(res, context, {
      status: 403,
      error: 'insufficient_scope',
      description: 'access token missing openid scope',
      scope: 'openid',
    });
    return;
  }
  const all = await accountClaims(context.db, context.tenant, claims.sub);
  if (!all) {
    refuse(res, context, {
      status: 401,
      error: 'invalid_token',
      description: 'the account no longer exists',
    });
    return;
  }
  answer(res, 200, released(all, scopes));
}
