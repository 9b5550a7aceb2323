// IAM accounts (spec §3, §7 "Accounts and users"):
//   GET    /public/accounts                 get_accounts_all | can_view_complete_onboardings (pages)
//   GET    /internal/accounts?userId|email  staff lookups; 200 with the matches, 404 when none (spec §5)
//   POST   /internal/accounts               post_onboardings_assisted | post_singles | get_accounts_all; { user_id }
//   DELETE /internal/accounts/{id}          delete_accounts_me (one's own) | delete_accounts_one (staff: the people
//                                           they serve; a staff account only an admin, never the last admin)
//   GET    /internal/accounts/{id}/profile  get_users_me (one's own): the account and its user record
//   GET    /internal/accounts/{id}/export   get_all_data_me (one's own): everything stored, as one zip
//   PUT    /internal/accounts/{id}/locale   any signed-in person for themselves; get_accounts_all for anyone
// {id} is the account id (the token's sub). Another person's or another tenant's account answers 404.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono } from 'hono';
import {
  type AccountProfile,
  type DeleteAccountBody,
  deleteAccountBody,
  type IamAccount,
  type IamAccountPage,
  localeBody,
  type NewAccountResult,
  newAccountBody,
} from '../../contract/api/accounts';
import { nationalIdProblem } from '../../contract/domain/dni';
import { findAccountById, iamAccountOf, listAccounts } from '../auth/accounts';
import { isLoginTaken, loginsTaken, loginsTakenProblem } from '../auth/logins';
import { isStaffAccount } from '../auth/roles';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import type { Db } from '../db/db';
import { HttpProblem } from '../http/problem';
import { intParam } from '../http/query';
import { isUuid, readBody } from '../http/validation';
import { noteStaffAction, recordsStaffAction, recordsWithin } from '../staff-actions/routes';
import { idMismatchDetail } from './rules';
import {
  anotherAdmin,
  collectAccountData,
  eraseAccountData,
  exportEntries,
  hasVisitInProgress,
  insertAccount,
  normaliseIdNumber,
  setAccountLocale,
  userOfAccount,
} from './store';
import { zip } from './zip';

const MAX_PAGE_SIZE = 100;

export interface AccountsOptions {
  now?: () => Date;
}

/** The field a tenant asks for before deleting an account (spec §3 askFieldForDelete), read once per tenant. */
function askFieldLoader(publicDir: string) {
  const cache = new Map<string, Promise<'id_number' | 'none'>>();
  return (tenant: string) => {
    let entry = cache.get(tenant);
    if (!entry) {
      entry = readFile(join(publicDir, 'tenants', tenant, 'settings.json'), 'utf8')
        .then(
          (text) =>
            ((JSON.parse(text) as { askFieldForDelete?: unknown }).askFieldForDelete === 'none'
              ? 'none'
              : 'id_number') as 'id_number' | 'none',
        )
        .catch(() => 'id_number' as const);
      cache.set(tenant, entry);
    }
    return entry;
  };
}

const noAccount = () => new HttpProblem(404, 'No such account.', 'not_found');

export function accountsRoutes(deps: AppDeps, auth: ApiAuth, options: AccountsOptions = {}): Hono<AuthEnv> {
  const { db } = deps;
  const now = options.now ?? (() => new Date());
  const askField = askFieldLoader(deps.config.publicDir);
  const app = new Hono<AuthEnv>();
  const v: AccountsContext = { db, auth, now, askField };

  lookupRoutes(app, v);
  deletionRoute(app, v);
  ownRoutes(app, v);
  return app;
}

/** What every group of the account routes shares. */
interface AccountsContext {
  db: Db;
  auth: ApiAuth;
  now: () => Date;
  askField: ReturnType<typeof askFieldLoader>;
}

/** The account {id} when it is the caller's own; 404 for anyone else's (or a made-up id). */
const ownAccountId = (id: string, sub: string) => {
  if (!isUuid(id) || id !== sub) throw noAccount();
  return id;
};

