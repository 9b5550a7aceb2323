// IAM accounts (spec §3, §7 "Accounts and users"): GET /public/accounts (pages), GET /internal/accounts
// (lookup by userId or email), PUT /internal/accounts/{userId}/locale.
import { Hono } from 'hono';
import { localeBody } from '../../src/api/contract/accounts';
import { findAccountById, iamAccountOf, listAccounts } from '../auth/accounts';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import { isUuid, readBody } from '../onboarding/validation';
import { HttpProblem } from '../problem';

const MAX_PAGE_SIZE = 100;

function intParam(
  value: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new HttpProblem(400, `${name} must be an integer from ${min} to ${max}.`, 'invalid_query');
  }
  return n;
}

export function accountsRoutes(deps: AppDeps, auth: ApiAuth): Hono<AuthEnv> {
  const { db } = deps;
  const app = new Hono<AuthEnv>();

  app.get(
    '/public/accounts',
    auth.requireAuth('get_accounts_all', 'can_view_complete_onboardings'),
    async (c) => {
      const pageSize = intParam(c.req.query('pageSize'), 'pageSize', 10, 1, MAX_PAGE_SIZE);
      const pageIndex = intParam(c.req.query('pageIndex'), 'pageIndex', 0, 0, 100_000);
      const filter = c.req.query('filter')?.slice(0, 200);
      return c.json(await listAccounts(db, c.get('tenant'), { filter, pageSize, pageIndex }));
    },
  );

  // Existence checks and lookups by staff: the accounts with this id or this email (an empty list when none).
  app.get(
    '/internal/accounts',
    auth.requireAuth('get_accounts_all', 'post_onboardings_assisted', 'get_users_all', 'post_singles'),
    async (c) => {
      const tenant = c.get('tenant');
      const userId = c.req.query('userId');
      const email = c.req.query('email')?.trim();
      if (userId) {
        const account = await findAccountById(db, tenant, userId);
        return c.json(account ? [iamAccountOf(account)] : []);
      }
      if (email) {
        const { items } = await listAccounts(db, tenant, {
          filter: email,
          pageSize: MAX_PAGE_SIZE,
          pageIndex: 0,
        });
        return c.json(items.filter((item) => item.email?.toLowerCase() === email.toLowerCase()));
      }
      throw new HttpProblem(400, 'Give userId or email.', 'invalid_query');
    },
  );

  // A person sets their own language; account managers may set anyone's.
  app.put('/internal/accounts/:userId/locale', auth.requireAuth(), async (c) => {
    const tenant = c.get('tenant');
    const claims = c.get('auth');
    const userId = c.req.param('userId');
    if (userId !== claims.sub && !claims.roles.includes('get_accounts_all')) {
      throw new HttpProblem(403, 'You may only change your own language.', 'forbidden');
    }
    // The portal's own list of locales (spec §1: es, en, eu); the body as every JSON body (depth, JSON, schema).
    const { locale } = await readBody(c, localeBody);
    // Account ids are UUIDs; anything else (a NUL, say, which PostgreSQL text refuses) names no account.
    if (!isUuid(userId)) throw new HttpProblem(404, 'No such account.', 'not_found');
    const { rows } = await db.query(
      'update accounts set locale = $3 where tenant = $1 and id::text = $2 returning 1',
      [tenant, userId, locale],
    );
    if (rows.length === 0) throw new HttpProblem(404, 'No such account.', 'not_found');
    return c.body(null, 204);
  });

  return app;
}
