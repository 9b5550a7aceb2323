import { randomUUID } from 'node:crypto';
import { type } from 'arktype';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../contract/api/problem';
import type { Faults } from '../enforcement/source';
import { seedProhibitedList } from '../onboarding/seed';
import { ASSISTANT_ROLES, CLAIMS_HEADER, headersOf, person, USER_ROLES } from '../onboarding/testing/harness';
import { signedInAppForFile } from '../testing/signed-in-app';

// No request body or query of the API makes the server answer 5xx. A property-based fuzzer sends every JSON route
// 1,000 generated bodies (arbitrary JSON, strings with NULs, controls, lone surrogates and huge lengths, deep
// nesting, wrong types, and mutations of a valid body) and every GET with query parameters 1,000 generated queries,
// through the real app on one in-memory database, authenticated as the route tests are; every answer must be below
// 500 and, when 4xx, a problem body of the contract.

const RUNS = 1000;
const SLOW = { timeout: 900_000 };

const faults: Faults = { enforcement: false };
const clock = { now: new Date('2025-06-01T10:00:00.000Z') };

const ALL_ROLES = [...USER_ROLES, ...ASSISTANT_ROLES, 'get_accounts_all', 'get_users_all'];
const me = person(`acc-fuzz-${randomUUID()}`, 'gambling', ALL_ROLES);

const portal = signedInAppForFile({
  onboarding: { resultDelayMs: 0, now: () => clock.now, faults },
  origins: 'default',
});

beforeAll(async () => {
  for (const tenant of ['gambling', 'demo']) {
    await portal.db.transaction((tx) => seedProhibitedList(tx, tenant, { facilities: [] }));
  }
});

// ---------------------------------------------------------------------------------------------------------
// Sending and judging

type Who = ReturnType<typeof person>;

function send(
  method: string,
  path: string,
  body?: string | Uint8Array,
  who: Who = me,
  contentType = 'application/json',
) {
  const headers = headersOf(who);
  if (body !== undefined) headers['content-type'] = contentType;
  const payload = body instanceof Uint8Array ? new Blob([Uint8Array.from(body)]) : body;
  return portal.app.request(`/api${path}`, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
}

/** Below 500, and a problem body of the shared contract when 4xx; the parsed body otherwise (or null). */
async function judged(res: Response, label: string): Promise<unknown> {
  const text = await res.text();
  if (res.status >= 500) throw new Error(`${label}: ${res.status} ${text.slice(0, 500)}`);
  if (res.status < 400) {
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  }
  expect(res.headers.get('content-type'), `${label}: ${res.status}`).toMatch(/^application\/problem\+json/);
  const checked = problem(JSON.parse(text));
  if (checked instanceof type.errors) throw new Error(`${label}: not a problem: ${text.slice(0, 500)}`);
  expect(checked.status).toBe(res.status);
  return checked;
}

// ---------------------------------------------------------------------------------------------------------
// Generators

const control = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((n) => String.fromCharCode(n)),
  fc.constant('\u007f'),
);
const awkward = fc.constantFrom(
  'a',
  'Z',
  '9',
  '@',
  '.',
  '-',
  ' ',
  'é',
  'ñ',
  '"',
  '\\',
  '\ud800',
  '\udc00',
  '😀',
);
/** Strings that break things: controls and NUL, lone surrogates, any code point, huge lengths, odd dates. */
const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.oneof(control, awkward), maxLength: 40 }),
  fc
    .tuple(fc.integer({ min: 0, max: 70_000 }), fc.constantFrom('a', '\u0000', 'ñ', '9'))
    .map(([n, char]) => char.repeat(n)),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '0000-01-01',
    '0001-01-01',
    '9999-12-31',
    '2025-02-30',
    '-000001-01-01',
    'a@b.co',
    '00000000-0000-0000-0000-000000000000',
    '%00',
    'NaN',
    '1e309',
  ),
);