function lookupRoutes(app: Hono<AuthEnv>, { db, auth }: AccountsContext) {
  app.get(
    '/public/accounts',
    auth.requireAuth('get_accounts_all', 'can_view_complete_onboardings'),
    async (c) => {
      const pageSize = intParam(c.req.query('pageSize'), 'pageSize', 10, 1, MAX_PAGE_SIZE);
      const pageIndex = intParam(c.req.query('pageIndex'), 'pageIndex', 0, 0, 100_000);
      const filter = c.req.query('filter')?.slice(0, 200);
      return c.json<IamAccountPage>(await listAccounts(db, c.get('tenant'), { filter, pageSize, pageIndex }));
    },
  );

  // Existence checks and lookups by staff: the accounts with this id or this email; 404 when there is none
  // (spec §5: existence checks treat 200 as existing and 404 as free).
  app.get(
    '/internal/accounts',
    auth.requireAuth('get_accounts_all', 'post_onboardings_assisted', 'get_users_all', 'post_singles'),
    async (c) => {
      const tenant = c.get('tenant');
      const userId = c.req.query('userId');
      const email = c.req.query('email')?.trim();
      if (userId) {
        const account = await findAccountById(db, tenant, userId);
        if (!account) throw noAccount();
        return c.json<IamAccount[]>([iamAccountOf(account)]);
      }
      if (email) {
        const { items } = await listAccounts(db, tenant, {
          filter: email,
          pageSize: MAX_PAGE_SIZE,
          pageIndex: 0,
        });
        const matches = items.filter((item) => item.email?.toLowerCase() === email.toLowerCase());
        if (matches.length === 0) throw noAccount();
        return c.json<IamAccount[]>(matches);
      }
      throw new HttpProblem(400, 'Give userId or email.', 'invalid_query');
    },
  );

  // A new account named by its email (assisted onboarding, single registration, account managers): it cannot
  // sign in until a password is set through the provider's password reset. Neither its username nor its email
  // may be another account's login (409 with the field): a username equal to someone's email would take over
  // their sign-in and their password resets.
  app.post(
    '/internal/accounts',
    auth.requireAuth('post_onboardings_assisted', 'post_singles', 'get_accounts_all'),
    recordsStaffAction(db, { action: 'account.create' }),
    async (c) => {
      const tenant = c.get('tenant');
      const body = await readBody(c, newAccountBody);
      const email = body.email.trim();
      const username = body.username?.trim() || email;
      const taken = await loginsTaken(db, tenant, { username, email });
      if (taken.length > 0) throw loginsTakenProblem(taken);
      let id: string | undefined;
      try {
        id = await recordsWithin(c, db, async (tx) => {
          const made = await insertAccount(tx, tenant, {
            username,
            firstName: body.first_name?.trim() || null,
            lastName: body.last_name?.trim() || null,
            email,
          });
          noteStaffAction(c, { subject: made });
          return made;
        });
      } catch (error) {
        if (!isLoginTaken(error)) throw error;
      }
      // Another request took one of these logins between the question and the insert.
      if (!id) throw loginsTakenProblem(await loginsTaken(db, tenant, { username, email }));
      return c.json<NewAccountResult>({ user_id: id }, 201);
    },
  );
}

