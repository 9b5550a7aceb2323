import { randomUUID } from 'node:crypto';
import { type } from 'arktype';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../contract/api/problem';
import { JSON_LIMITS, TEXT_LIMITS } from '../../contract/api/text';
import { JSON_MAX_BYTES } from '../http/validation';
import { type RunningServer, startServer } from '../main';
import { ASSISTANT_ROLES, headersOf, person, USER_ROLES } from '../onboarding/testing/harness';
import { createSiteFixture, type SiteFixture, testServerOptions } from '../testing/fixtures';
import { signedInAppForFile } from '../testing/signed-in-app';

// What a request may carry, one case each: the body limit on every JSON route of the API (not only the onboarding
// routers), the string and userData limits of the contract's request schemas, and the inputs that made the server
// answer 500 (NUL in a string, a key or a query, year 0, deep nesting, a malformed multipart body).

const ALL_ROLES = [...USER_ROLES, ...ASSISTANT_ROLES, 'get_accounts_all', 'get_users_all'];
const me = person(`acc-limits-${randomUUID()}`, 'gambling', ALL_ROLES);

const portal = signedInAppForFile({ onboarding: { resultDelayMs: 0 } });

function send(method: string, path: string, body?: string, contentType = 'application/json') {
  const headers = headersOf(me);
  if (body !== undefined) headers['content-type'] = contentType;
  return portal.app.request(`/api${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
}

async function expectProblem(res: Response, status: number, errors?: { field: string; code: string }[]) {
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = problem(JSON.parse(text));
  if (body instanceof type.errors) throw new Error(body.summary);
  if (errors) expect(body.errors).toEqual(errors);
  return body;
}

async function openOnboarding() {
  const created = await send('POST', '/internal/onboardings', JSON.stringify({ mode: 'auto' }));
  expect(created.status).toBe(201);
  const { onboarding_id: onboardingId } = (await created.json()) as { onboarding_id: string };
  expect((await send('PUT', `/internal/onboardings/${onboardingId}/legal_terms`)).status).toBe(200);
  const made = await send(
    'POST',
    '/internal/portrayals',
    JSON.stringify({
      portrayal_type: 'document',
      document_type: 'id_card',
      document_country: 'ES',
      onboarding_id: onboardingId,
    }),
  );
  expect(made.status).toBe(201);
  const { portrayal_id: portrayalId } = (await made.json()) as { portrayal_id: string };
  await portal.db.query(
    `update portrayals set images_version = 1, computed_version = 1, liveness_result = 'passing', result = '{}'::jsonb
      where portrayal_id = $1`,
    [portrayalId],
  );
  return {
    onboardingId,
    portrayalId,
    confirm: `/internal/onboardings/${onboardingId}/portrayals/${portrayalId}`,
  };
}

const registration = (overrides: Record<string, unknown> = {}) => ({
  first_name: 'Carmen',
  last_name: 'Española',
  birth_date: '1980-01-01',
  document_number: `D${randomUUID().slice(0, 8).toUpperCase()}`,
  document_type: 'id_card',
  ...overrides,
});

describe('a body limit on every JSON route of the API', { timeout: 120_000 }, () => {
  const big = 'x'.repeat(JSON_MAX_BYTES);

  // The onboarding routers had a limit already (../onboarding/body-limits.test.ts); the others had none.
  it.each([
    ['PUT', '/internal/accounts/00000000-0000-4000-8000-000000000000/locale', { locale: 'es', padding: big }],
    ['POST', '/no/such/route', { padding: big }],
  ])('%s %s over 64 KB: 413 payload_too_large', async (method, path, body) => {
    const res = await send(method, path, JSON.stringify(body));
    const out = await expectProblem(res, 413);
    expect(out.code).toBe('payload_too_large');
  });

  it('refuses a large body sent without a length (chunked) too, but leaves image uploads to their limits', async () => {
    const chunks = [JSON.stringify({ locale: 'es', padding: big })];
    const stream = new ReadableStream({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const res = await portal.app.request(
      '/api/internal/accounts/00000000-0000-4000-8000-000000000000/locale',
      {
        method: 'PUT',
        headers: { ...headersOf(me), 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit,
    );
    await expectProblem(res, 413);

    const { portrayalId } = await openOnboarding();
    const image = new Uint8Array(JSON_MAX_BYTES * 2);
    const upload = await portal.app.request(`/api/internal/portrayals/${portrayalId}/obverse`, {
      method: 'PUT',
      headers: { ...headersOf(me), 'content-type': 'image/jpeg' },
      body: new Blob([image]),
    });
    // Judged as an image (not a JPEG at all), not refused for its size.
    expect(upload.status).not.toBe(413);
    expect(upload.status).toBeLessThan(500);
  });
});

describe('string and userData limits of the request schemas', { timeout: 120_000 }, () => {
  it('refuses a name over the limit with too_long', async () => {
    const { confirm } = await openOnboarding();
    const res = await send(
      'PUT',
      confirm,
      JSON.stringify(registration({ first_name: 'A'.repeat(TEXT_LIMITS.name + 1) })),
    );
    await expectProblem(res, 422, [{ field: 'first_name', code: 'too_long' }]);
  });

  it('refuses a userData over the size or depth limit with too_long', async () => {
    const large = { mode: 'assisted', userData: { note: 'x'.repeat(JSON_LIMITS.maxChars) } };
    await expectProblem(await send('POST', '/internal/onboardings', JSON.stringify(large)), 422, [
      { field: 'userData', code: 'too_long' },
    ]);
    let nested: unknown = 1;
    // maxDepth + 1 levels of objects: one too many.
    for (let level = 0; level < JSON_LIMITS.maxDepth; level++) nested = { a: nested };
    nested = { a: nested };
    const deep = { mode: 'assisted', userData: nested };
    await expectProblem(await send('POST', '/internal/onboardings', JSON.stringify(deep)), 422, [
      { field: 'userData', code: 'too_long' },
    ]);

    // At the limits, with tabs and line breaks in its text: accepted.
    let inner: unknown = 'x';
    for (let level = 1; level < JSON_LIMITS.maxDepth; level++) inner = { a: inner };
    const res = await send(
      'POST',
      '/internal/onboardings',
      JSON.stringify({
        mode: 'assisted',
        userData: { email: 'ana@example.test', nested: inner, note: 'línea\ty\nlínea' },
      }),
    );
    expect(res.status).toBe(201);
  });
});

describe('inputs that made the server answer 500 are 4xx problems', { timeout: 120_000 }, () => {
  it('a NUL in location', async () => {
    const res = await send(
      'POST',
      '/internal/onboardings',
      JSON.stringify({ mode: 'auto', location: 'Sala\u0000' }),
    );
    await expectProblem(res, 422, [{ field: 'location', code: 'wrong_format' }]);
  });

  it('a NUL in first_name, and in an extra_fields key', async () => {
    const { confirm } = await openOnboarding();
    await expectProblem(
      await send('PUT', confirm, JSON.stringify(registration({ first_name: 'Car\u0000men' }))),
      422,
      [{ field: 'first_name', code: 'wrong_format' }],
    );
    const key = registration({ extra_fields: { 'phone\u0000': '600000000' } });
    await expectProblem(await send('PUT', confirm, JSON.stringify(key)), 422, [
      { field: 'extra_fields', code: 'wrong_format' },
    ]);
  });

  it('birth_date 0000-01-01', async () => {
    const { confirm } = await openOnboarding();
    await expectProblem(
      await send('PUT', confirm, JSON.stringify(registration({ birth_date: '0000-01-01' }))),
      422,
      [{ field: 'birth_date', code: 'wrong_format' }],
    );
  });

  it('a userData nested 5,000 levels, and any body nested that deep', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await send('POST', '/internal/onboardings', `{"mode":"assisted","userData":${deep}}`);
    await expectProblem(res, 422, [{ field: 'userData', code: 'too_long' }]);
    const array = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const other = await send(
      'POST',
      '/internal/portrayals',
      `{"portrayal_type":"document","document_type":${array}}`,
    );
    await expectProblem(other, 422, [{ field: 'document_type', code: 'too_long' }]);
  });

  it.each(['/internal/accounts?email=%00', '/public/accounts?filter=%00', '/internal/accounts?userId=a%00b'])(
    'GET %s',
    async (path) => {
      const res = await send('GET', path);
      const field = new URLSearchParams(path.split('?')[1]).keys().next().value;
      await expectProblem(res, 400, [{ field: field as string, code: 'wrong_format' }]);
    },
  );

  it('a NUL in an account id of the path', async () => {
    const res = await send('PUT', '/internal/accounts/a%00b/locale', JSON.stringify({ locale: 'es' }));
    await expectProblem(res, 404);
  });

  it.each([
    ['an empty body', ''],
    ['a truncated part', '--b\r\nContent-Disposition: form-data; name="life_proofing"\r\n\r\n{"a":1}'],
  ])('a malformed multipart body on lifeproof: %s', async (_name, body) => {
    const { portrayalId } = await openOnboarding();
    const res = await send(
      'PUT',
      `/internal/portrayals/${portrayalId}/lifeproof`,
      body,
      'multipart/form-data; boundary=b',
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    await expectProblem(res, res.status);
    expect(res.status).toBeLessThan(500);
  });

  it('a NUL in the life_proofing data of a liveness proof', async () => {
    const { portrayalId } = await openOnboarding();
    const form = new FormData();
    form.append('life_proofing', JSON.stringify({ note: 'a\u0000b' }));
    form.append(
      'video',
      new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4])], { type: 'video/webm' }),
      'v.webm',
    );
    const res = await portal.app.request(`/api/internal/portrayals/${portrayalId}/lifeproof`, {
      method: 'PUT',
      headers: headersOf(me),
      body: form,
    });
    await expectProblem(res, 422, [{ field: 'life_proofing', code: 'wrong_format' }]);
  });
});

describe('the identity provider refuses an oversized form', { timeout: 120_000 }, () => {
  let server: RunningServer | undefined;
  let idpSite: SiteFixture | undefined;

  beforeAll(async () => {
    idpSite = createSiteFixture();
    server = await startServer(testServerOptions({ distDir: idpSite.distDir }));
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    idpSite?.remove();
  });

  it('a password-reset request over 16 KB: 413, not 500', async () => {
    const res = await fetch(`http://localhost:${server?.port}/auth/realms/gambling/reset?lang=en`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login: 'x'.repeat(20 * 1024) }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(413);
    await res.body?.cancel();
  });
});