/** A JSON text nested `depth` levels, built as text (a value that deep is not built recursively here). */
const deepText = fc
  .tuple(fc.integer({ min: 1, max: 6000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );

const leaf = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(-1, 0, 1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308),
);
/** Any JSON value, with nasty strings as keys and leaves. */
const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(nastyString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Replace one member of a JSON object text with a raw JSON text (a duplicate key: the last one wins). */
const withRawMember = (base: Record<string, unknown>, key: string, raw: string) => {
  const text = JSON.stringify(base);
  const inner = text.slice(1, -1);
  return `{${inner}${inner ? ',' : ''}${JSON.stringify(key)}:${raw}}`;
};

/** Bodies for a JSON route: mutations of a valid body mostly, and anything at all now and then. */
function bodies(valid: fc.Arbitrary<Record<string, unknown>>, keys: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...keys) }, nastyString);
  const mutated = fc
    .tuple(
      valid,
      fc.array(fc.tuple(key, fc.option(anyValue, { nil: undefined })), { minLength: 1, maxLength: 3 }),
    )
    .map(([base, changes]) => {
      const out: Record<string, unknown> = { ...base };
      for (const [name, value] of changes) {
        if (value === undefined) delete out[name];
        else out[name] = value;
      }
      return JSON.stringify(out);
    });
  const nested = fc
    .tuple(valid, fc.constantFrom(...keys), deepText)
    .map(([base, name, raw]) => withRawMember(base, name, raw));
  return fc.oneof(
    { weight: 6, arbitrary: mutated },
    { weight: 1, arbitrary: valid.map((base) => JSON.stringify(base)) },
    { weight: 1, arbitrary: anyValue.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: nastyString },
    { weight: 1, arbitrary: deepText },
    { weight: 2, arbitrary: nested },
  );
}

/** Query strings: the route's own parameter names with nasty values, repeated names, and strangers. */
function queries(names: readonly string[]): fc.Arbitrary<string> {
  const value = fc.oneof(
    nastyString.map((text) => text.slice(0, 4000)),
    fc.integer().map(String),
    fc.constantFrom('0', '-1', '1e3', '101', '10', 'png', 'json', 'pdf', 'PNG'),
  );
  const name = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...names) },
    nastyString.map((text) => text.slice(0, 100)),
  );
  return fc.array(fc.tuple(name, value), { maxLength: 4 }).map((pairs) => {
    const params = new URLSearchParams();
    for (const [n, v] of pairs) params.append(n, v);
    return params.toString();
  });
}

/** A path segment; a lone surrogate (which encodeURIComponent refuses) goes as its invalid UTF-8 bytes. */
const pathSegment = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
};

const docNumber = fc.stringMatching(/^[A-Z0-9]{6,12}$/);

// ---------------------------------------------------------------------------------------------------------
// Fixtures made through the API itself

async function created(path: string, body: unknown, who: Who = me): Promise<Record<string, string>> {
  const res = await send('POST', path, JSON.stringify(body), who);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
}

/** An open onboarding (terms accepted) with an identity portrayal; judged makes its result count as computed. */
async function openOnboarding(who: Who = me, judged = false) {
  const { onboarding_id: onboardingId } = await created('/internal/onboardings', { mode: 'auto' }, who);
  const terms = await send('PUT', `/internal/onboardings/${onboardingId}/legal_terms`, undefined, who);
  if (terms.status !== 200) throw new Error(`legal terms: ${terms.status}`);
  const { portrayal_id: portrayalId } = await created(
    '/internal/portrayals',
    {
      portrayal_type: 'document',
      document_type: 'id_card',
      document_country: 'ES',
      onboarding_id: onboardingId,
    },
    who,
  );
  if (judged) {
    // As if the images had been sent and judged (the fuzzer is about the body, not the biometric engine).
    await portal.db.query(
      `update portrayals set images_version = 1, computed_version = 1, liveness_result = 'passing',
              result = '{}'::jsonb where portrayal_id = $1`,
      [portrayalId],
    );
  }
  return { onboardingId: onboardingId as string, portrayalId: portrayalId as string };
}

// ---------------------------------------------------------------------------------------------------------