function deletionRoute(app: Hono<AuthEnv>, { db, auth, now, askField }: AccountsContext) {
  // Account cancellation (spec §7, §8): refused on a visit in progress (409 visit_in_progress), a bad request
  // (400 bad_request) or a DNI/NIE that is not the one of the user record (422 id_mismatch, with a detail). Staff
  // cancel the accounts of the people they serve; a staff account (one's own too) only an admin may cancel
  // (403 staff_account), and never the tenant's last admin (409 last_admin), who would be signed out with nobody
  // left to manage the tenant.
  app.delete(
    '/internal/accounts/:id',
    auth.requireAuth('delete_accounts_me', 'delete_accounts_one'),
    recordsStaffAction(db, { action: 'user.cancel', subjectParam: 'id' }),
    async (c) => {
      const tenant = c.get('tenant');
      const claims = c.get('auth');
      const id = c.req.param('id');
      const staff = claims.roles.includes('delete_accounts_one');
      if (!isUuid(id) || (id !== claims.sub && !staff)) throw noAccount();
      let body: DeleteAccountBody;
      try {
        body = await readBody(c, deleteAccountBody);
      } catch (error) {
        if (error instanceof HttpProblem && error.problem.status === 413) throw error;
        throw new HttpProblem(400, 'The request is not a valid account deletion.', 'bad_request');
      }
      const account = await findAccountById(db, tenant, id);
      if (!account) throw noAccount();
      if (isStaffAccount(account.roles)) {
        // The roles the account holds now, not the permissions of a token issued before a change.
        const caller = await findAccountById(db, tenant, claims.sub);
        if (!caller?.roles.includes('admin')) {
          throw new HttpProblem(403, 'Only an admin may cancel a staff account.', 'staff_account');
        }
        if (account.roles.includes('admin') && !(await anotherAdmin(db, tenant, id))) {
          throw new HttpProblem(409, 'The last admin of the tenant cannot be cancelled.', 'last_admin');
        }
      }
      const user = await userOfAccount(db, tenant, id);
      const field = await askField(tenant);
      const given = body.id_number?.trim() ?? '';
      // The person deleting their own account confirms it with the field the tenant asks for; staff cancelling
      // someone else's (AssistantAccountCancellation) always give the person's DNI/NIE when the record has one.
      const ownNeedsId = field === 'id_number' && id === claims.sub;
      if ((ownNeedsId || id !== claims.sub) && user?.id_number && given === '') {
        throw new HttpProblem(400, 'The DNI/NIE is required to delete the account.', 'bad_request');
      }
      // The value stored is what the person must give, whatever its shape: a record whose id_number is not a
      // valid DNI/NIE (old data, a typo) must not lock its owner in. Only a value that is not the stored one is
      // judged by the DNI/NIE rules, to say whether it was malformed or someone else's.
      const matches = user?.id_number
        ? normaliseIdNumber(given) === normaliseIdNumber(user.id_number)
        : false;
      if (given !== '' && !matches) {
        if (nationalIdProblem(normaliseIdNumber(given)) !== null) {
          throw new HttpProblem(400, 'The DNI/NIE is not well formed.', 'bad_request');
        }
        throw new HttpProblem(422, idMismatchDetail(c.req.header('accept-language')), 'id_mismatch');
      }
      if (await hasVisitInProgress(db, tenant, id, now())) {
        throw new HttpProblem(
          409,
          'The account has a visit in progress; it can be deleted once the visit has ended.',
          'visit_in_progress',
        );
      }
      await recordsWithin(c, db, (tx) => eraseAccountData(tx, tenant, id));
      return c.body(null, 204);
    },
  );
}

function ownRoutes(app: Hono<AuthEnv>, { db, auth, now }: AccountsContext) {
  // The person's own profile: the account and its user record (spec §3 User).
  app.get('/internal/accounts/:id/profile', auth.requireAuth('get_users_me'), async (c) => {
    const tenant = c.get('tenant');
    const id = ownAccountId(c.req.param('id'), c.get('auth').sub);
    const account = await findAccountById(db, tenant, id);
    if (!account) throw noAccount();
    const user = await userOfAccount(db, tenant, id);
    return c.json<AccountProfile>({
      account_id: account.id,
      username: account.username,
      email: account.email,
      locale: account.locale,
      user: user ?? null,
    });
  });

  // "Download my data": everything stored about the person as one zip.
  app.get('/internal/accounts/:id/export', auth.requireAuth('get_all_data_me'), async (c) => {
    const tenant = c.get('tenant');
    const id = ownAccountId(c.req.param('id'), c.get('auth').sub);
    const data = await collectAccountData(db, tenant, id);
    if (!data) throw noAccount();
    const at = now();
    const bytes = zip(exportEntries(data), at);
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="my-data-${at.toISOString().slice(0, 10)}.zip"`,
      'Cache-Control': 'no-store',
    });
  });

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
    if (!(await setAccountLocale(db, tenant, userId, locale))) {
      throw new HttpProblem(404, 'No such account.', 'not_found');
    }
    return c.body(null, 204);
  });
}
