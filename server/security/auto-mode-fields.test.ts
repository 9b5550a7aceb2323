// A person registering themselves (auto mode) may neither skip the email check nor choose their acs_id: both were
// once accepted when sent. Spec §5: only the assisted flow skips the email check; choosing username, acs_id or id is
// for staff. On a real server, through the real sign-in.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../main';
import { basicEngine } from '../onboarding/engine';
import { fixture, payload } from '../onboarding/testing/harness';
import { createSiteFixture, type SiteFixture, testServerOptions } from '../testing/fixtures';
import { apiCall, signIn } from '../testing/oidc';

let site: SiteFixture;
let server: RunningServer;
let base: string;

beforeAll(async () => {
  site = createSiteFixture();
  // The basic engine: these tests are about the registration fields, not about reading documents or faces.
  server = await startServer(
    testServerOptions({ distDir: site.distDir }, { onboarding: { engine: basicEngine } }),
  );
  base = `http://localhost:${server.port}`;
}, 120_000);

afterAll(async () => {
  await server?.close();
  site.remove();
});

interface Started {
  onboardingId: string;
  portrayalId: string;
}

const call = (
  token: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
) =>
  apiCall(base, path, 'gambling', token, {
    method,
    ...(body === undefined
      ? {}
      : {
          headers: { 'content-type': contentType },
          body: body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body),
        }),
  });

/** An onboarding with its terms accepted, the document and selfie sent and the portrayal result computed. */
async function readyOnboarding(token: string, sub: string, body: Record<string, unknown>): Promise<Started> {
  const created = await call(token, 'POST', '/internal/onboardings', body);
  expect(created.status, await created.clone().text()).toBe(201);
  const { onboarding_id: onboardingId } = (await created.json()) as { onboarding_id: string };
  expect((await call(token, 'PUT', `/internal/onboardings/${onboardingId}/legal_terms`)).status).toBe(200);
  const made = await call(token, 'POST', '/internal/portrayals', {
    user_id: sub,
    onboarding_id: onboardingId,
    portrayal_type: 'document',
    document_type: 'id_card',
    document_country: 'es',
  });
  expect(made.status).toBe(201);
  const { portrayal_id: portrayalId } = (await made.json()) as { portrayal_id: string };
  for (const [kind, name, type] of [
    ['obverse', 'document.jpg', 'image/jpeg'],
    ['reverse', 'document.png', 'image/png'],
    ['selfie', 'selfie.png', 'image/png'],
  ] as const) {
    const sent = await call(
      token,
      'PUT',
      `/internal/portrayals/${portrayalId}/${kind}`,
      new Uint8Array(fixture(name)),
      type,
    );
    expect(sent.status, kind).toBe(200);
  }
  for (let tries = 0; ; tries++) {
    const result = await call(token, 'GET', `/internal/portrayals/${portrayalId}`);
    if (result.status === 200) break;
    expect(result.status).toBe(404);
    if (tries > 40) throw new Error('no portrayal result');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { onboardingId, portrayalId };
}

const confirm = (token: string, started: Started, data: Record<string, unknown>) =>
  call(token, 'PUT', `/internal/onboardings/${started.onboardingId}/portrayals/${started.portrayalId}`, data);

const subOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string }).sub;

describe('staff-only registration fields', { timeout: 120_000 }, () => {
  it('in auto mode, skip_email_check, username, acs_id and id are refused, one not_allowed per field', async () => {
    const { access_token: token } = await signIn(base, 'gambling', 'newcomer');
    const started = await readyOnboarding(token, subOf(token), { mode: 'auto' });

    const refused = await confirm(
      token,
      started,
      payload({ skip_email_check: true, username: 'chosen', acs_id: 'ACS-MINE-1', id: 'my-own-id' }),
    );
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as { code: string; errors: unknown[] };
    expect(body.code).toBe('validation');
    expect(body.errors).toEqual([
      { field: 'skip_email_check', code: 'not_allowed' },
      { field: 'username', code: 'not_allowed' },
      { field: 'acs_id', code: 'not_allowed' },
      { field: 'id', code: 'not_allowed' },
    ]);
    const acsOnly = await confirm(token, started, payload({ acs_id: 'ACS-MINE-1' }));
    expect(((await acsOnly.json()) as { errors: unknown[] }).errors).toEqual([
      { field: 'acs_id', code: 'not_allowed' },
    ]);

    // What the portal sends in auto mode (none of them, or empty) is accepted, with an acs_id of the server's.
    const accepted = await confirm(
      token,
      started,
      payload({ skip_email_check: false, username: '', acs_id: null }),
    );
    expect(accepted.status).toBe(200);
    const outcome = (await accepted.json()) as { result: { outcome: string }; user_id: string };
    expect(outcome.result.outcome).toBe('accepted');
    const { rows } = await server.db.query<{ acs_id: string }>(
      'select acs_id from users where tenant = $1 and user_id = $2',
      ['gambling', outcome.user_id],
    );
    expect(rows[0]?.acs_id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('the assisted flow may skip the email check and set the acs_id', async () => {
    const { access_token: token } = await signIn(base, 'gambling', 'assistant');
    const started = await readyOnboarding(token, subOf(token), {
      mode: 'assisted',
      user_id: `acc-${randomUUID()}`,
      userData: { email: 'user@gambling.example' },
      registerMode: 'Assisted',
    });
    const acsId = `ACS-ASSISTED-${randomUUID().slice(0, 8)}`;
    const res = await confirm(token, started, payload({ skip_email_check: true, acs_id: acsId }));
    expect(res.status, await res.clone().text()).toBe(200);
    const outcome = (await res.json()) as { result: { outcome: string }; user_id: string };
    expect(outcome.result.outcome).toBe('accepted');
    const { rows } = await server.db.query<{ acs_id: string }>(
      'select acs_id from users where tenant = $1 and user_id = $2',
      ['gambling', outcome.user_id],
    );
    expect(rows[0]?.acs_id).toBe(acsId);
  });
});