describe('no JSON body makes the API answer 5xx', SLOW, () => {
  it('POST /internal/onboardings', async () => {
    const valid = fc.record({
      mode: fc.constantFrom('auto', 'assisted'),
      location: fc.constant('Sala Bilbao'),
      userData: fc.constant({ email: 'ana@example.test', first_name: 'Ana', visit_date: '2025-06-02' }),
      registerMode: fc.constantFrom('auto', 'assisted'),
      visit_date: fc.constant('2025-06-02'),
      host: fc.constant('host@example.test'),
      user_id: fc.constant(null),
    });
    const keys = ['mode', 'location', 'user_id', 'userData', 'registerMode', 'visit_date', 'host'];
    await fc.assert(
      fc.asyncProperty(bodies(valid, keys), async (body) => {
        await judged(await send('POST', '/internal/onboardings', body), 'POST /internal/onboardings');
      }),
      { numRuns: RUNS },
    );
  });

  it('POST /internal/portrayals', async () => {
    const { onboardingId } = await openOnboarding();
    const valid = fc.record({
      portrayal_type: fc.constantFrom('document', 'selfie'),
      document_type: fc.constantFrom('id_card', 'passport', 'none'),
      document_country: fc.constantFrom('ES', 'fr', null),
      onboarding_id: fc.constantFrom(onboardingId, null),
      user_id: fc.constant(me.sub),
      process: fc.constantFrom(null, 'kiosk'),
    });
    const keys = [
      'portrayal_type',
      'document_type',
      'document_country',
      'onboarding_id',
      'user_id',
      'process',
    ];
    await fc.assert(
      fc.asyncProperty(bodies(valid, keys), async (body) => {
        await judged(await send('POST', '/internal/portrayals', body), 'POST /internal/portrayals');
      }),
      { numRuns: RUNS },
    );
  });

  it('PUT /internal/onboardings/{id}/portrayals/{portrayalId} (the confirmation)', async () => {
    // A new person and a judged portrayal whenever a case completes the current onboarding, so that every
    // case reaches the body and the valid ones go as far as creating the user.
    const fresh = async () => {
      const who = person(`acc-fuzz-${randomUUID()}`, 'gambling', ALL_ROLES);
      return { who, ...(await openOnboarding(who, true)) };
    };
    let target = await fresh();
    const valid = fc.record({
      first_name: fc.constantFrom('Carmen', 'Ane'),
      last_name: fc.constant('Española Española'),
      birth_date: fc.constantFrom('1980-01-01', '2015-01-01'),
      expiry_date: fc.constantFrom('2031-01-01', null),
      id_number: fc.constantFrom('99999999R', '', null),
      document_number: docNumber,
      document_type: fc.constantFrom('id_card', 'passport', 'others'),
      expedition_country: fc.constantFrom('ES', ''),
      nationality: fc.constantFrom('ESP', null),
      email: fc.constantFrom(null, '', 'carmen@example.test'),
      nie: fc.constantFrom(null, ''),
      extra_fields: fc.constantFrom({}, { phone: '+34 600 000 000', email: 'carmen@example.test' }, null),
      skip_email_check: fc.boolean(),
      username: fc.constantFrom(null, 'carmen'),
      acs_id: fc.constantFrom(null, ''),
      id: fc.constant(null),
    });
    const keys = [
      'first_name',
      'last_name',
      'birth_date',
      'expiry_date',
      'id_number',
      'document_number',
      'document_type',
      'expedition_country',
      'nationality',
      'email',
      'nie',
      'extra_fields',
      'skip_email_check',
      'username',
      'acs_id',
      'id',
    ];
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(bodies(valid, keys), async (body) => {
        const path = `/internal/onboardings/${target.onboardingId}/portrayals/${target.portrayalId}`;
        const out = (await judged(await send('PUT', path, body, target.who), `PUT ${path}`)) as {
          result?: { outcome?: string };
          reason?: string;
        } | null;
        if (out?.result?.outcome === 'accepted' || out?.reason === 'user_already_registered') {
          if (out?.result?.outcome === 'accepted') accepted++;
          target = await fresh();
        }
      }),
      { numRuns: RUNS },
    );
    // The valid bodies did reach the end of the route.
    expect(accepted).toBeGreaterThan(0);
  });

  it('POST /internal/challenges', async () => {
    const valid = fc.record({
      length: fc.integer({ min: 1, max: 10 }),
      expiration: fc.integer({ min: 5, max: 600 }),
    });
    await fc.assert(
      fc.asyncProperty(bodies(valid, ['length', 'expiration']), async (body) => {
        await judged(await send('POST', '/internal/challenges', body), 'POST /internal/challenges');
      }),
      { numRuns: RUNS },
    );
  });

  it('POST /user-code/generate and /user-code/redeem', async () => {
    const { onboardingId } = await openOnboarding();
    const generate = fc.record({ onboarding_id: fc.constantFrom(onboardingId, null) });
    await fc.assert(
      fc.asyncProperty(bodies(generate, ['onboarding_id']), async (body) => {
        await judged(await send('POST', '/user-code/generate', body), 'POST /user-code/generate');
      }),
      { numRuns: RUNS },
    );
    const redeem = fc.record({ code: fc.constantFrom('ABCD-EFGH', 'abcd efgh', '') });
    await fc.assert(
      fc.asyncProperty(bodies(redeem, ['code']), async (body) => {
        await judged(await send('POST', '/user-code/redeem', body), 'POST /user-code/redeem');
      }),
      { numRuns: RUNS },
    );
  });

  it('POST /dev/faults/enforcement', async () => {
    try {
      await fc.assert(
        fc.asyncProperty(bodies(fc.record({ on: fc.boolean() }), ['on']), async (body) => {
          await judged(await send('POST', '/dev/faults/enforcement', body), 'POST /dev/faults/enforcement');
        }),
        { numRuns: RUNS },
      );
    } finally {
      faults.enforcement = false;
    }
  });

  it('POST /internal/rights and PUT /public/credentials/{userId}/sids/{sid}/state', async () => {
    const { rows } = await portal.db.query<{ userId: string; sid: string }>(
      `select c.user_id::text as "userId", c.sid::text as sid from credentials c
        where c.tenant = 'gambling' and c.credential_type = 'qr' order by c.created_at limit 1`,
    );
    const credential = rows[0];
    if (!credential) throw new Error('no seeded credential');
    const staff = person('fuzz-staff', 'gambling', ['put_credentials_state_one', 'post_singles']);
    const rights = fc.record({
      subject: fc.constant(credential.userId),
      object: fc.constantFrom('portal', 'Sala Bilbao'),
      action: fc.constantFrom('access_qr', 'access_face', 'access_proof'),
      claims: fc.constantFrom({}, { portrayal_id: randomUUID() }),
    });
    await fc.assert(
      fc.asyncProperty(bodies(rights, ['subject', 'object', 'action', 'claims']), async (body) => {
        await judged(await send('POST', '/internal/rights', body, staff), 'POST /internal/rights');
      }),
      { numRuns: RUNS },
    );
    const statePath = `/public/credentials/${credential.userId}/sids/${credential.sid}/state`;
    await fc.assert(
      fc.asyncProperty(
        bodies(fc.record({ state: fc.constantFrom('active', 'revoked') }), ['state']),
        async (body) => {
          await judged(await send('PUT', statePath, body, staff), `PUT ${statePath}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('PUT /internal/accounts/{userId}/locale, with any user id in the path', async () => {
    const valid = fc.record({ locale: fc.constantFrom('es', 'en', 'eu') });
    const userId = fc.oneof(
      fc.constant(me.sub),
      fc.constant(randomUUID()),
      nastyString.map((text) => text.slice(0, 2000)),
    );
    await fc.assert(
      fc.asyncProperty(userId, bodies(valid, ['locale']), async (id, body) => {
        const path = `/internal/accounts/${pathSegment(id)}/locale`;
        await judged(await send('PUT', path, body), `PUT ${path}`);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('no JSON body makes the account routes answer 5xx', SLOW, () => {
  const OWN = ['delete_accounts_me', 'get_users_me', 'show_reset_credentials_button_me'];
  async function seededUser() {
    const { rows } = await portal.db.query<{ id: string }>(
      "select id::text as id from accounts where tenant = 'gambling' and username = 'visitor'",
    );
    return person(rows[0]?.id ?? randomUUID(), 'gambling', OWN);
  }

  it('POST /internal/accounts', async () => {
    const valid = fc.record({
      email: fc.emailAddress().map((email) => email.slice(0, 254)),
      username: fc.string({ maxLength: 120 }),
      first_name: fc.constantFrom('Ana', ''),
      last_name: fc.constantFrom('Pérez', ''),
    });
    await fc.assert(
      fc.asyncProperty(bodies(valid, ['email', 'username', 'first_name', 'last_name']), async (body) => {
        await judged(await send('POST', '/internal/accounts', body), 'POST /internal/accounts');
      }),
      { numRuns: RUNS },
    );
  });

  it('DELETE /internal/accounts/{id}, with any id in the path', async () => {
    const who = await seededUser();
    const valid = fc.record({ id_number: fc.constantFrom('12345678Z', 'X1234567L', '1234', '') });
    const id = fc.oneof(
      fc.constant(who.sub),
      fc.constant(randomUUID()),
      nastyString.map((t) => t.slice(0, 2000)),
    );
    await fc.assert(
      fc.asyncProperty(id, bodies(valid, ['id_number']), async (target, body) => {
        const path = `/internal/accounts/${pathSegment(target)}`;
        await judged(await send('DELETE', path, body, who), `DELETE ${path}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('POST /public/credential-resets and /internal/credential-resets/redeem', async () => {
    const who = await seededUser();
    const request = fc.record({
      email: fc.constantFrom('visitor@gambling.example', 'nobody@example.test'),
      locale: fc.constantFrom('es', 'en', 'eu', 'fr'),
    });
    const redeem = fc.record({ token: fc.constantFrom('a'.repeat(43), 'short', '') });
    await fc.assert(
      fc.asyncProperty(bodies(request, ['email', 'locale']), bodies(redeem, ['token']), async (ask, use) => {
        await judged(await send('POST', '/public/credential-resets', ask), 'POST /public/credential-resets');
        await judged(
          await send('POST', '/internal/credential-resets/redeem', use, who),
          'POST /internal/credential-resets/redeem',
        );
      }),
      { numRuns: RUNS },
    );
  });
});

describe('no query makes the API answer 5xx', SLOW, () => {
  it('GET /public/accounts', async () => {
    await fc.assert(
      fc.asyncProperty(queries(['pageSize', 'pageIndex', 'filter']), async (query) => {
        await judged(await send('GET', `/public/accounts?${query}`), `GET /public/accounts?${query}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('GET /internal/accounts', async () => {
    await fc.assert(
      fc.asyncProperty(queries(['userId', 'email']), async (query) => {
        await judged(await send('GET', `/internal/accounts?${query}`), `GET /internal/accounts?${query}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('GET /public/credentials/{userId}/sids/{sid}', async () => {
    const { rows } = await portal.db.query<{ userId: string; sid: string }>(
      `select c.user_id::text as "userId", c.sid::text as sid from credentials c
        where c.tenant = 'gambling' and c.credential_type = 'qr' order by c.created_at limit 1`,
    );
    const credential = rows[0];
    if (!credential) throw new Error('no seeded credential');
    await fc.assert(
      fc.asyncProperty(queries(['format', 'size', 'lang', 'download']), async (query) => {
        const path = `/public/credentials/${credential.userId}/sids/${credential.sid}?${query}`;
        await judged(await send('GET', path), `GET ${path}`);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('no liveness proof body makes the API answer 5xx', SLOW, () => {
  it('PUT /internal/portrayals/{id}/lifeproof, multipart or not', async () => {
    const { portrayalId } = await openOnboarding();
    const boundary = 'fuzzboundary';
    const part = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('life_proofing', 'challenge', 'challenge_id', 'x'),
          nastyString.map((t) => t.slice(0, 5000)),
        )
        .map(
          ([name, value]) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
        ),
      fc
        .tuple(fc.constantFrom('life_proofing'), anyValue)
        .map(
          ([name, value]) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${JSON.stringify(value)}\r\n`,
        ),
      // A video part (WebM magic bytes): a frame the image checks do not refuse.
      fc.constant(
        Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="v.webm"\r\nContent-Type: video/webm\r\n\r\n`,
          ),
          Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x77, 0x65, 0x62, 0x6d]),
          Buffer.from('\r\n'),
        ]),
      ),
      nastyString.map((t) => t.slice(0, 5000)),
    );
    const multipart = fc
      .tuple(fc.array(part, { maxLength: 4 }), fc.boolean())
      .map(([parts, closed]) =>
        Buffer.concat([
          ...parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)),
          Buffer.from(closed ? `--${boundary}--\r\n` : ''),
        ]),
      );
    const contentType = fc.constantFrom(
      `multipart/form-data; boundary=${boundary}`,
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'application/json',
    );
    await fc.assert(
      fc.asyncProperty(multipart, contentType, async (body, type) => {
        const res = await send('PUT', `/internal/portrayals/${portrayalId}/lifeproof`, body, me, type);
        await judged(
          res,
          `PUT lifeproof (${type}) ${JSON.stringify(body.subarray(0, 300).toString('latin1'))}`,
        );
      }),
      { numRuns: RUNS },
    );
  });
});

describe('no body, query or path makes the visit routes answer 5xx', SLOW, () => {
  const reception = person(randomUUID(), 'gambling', ['post_visits_all', 'delete_users_all']);
  let facilityId = '';
  let visitor: Who;
  /** The seeded visitor, enrolled (the claims header of the harness says enrolled: false). */
  const asVisitor = (method: string, path: string, body?: string) => {
    const headers = headersOf(visitor);
    const claims = JSON.parse(headers[CLAIMS_HEADER] as string) as Record<string, unknown>;
    headers[CLAIMS_HEADER] = JSON.stringify({ ...claims, enrolled: true });
    if (body !== undefined) headers['content-type'] = 'application/json';
    return portal.app.request(`/api${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  };
  // Each test books with a host of its own: one host's visits may not overlap (host_busy).
  const visitBody = (start: Date, host = 'assistant@gambling.example') => ({
    title: 'Reunión',
    start_at: start.toISOString(),
    end_at: new Date(start.getTime() + 3600_000).toISOString(),
    host,
    visitor: { name: 'Vera Visitante', email: 'visitor@gambling.example' },
    location: facilityId,
    guests: 1,
    extra_fields: { emergency_instructions: { accepted: true } },
  });
  /** A visit made by reception (accepted), `days` ahead. */
  async function acceptedVisit(days: number): Promise<string> {
    const start = new Date(Date.now() + days * 86_400_000);
    return (await created('/public/visits', visitBody(start, 'auditor@gambling.example'), reception))
      .id as string;
  }

  beforeAll(async () => {
    const { rows } = await portal.db.query<{ facility_id: string }>(
      "select facility_id::text as facility_id from facilities where tenant = 'gambling' and alias = 'Sala Bilbao'",
    );
    facilityId = rows[0]?.facility_id ?? '';
    const account = await portal.db.query<{ id: string }>(
      "select id::text as id from accounts where tenant = 'gambling' and username = 'visitor'",
    );
    visitor = person(account.rows[0]?.id ?? randomUUID(), 'gambling', ['post_visits_me']);
  });

  it('POST /public/visits, as reception and as the visitor', async () => {
    const when = fc
      .integer({ min: -3, max: 4000 })
      .map((days) => new Date(Date.now() + days * 86_400_000 + 3600_000));
    const valid = when.map((start) => visitBody(start));
    const keys = ['title', 'start_at', 'end_at', 'host', 'visitor', 'location', 'guests', 'extra_fields'];
    await fc.assert(
      fc.asyncProperty(bodies(valid, keys), fc.boolean(), async (body, byReception) => {
        const res = byReception
          ? await send('POST', '/public/visits', body, reception)
          : await asVisitor('POST', '/public/visits', body);
        await judged(res, 'POST /public/visits');
      }),
      { numRuns: RUNS },
    );
  });

  it('PUT /public/visits/{id}/checkin and /checkout, POST /cancellation, with any id in the path', async () => {
    const visitId = await acceptedVisit(2);
    const id = fc.oneof(
      { weight: 3, arbitrary: fc.constant(visitId) },
      fc.constant(randomUUID()),
      nastyString.map((text) => text.slice(0, 2000)),
    );
    const valid = fc.record({ via: fc.constantFrom('kiosk', 'reception') });
    const action = fc.constantFrom('checkin', 'checkout', 'cancellation');
    await fc.assert(
      fc.asyncProperty(id, action, bodies(valid, ['via']), async (target, what, body) => {
        const path = `/public/visits/${pathSegment(target)}/${what}`;
        const method = what === 'cancellation' ? 'POST' : 'PUT';
        await judged(await send(method, path, body, reception), `${method} ${path}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('POST /public/visits/{id}/confirmation, with any token and body', async () => {
    // A request of the visitor: the host's mail carries a real token for it.
    const res = await asVisitor(
      'POST',
      '/public/visits',
      JSON.stringify(visitBody(new Date(Date.now() + 3 * 86_400_000), 'usermanager@gambling.example')),
    );
    expect(res.status).toBe(201);
    const { id: visitId } = (await res.json()) as { id: string };
    const { rows } = await portal.db.query<{ link: string }>(
      'select link from outbox where link like $1 order by created_at desc limit 1',
      [`%/${visitId}`],
    );
    const realToken = /\/confirmation\/([^/]+)\//.exec(rows[0]?.link ?? '')?.[1] ?? '';
    expect(realToken).not.toBe('');
    const token = fc.oneof(
      fc.constant(realToken),
      nastyString.map((text) => text.slice(0, 3000)),
      fc.constant(`${realToken}x`),
    );
    const id = fc.oneof(
      fc.constant(visitId),
      fc.constant(randomUUID()),
      nastyString.map((t) => t.slice(0, 500)),
    );
    const valid = fc.record({ outcome: fc.constantFrom('accept', 'reject') });
    await fc.assert(
      fc.asyncProperty(token, id, bodies(valid, ['outcome']), async (bearer, target, body) => {
        const path = `/api/public/visits/${pathSegment(target)}/confirmation`;
        let authorization: string;
        try {
          authorization = new Headers({ authorization: `Bearer ${bearer}` }).get('authorization') ?? '';
        } catch {
          authorization = 'Bearer x'; // a header value fetch itself refuses (controls, non-Latin-1)
        }
        const res = await portal.app.request(path, {
          method: 'POST',
          headers: { 'tenant-id': 'gambling', 'content-type': 'application/json', authorization },
          body,
        });
        await judged(res, `POST ${path}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('PUT /dev/clock (development only)', async () => {
    const valid = fc.record({
      at: fc.oneof(
        fc
          .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString()),
        fc.constant(null),
      ),
    });
    try {
      await fc.assert(
        fc.asyncProperty(bodies(valid, ['at']), async (body) => {
          await judged(await send('PUT', '/dev/clock', body, reception), 'PUT /dev/clock');
        }),
        { numRuns: RUNS },
      );
    } finally {
      await send('PUT', '/dev/clock', JSON.stringify({ at: null }), reception);
    }
  });

  it('GET /public/visits, /public/visits/arrival and /public/visits/visitors/{id}', async () => {
    const names = [
      'pageSize',
      'pageIndex',
      'bookmark',
      'fromDate',
      'toDate',
      'orderby',
      'sorted',
      'visitor',
      'user',
      'status',
    ];
    await fc.assert(
      fc.asyncProperty(queries(names), fc.boolean(), async (query, byReception) => {
        const path = `/public/visits?${query}`;
        const res = byReception
          ? await send('GET', path, undefined, reception)
          : await asVisitor('GET', path);
        await judged(res, `GET ${path}`);
      }),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(queries(['code']), async (query) => {
        await judged(
          await send('GET', `/public/visits/arrival?${query}`, undefined, reception),
          `GET arrival?${query}`,
        );
      }),
      { numRuns: RUNS },
    );
    const id = fc.oneof(
      fc.constant(visitor.sub),
      fc.constant(randomUUID()),
      nastyString.map((text) => text.slice(0, 2000)),
    );
    await fc.assert(
      fc.asyncProperty(id, async (target) => {
        const path = `/public/visits/visitors/${pathSegment(target)}`;
        await judged(await send('GET', path, undefined, reception), `GET ${path}`);
      }),
      { numRuns: RUNS },
    );
  });
});
