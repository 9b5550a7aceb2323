// POST /user-code/generate (spec §7) and /user-code/redeem: a short code, with its link and QR code, that
// carries the caller's onboarding from a computer to a phone; it lasts 10 minutes and is spent once.
import { Hono } from 'hono';
import { userCodeGenerateBody, userCodeRedeemBody } from '../../../contract/api/onboarding';
import type { AuthEnv } from '../../auth/verify';
import { HttpProblem } from '../../http/problem';
import { readBody, validationProblem } from '../../http/validation';
import { qrDataUrl } from '../../qr';
import { assertOpen, type OnboardingRuntime, ownerOf, ownOnboarding } from '../runtime';
import { latestOpenOnboarding } from '../store/onboardings';
import { findOwnUserCode, insertUserCode, redeemUserCode } from '../store/user-codes';
import { generateUserCode, normaliseUserCode } from '../user-codes';

const MAX_DRAWS = 7;

export function userCodesRouter(rt: OnboardingRuntime): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db, requireOnboarding } = rt;

  app.post('/user-code/generate', requireOnboarding, async (c) => {
    const body = await readBody(c, userCodeGenerateBody);
    const owner = ownerOf(c);
    const onboardingId = body.onboarding_id ?? (await latestOpenOnboarding(db, owner));
    if (!onboardingId) {
      throw new HttpProblem(404, 'There is no onboarding in progress to continue.', 'not_found');
    }
    const onboarding = await ownOnboarding(rt, c, onboardingId);
    assertOpen(onboarding.status);
    const stamp = rt.now();
    const expiresAt = new Date(stamp.getTime() + rt.userCodeTtlMs);
    for (let draw = 0; draw < MAX_DRAWS; draw++) {
      const code = generateUserCode();
      if (!(await insertUserCode(db, owner, code, onboarding.onboarding_id, expiresAt, stamp))) continue;
      // The link that continues this onboarding on a phone, and its QR code for the desktop to show: on the known
      // origin of the call's tenant (never one made from the Host header alone), relative when none is known.
      const path = `/device-detect?code=${encodeURIComponent(code)}`;
      const origin = rt.portalOrigin(c);
      const link = origin === undefined ? path : `${origin}${path}`;
      return c.json(
        {
          code,
          onboarding_id: onboarding.onboarding_id,
          expires_at: expiresAt.toISOString(),
          expires_in: Math.round(rt.userCodeTtlMs / 1000),
          link,
          qr: await qrDataUrl(link),
        },
        201,
      );
    }
    throw new Error('could not draw a free user code');
  });

  app.post('/user-code/redeem', requireOnboarding, async (c) => {
    const body = await readBody(c, userCodeRedeemBody);
    const owner = ownerOf(c);
    const code = normaliseUserCode(body.code);
    if (!code) throw validationProblem([{ field: 'code', code: 'wrong_format' }]);
    const row = await findOwnUserCode(db, owner, code);
    if (!row) throw new HttpProblem(404, 'This code is not valid.', 'user_code_not_found');
    const stamp = rt.now();
    if (row.expires_at.getTime() <= stamp.getTime()) {
      throw new HttpProblem(410, 'This code has expired; generate a new one.', 'user_code_expired');
    }
    if (row.redeemed_at || !(await redeemUserCode(db, owner.tenant, code, stamp))) {
      throw new HttpProblem(409, 'This code was already used.', 'user_code_used');
    }
    return c.json({ onboarding_id: row.onboarding_id, expires_at: row.expires_at.toISOString() });
  });

  return app;
}
