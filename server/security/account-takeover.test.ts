// Staff cannot take over a person's sign-in, nor sign out and wipe the staff who oversee them: through a real
// server, with tokens from the development identity provider (the demo tenant's seeded accounts).
import { decodeJwt } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { GRANT_CHECK_CACHE_MS } from '../auth/verify';
import { fixture } from '../onboarding/testing/harness';
import { apiCall, Browser, realmOf, signIn, type Tokens } from '../testing/oidc';
import { startedServerForFile } from '../testing/signed-in-app';

// A real server and scrypt on a shared machine take longer than vitest's defaults.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const started = startedServerForFile();

const TENANT = 'demo';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const token = async (username: string) => (await signIn(started.base, TENANT, username)).access_token;
const subOf = (tokens: Tokens | string) =>
  decodeJwt(typeof tokens === 'string' ? tokens : tokens.access_token).sub ?? '';

function send(method: string, path: string, bearer: string, body?: unknown) {
  return apiCall(started.base, path, TENANT, bearer, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
}

interface ProblemBody {
  status: number;
  code?: string;
  errors?: { field: string; code: string }[];
}

async function problem(res: Response, status: number, code: string): Promise<ProblemBody> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = JSON.parse(text) as ProblemBody;
  expect(body.code).toBe(code);
  return body;
}

/** Whether a token still works on the API (every signed-in person may set their own language). */
const alive = async (bearer: string) =>
  (await send('PUT', `/internal/accounts/${subOf(bearer)}/locale`, bearer, { locale: 'es' })).status;

const mailsTo = async (recipient: string) =>
  (
    await started.server.db.query<{ n: number }>(
      'select count(*)::int as n from outbox where tenant = $1 and lower(recipient) = lower($2)',
      [TENANT, recipient],
    )
  ).rows[0]?.n ?? 0;

describe('a login names one account', () => {
  it("refuses an account whose username is another person's email, in any case or accents", async () => {
    const manager = await token('accountmanager');
    const create = (body: Record<string, string>) => send('POST', '/internal/accounts', manager, body);

    for (const username of ['visitor@demo.example', 'VISITOR@Demo.Example', 'vísitor@démo.example']) {
      const refused = await problem(
        await create({ email: 'attacker@evil.example', username }),
        409,
        'username_already_in_use',
      );
      expect(refused.errors).toEqual([{ field: 'username', code: 'username_already_in_use' }]);
    }
    // Another person's username is taken the same way.
    await problem(
      await create({ email: 'attacker@evil.example', username: 'Visitor' }),
      409,
      'username_already_in_use',
    );
    // An email that is another account's username.
    expect((await create({ email: 'b@evil.example', username: 'b-login@demo.example' })).status).toBe(201);
    const email = await problem(await create({ email: 'B-Login@demo.example' }), 409, 'email_already_in_use');
    expect(email.errors).toEqual([{ field: 'email', code: 'email_already_in_use' }]);

    // The person still signs in with their email, and a password reset asked for it is mailed to them.
    const visitor = await signIn(started.base, TENANT, 'visitor@demo.example', 'visitor');
    expect(decodeJwt(visitor.access_token).preferred_username).toBe('visitor');
    const reset = await new Browser().post(`${realmOf(started.base, TENANT)}/reset?lang=en`, {
      login: 'visitor@demo.example',
    });
    expect(reset.status).toBe(200);
    expect(await mailsTo('visitor@demo.example')).toBe(1);
    expect(await mailsTo('attacker@evil.example')).toBe(0);
  });

  it('refuses the same through a single registration, beside the username field', async () => {
    const manager = await token('usermanager');
    // A real picture: it passes the image checks, so the refusal is the username's.
    const png = fixture('selfie.png');
    const refused = await problem(
      await send('POST', '/public/singles', manager, {
        mode: 'image',
        email: 'attacker-2@evil.example',
        acs_id: 'ACS-TAKEOVER-1',
        username: 'Auditor@Demo.example',
        image: png.toString('base64'),
      }),
      409,
      'username_already_in_use',
    );
    expect(refused.errors).toEqual([{ field: 'username', code: 'username_already_in_use' }]);
  });

  it('is kept by the database too: no insert or update may give an account another one’s login', async () => {
    const insert = started.server.db.query(
      "insert into accounts (tenant, username, email) values ('demo', 'someone-new', 'Vísitor@Demo.example')",
    );
    await expect(insert).rejects.toMatchObject({ code: '23505', constraint: 'account_logins_pkey' });
    const update = started.server.db.query(
      "update accounts set username = 'AUDITOR@demo.example' where tenant = 'demo' and username = 'receptionist'",
    );
    await expect(update).rejects.toMatchObject({ code: '23505', constraint: 'account_logins_pkey' });
  });
});

describe('cancelling an account', () => {
  it('an assistant cannot cancel the admin or the auditor: their sign-in lives on', async () => {
    const assistant = await token('assistant');
    const admin = await token('admin');
    const auditor = await token('auditor');
    for (const victim of [admin, auditor]) {
      await problem(
        await send('DELETE', `/internal/accounts/${subOf(victim)}`, assistant, {}),
        403,
        'staff_account',
      );
    }
    // Nor their own staff account.
    await problem(
      await send('DELETE', `/internal/accounts/${subOf(assistant)}`, assistant, {}),
      403,
      'staff_account',
    );
    // The API believes a grant alive for GRANT_CHECK_CACHE_MS after it last looked.
    await sleep(GRANT_CHECK_CACHE_MS + 500);
    expect(await alive(admin)).toBe(204);
    expect(await alive(auditor)).toBe(204);
    expect(await alive(assistant)).toBe(204);
  });

  it('an assistant still cancels a person they serve, with the person’s DNI/NIE', async () => {
    const assistant = await token('assistant');
    const user = await token('user');
    // The seeded `user`'s DNI (server/auth/accounts.ts seedEnrolledUser: the second seeded account).
    expect((await send('DELETE', `/internal/accounts/${subOf(user)}`, assistant, {})).status).toBe(400);
    const done = await send('DELETE', `/internal/accounts/${subOf(user)}`, assistant, {
      id_number: '00000001R',
    });
    expect(done.status).toBe(204);
  });

  it('an admin cancels a staff account, but never the last admin', async () => {
    const admin = await token('admin');
    const receptionist = await token('receptionist');
    expect((await send('DELETE', `/internal/accounts/${subOf(receptionist)}`, admin, {})).status).toBe(204);
    await problem(await send('DELETE', `/internal/accounts/${subOf(admin)}`, admin, {}), 409, 'last_admin');
    await sleep(GRANT_CHECK_CACHE_MS + 500);
    expect(await alive(admin)).toBe(204);
    expect(await alive(receptionist)).toBe(401);
  });
});
