// Credential reset (spec §2 ResetCredentials): a person who lost access asks by email, and gets a mail (the outbox,
// /dev/mailbox in development) with a link that expires in 30 minutes and works once; redeeming it, signed in as the
// same account, revokes every credential of the person and issues a new 15-day QR.
//   POST /public/credential-resets           public, throttled; the same 202 whether or not the email exists
//   POST /internal/credential-resets/redeem  show_reset_credentials_button_me; the caller must own the link
// The link's token is 32 random bytes; only its SHA-256 is stored (rules.ts), so the database never holds a usable link.
// The link is made for a known origin of the tenant (server/origins.ts), never from the request's Host header.
import { randomBytes } from 'node:crypto';
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
import { HttpProblem } from '../http/problem';
import { readBody } from '../http/validation';
import { type KnownOrigins, portalOriginOf } from '../origins';
import { hashOf, RESET_LINK_TTL_MS, RESET_MAIL } from './rules';
import {
  mailThrottle,
  recordReset,
  redeemReset,
  resetForUpdate,
  resettableAccount,
  userIdOfAccount,
} from './store';

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
    const account = await resettableAccount(db, tenant, email);
    // Throttled per address and per tenant (counted in the database, across processes); beyond the limits
    // nothing is sent, and the answer is the same.
    if (account) {
      const token = randomBytes(32).toString('base64url');
      const mail = RESET_MAIL[body.locale ?? 'es'];
      const link = `${origin}/reset-credentials?token=${token}`;
      await db.transaction(async (tx) => {
        if (!(await mayMail(tx, tenant, email))) return;
        await recordReset(
          tx,
          tenant,
          {
            tokenHash: hashOf(token),
            accountId: account.id,
            expiresAt: new Date(now().getTime() + RESET_LINK_TTL_MS),
          },
          {
            recipient: email,
            subject: mail.subject,
            body: mail.body.replace('{name}', account.first_name ?? account.username),
            link,
          },
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
        const reset = await resetForUpdate(tx, tenant, hashOf(token));
        // Another person's link is as unknown as a made-up one.
        if (!reset || reset.account_id !== caller) {
          throw new HttpProblem(404, 'No such reset link.', 'reset_link_not_found');
        }
        if (reset.used_at) throw new HttpProblem(409, 'This link was already used.', 'reset_link_used');
        if (reset.expires_at.getTime() <= at.getTime()) {
          throw new HttpProblem(410, 'This link has expired; ask for a new one.', 'reset_link_expired');
        }
        const userId = await userIdOfAccount(tx, tenant, caller);
        if (!userId) throw new HttpProblem(409, 'This account holds no credentials.', 'not_enrolled');
        const { revoked, credential } = await redeemReset(tx, tenant, {
          tokenHash: hashOf(token),
          userId,
          at,
          endsAt: new Date(at.getTime() + QR_VALIDITY_DAYS * DAY_MS),
        });
        return {
          user_id: userId,
          sid: credential.sid,
          starts_at: credential.starts_at.toISOString(),
          ends_at: credential.ends_at.toISOString(),
          revoked,
        };
      });
      return c.json<CredentialResetResult>(result);
    },
  );

  return app;
}
