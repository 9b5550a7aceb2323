// A login (a username or an email) names one account at most, compared without case or accents: the database
// enforces it (server/db/migrations/020_unambiguous_logins.sql, login_key and account_logins); this module asks
// before writing, so that a refusal names its field, and reports clashes older than the rule.
import type { FieldError } from '../../contract/api/problem';
import type { Queryable } from '../db/db';
import { DetailedProblem } from '../http/validation';
import type { Logger } from '../logger';

export interface AccountLogins {
  username: string;
  email: string | null;
}

/**
 * The logins of a new or changed account that another account of the tenant already holds, as 409 field errors:
 * the email (email_already_in_use), and the username (username_already_in_use) when it is another login than the
 * email. `accountId` is the account being changed, whose own logins do not count.
 */
export async function loginsTaken(
  q: Queryable,
  tenant: string,
  logins: AccountLogins,
  accountId: string | null = null,
): Promise<FieldError[]> {
  const { rows } = await q.query<{ same: boolean; username: boolean; email: boolean }>(
    `select coalesce(login_key($2::text) = login_key($3::text), false) as same,
       exists (select 1 from accounts where tenant = $1 and id is distinct from $4::uuid
               and (login_key(username) = login_key($2::text) or login_key(email) = login_key($2::text))) as username,
       ($3::text is not null and exists (select 1 from accounts where tenant = $1 and id is distinct from $4::uuid
               and (login_key(username) = login_key($3::text) or login_key(email) = login_key($3::text)))) as email`,
    [tenant, logins.username, logins.email, accountId],
  );
  const found = rows[0];
  const errors: FieldError[] = [];
  if (found?.email) errors.push({ field: 'email', code: 'email_already_in_use' });
  if (found?.username && !(found.same && found.email)) {
    errors.push({ field: 'username', code: 'username_already_in_use' });
  }
  return errors;
}

/** 409 with a field error per login already taken (the email's when the caller knows no better). */
export function loginsTakenProblem(errors: FieldError[]): DetailedProblem {
  const list = errors.length > 0 ? errors : [{ field: 'email', code: 'email_already_in_use' }];
  const first = list[0] as FieldError;
  return new DetailedProblem(
    409,
    first.code === 'username_already_in_use'
      ? 'That username is already the username or email of another account.'
      : 'That email is already the email or username of another account.',
    first.code,
    { errors: list },
  );
}

/** The database refused a login another account holds (two writers at once, after both asked loginsTaken). */
export function isLoginTaken(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return e?.code === '23505' && e.constraint === 'account_logins_pkey';
}

export interface LoginClash {
  tenant: string;
  /** Oldest first. */
  accountIds: string[];
}

/** Accounts that share a login, from before the rule: such a login signs none of them in until it is changed. */
export async function loginClashes(q: Queryable): Promise<LoginClash[]> {
  const { rows } = await q.query<{ tenant: string; ids: string[] }>(
    `select tenant, array_agg(id::text order by created_at, id) as ids
       from (select tenant, login_key(username) as login, id, created_at from accounts
             union
             select tenant, login_key(email), id, created_at from accounts where email is not null) as logins
      group by tenant, login
     having count(*) > 1
      order by tenant, min(created_at)`,
  );
  return rows.map((row) => ({ tenant: row.tenant, accountIds: row.ids }));
}

const REPORTED = 50;

/**
 * Logs each clash (which accounts, never the login, which is personal data) at every start until it is resolved:
 * the migration cannot choose who keeps a shared login, an administrator can.
 */
export async function reportLoginClashes(q: Queryable, logger: Logger): Promise<number> {
  const clashes = await loginClashes(q);
  for (const clash of clashes.slice(0, REPORTED)) {
    logger.log('warn', 'accounts share a login; it signs none of them in until it is changed', {
      tenant: clash.tenant,
      accounts: clash.accountIds,
    });
  }
  if (clashes.length > REPORTED) {
    logger.log('warn', 'more accounts share logins', { clashes: clashes.length, listed: REPORTED });
  }
  return clashes.length;
}
