// Credential reset (spec §2 ResetCredentials): a person who lost access asks by email, and gets a mail (the outbox,
// /dev/mailbox in development) with a link that expires in 30 minutes and works once; redeeming it, signed in as the
// same account, revokes every credential of the person and issues a new 15-day QR.
//   POST /public/credential-resets           public, throttled; the same 202 whether or not the email exists
//   POST /internal/credential-resets/redeem  show_reset_credentials_button_me; the caller must own the link
// The link's token is 32 random bytes; only its SHA-256 is stored, so the database never holds a usable link.
// The link is made for a known origin of the tenant (server/origins.ts), never from the request's Host header.
import { createHash, randomBytes } from 'node:crypto';
import { type Context, Hono } from 'hono';
import {
  type CredentialResetRequest,
  type CredentialResetResult,
  credentialResetRedeem,
  credentialResetRequest,
} from '../../contract/api/accounts';
import { QR_VALIDITY_DAYS } from '../../contract/domain/constants';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import type { AppDeps } from '../context';
import type { Queryable } from '../db/db';
import { HttpProblem } from '../http/problem';
import { readBody } from '../http/validation';
import { type KnownOrigins, portalOriginOf } from '../origins';

export const RESET_LINK_TTL_MS = 30 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface CredentialResetOptions {
  origins?: KnownOrigins;
  trustProxy?: boolean;
  now?: () => Date;
  /** Mails per address in a window; further requests answer the same and send nothing. */
  perAddress?: number;
  /** Mails per tenant in a window (a flood of made-up addresses cannot fill the outbox). */
  perTenant?: number;
  windowMs?: number;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

const MAIL: Record<'es' | 'en' | 'eu', { subject: string; body: string }> = {
  es: {
    subject: 'Restablecer sus credenciales',
    body: 'Hola {name}: abra este enlace e inicie sesión para anular sus credenciales y recibir un QR nuevo. Caduca en 30 minutos y sólo sirve una vez. Si no lo ha pedido usted, ignore este mensaje.',
  },
  en: {
    subject: 'Reset your credentials',
    body: 'Hello {name}: open this link and sign in to revoke your credentials and get a new QR. It expires in 30 minutes and works once. If you did not ask for it, ignore this mail.',
  },
  eu: {
    subject: 'Zure kredentzialak berrezarri',
    body: 'Kaixo, {name}: ireki esteka hau eta hasi saioa zure kredentzialak baliogabetzeko eta QR berri bat jasotzeko. 30 minututan iraungitzen da eta behin bakarrik balio du. Zuk eskatu ez baduzu, ez egin kasurik mezu honi.',
  },
};

/**
 * The mail throttle, counted in the mail_throttle table (migration 017) so that every server process behind a load
 * balancer counts the same mails. Inside the transaction that sends the mail: a per-tenant advisory lock makes
 * "count, then record" one step, so two processes cannot both send the last mail allowed.
 */
export function mailThrottle(options: {
  perAddress: number;
  perTenant: number;
  windowMs: number;
  now: () => Date;
}) {
  return async (tx: Queryable, tenant: string, email: string): Promise<boolean> => {
    const at = options.now();
    const since = new Date(at.getTime() - options.windowMs);
    await tx.query("select pg_advisory_xact_lock(hashtext('mail_throttle|' || $1))", [tenant]);
    const { rows } = await tx.query<{ address: number; tenant: number }>(
      `select count(*) filter (where key = $2)::int as address, count(*) filter (where key = $3)::int as tenant
         from mail_throttle where tenant = $1 and key in ($2, $3) and sent_at > $4`,
      [tenant, `reset|address|${email}`, 'reset|tenant', since],
    );
    const counts = rows[0] ?? { address: 0, tenant: 0 };
    if (counts.address >= options.perAddress || counts.tenant >= options.perTenant) return false;
    await tx.query(`insert into mail_throttle (tenant, key, sent_at) values ($1, $2, $4), ($1, $3, $4)`, [
      tenant,
      `reset|address|${email}`,
      'reset|tenant',
      at,
    ]);
    await tx.query('delete from mail_throttle where tenant = $1 and sent_at <= $2', [tenant, since]);
    return true;
  };
}

/** The origin the tenant's portal is at: a known origin (portalOriginOf), or a 503 when none serves it. */
function portalOrigin(c: Context, options: CredentialResetOptions, tenant: string): string {
  const origin = portalOriginOf(c, tenant, options);
  if (origin === undefined) throw new HttpProblem(503, 'No known origin serves this tenant.', 'no_origin');
  return origin;
}

export function credentialResetRoutes(
  deps: Pick<AppDeps, 'db'>,
  auth: ApiAuth,
  options: CredentialResetOptions = {},
): Hono<AuthEnv> {
  const { db } = deps;
  const now = options.now ?? (() => new Date());
  const windowMs = options.windowMs ?? RESET_LINK_TTL_MS;
  const mayMail = mailThrottle({
    perAddress: options.perAddress ?? 3,
    perTenant: options.perTenant ?? 100,
    windowMs,
    now,
  });
  const app = new Hono<AuthEnv>();

  app.post('/public/credential-resets', async (c) => {
    const tenant = c.get('tenant');
    const body: CredentialResetRequest = await readBody(c, credentialResetRequest);
    const email = body.email.trim().toLowerCase();
    const origin = portalOrigin(c, options, tenant);
    const { rows } = await db.query<{ id: string; first_name: string | null; username: string }>(
      `select id::text as id, first_name, username from accounts
        where tenant = $1 and lower(email) = $2 and password_hash is not null`,
      [tenant, email],
    );
    const account = rows[0];
    // Throttled per address and per tenant (counted in the database, across processes); beyond the limits
    // nothing is sent, and the answer is the same.
    if (account) {
      const token = randomBytes(32).toString('base64url');
      const lang = body.locale ?? 'es';
      const link = `${origin}/reset-credentials?token=${token}`;
      await db.transaction(async (tx) => {
        if (!(await mayMail(tx, tenant, email))) return;
        await tx.query(
          'insert into credential_resets (tenant, token_hash, account_id, expires_at) values ($1, $2, $3, $4)',
          [tenant, hashOf(token), account.id, new Date(now().getTime() + RESET_LINK_TTL_MS)],
        );
        await tx.query(
          'insert into outbox (tenant, recipient, subject, body, link) values ($1, $2, $3, $4, $5)',
          [
            tenant,
            email,
            MAIL[lang].subject,
            MAIL[lang].body.replace('{name}', account.first_name ?? account.username),
            link,
          ],
        );
      });
    }
    return c.json({ sent: true }, 202);
  });

  app.post(
    '/internal/credential-resets/redeem',
    auth.requireAuth('show_reset_credentials_button_me'),
    async (c) => {
      const tenant = c.get('tenant');
      const caller = c.get('auth').sub;
      const { token } = await readBody(c, credentialResetRedeem);
      const at = now();
      const result = await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ account_id: string; expires_at: Date; used_at: Date | null }>(
          `select account_id::text as account_id, expires_at, used_at from credential_resets
            where tenant = $1 and token_hash = $2 for update`,
          [tenant, hashOf(token)],
        );
        const reset = rows[0];
        // Another person's link is as unknown as a made-up one.
        if (!reset || reset.account_id !== caller) {
          throw new HttpProblem(404, 'No such reset link.', 'reset_link_not_found');
        }
        if (reset.used_at) throw new HttpProblem(409, 'This link was already used.', 'reset_link_used');
        if (reset.expires_at.getTime() <= at.getTime()) {
          throw new HttpProblem(410, 'This link has expired; ask for a new one.', 'reset_link_expired');
        }
        const user = await tx.query<{ user_id: string }>(
          'select user_id::text as user_id from users where tenant = $1 and account_id = $2',
          [tenant, caller],
        );
        const userId = user.rows[0]?.user_id;
        if (!userId) throw new HttpProblem(409, 'This account holds no credentials.', 'not_enrolled');
        await tx.query('update credential_resets set used_at = $3 where tenant = $1 and token_hash = $2', [
          tenant,
          hashOf(token),
          at,
        ]);
        const revoked = await tx.query(
          `update credentials set state = 'revoked' where tenant = $1 and user_id = $2 and state = 'active'
           returning 1`,
          [tenant, userId],
        );
        const issued = await tx.query<{ sid: string; starts_at: Date; ends_at: Date }>(
          `insert into credentials (tenant, user_id, credential_type, starts_at, ends_at)
           values ($1, $2, 'qr', $3, $4) returning sid::text as sid, starts_at, ends_at`,
          [tenant, userId, at, new Date(at.getTime() + QR_VALIDITY_DAYS * DAY_MS)],
        );
        const credential = issued.rows[0];
        if (!credential) throw new Error('the new credential was not stored');
        return {
          user_id: userId,
          sid: credential.sid,
          starts_at: credential.starts_at.toISOString(),
          ends_at: credential.ends_at.toISOString(),
          revoked: revoked.rows.length,
        };
      });
      return c.json<CredentialResetResult>(result);
    },
  );

  return app;
}
