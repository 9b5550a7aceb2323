import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkErrorWords,
  collectContractCodes,
  collectServerCodes,
  DYNAMIC_SITES,
  HANDLED_ELSEWHERE,
} from './error-codes';

// The collector of `npm run i18n:check`: it reads the codes from the server's source, so it must find
// the ones we know the server answers, from every part of it, and must fail on a code without words.

const root = process.cwd();
const catalogues = Object.fromEntries(
  ['es', 'en', 'eu'].map((l) => [l, JSON.parse(readFileSync(`src/i18n/messages/${l}.json`, 'utf8'))]),
) as Record<string, Record<string, string>>;
const server = collectServerCodes(root);
const placesOf = (code: string) => server.codes.get(code) ?? [];

describe('collectServerCodes on the reference server', () => {
  it('finds many codes, and nothing it cannot follow that DYNAMIC_SITES does not explain', () => {
    expect(server.codes.size).toBeGreaterThan(100);
    expect(server.undeclared).toEqual([]);
    expect(server.stale).toEqual([]);
    expect(server.unresolvedTypes).toEqual([]);
  });

  it.each([
    // new HttpProblem(…, 'code') in server/onboarding and the resources' routes, and in the middleware and auth
    ['onboarding_completed', 'server/onboarding/runtime.ts'],
    ['image_not_expected', 'server/onboarding/routers/portrayal-images.ts'],
    ['onboarding_not_pending', 'server/users/routes.ts'],
    ['visit_not_today', 'server/visits/routes.ts'],
    ['tenant_unknown', 'server/middleware/tenant.ts'],
    ['tenant_mismatch', 'server/auth/verify.ts'],
    // field errors { field, code } passed to validationProblem / DetailedProblem
    ['date_in_future', 'server/onboarding/routers/confirmation.ts'],
    ['unknown_challenge', 'server/onboarding/routers/portrayal-images.ts'],
    ['unsupported_document', 'server/onboarding/routers/portrayals.ts'],
    ['location_not_found', 'server/credentials/routes.ts'],
    ['selfie_not_provided', 'server/credentials/routes.ts'],
    // a builder found by the fixpoint: bulk/upload.ts's `problem(status, detail, code)`
    ['media_too_large', 'server/bulk/upload.ts'],
    // a typed parameter: imageRefusal(code: ImageRefusalCode, …)
    ['image_too_many_pixels', 'server/onboarding/image-checks.ts'],
    ['image_unreadable', 'server/onboarding/image-checks.ts'],
    // a function's returns: validation.ts codeOf → CODES[…] ?? 'invalid'
    ['out_of_range', 'server/http/validation.ts'],
    // a template literal over a conditional: `${field}_already_in_use`
    ['username_already_in_use', 'server/singles/store.ts'],
    // a registration reason: conflict(reason: RegistrationReason), the contract's arktype list
    ['enforcement_source_unavailable', 'server/onboarding/routers/confirmation.ts'],
    // a declared dynamic site: the portrayal result's error code (PortrayalErrorCode)
    ['no_face_error', 'server/onboarding/routers/portrayals.ts'],
  ])('finds %s where %s answers it', (code, file) => {
    expect(placesOf(code).some((place) => place.startsWith(`${file}:`))).toBe(true);
  });

  it('does not take values that are not codes (field names, user codes, interdiction results)', () => {
    for (const notCode of ['birth_date', 'document_type', 'underage', 'data_mismatch', ''])
      expect(server.codes.has(notCode)).toBe(false);
  });

  it('reports a site it cannot follow when its declaration is missing, and a declaration left stale', () => {
    const without = DYNAMIC_SITES.filter((d) => d.text !== 'refused.code');
    const result = collectServerCodes(root, [
      ...without,
      { file: 'server/app.ts', text: 'gone', covered: 'x' },
    ]);
    expect(result.undeclared).toEqual([
      expect.objectContaining({ file: 'server/singles/routes.ts', text: 'refused.code' }),
    ]);
    expect(result.stale).toEqual([expect.objectContaining({ file: 'server/app.ts', text: 'gone' })]);
  });
});

describe('collectContractCodes', () => {
  it('reads the contract’s code lists, and every export named like one is accounted for', () => {
    const contract = collectContractCodes(root);
    for (const code of [
      'validas_error',
      'underaged',
      'visit_already_started',
      'accreditation-request/credential-already-exists',
    ])
      expect(contract.codes.has(code)).toBe(true);
    expect(contract.unlisted).toEqual([]);
    expect(contract.unresolved).toEqual([]);
  });
});

describe('checkErrorWords', () => {
  it('passes on the project: every code has words in es, en and eu or a checked handler', () => {
    const report = checkErrorWords(root, catalogues, { server });
    expect(report.problems).toEqual([]);
    expect(report.codes.size).toBeGreaterThan(100);
    expect(report.handled.get('underaged')?.guard).toBe('hasCode');
  });

  it('names a code that lacks words in one language', () => {
    const euWithout = { ...catalogues.eu };
    delete euWithout['common.errors.onboarding_not_pending'];
    const report = checkErrorWords(root, { ...catalogues, eu: euWithout }, { server });
    expect(report.problems).toEqual([
      expect.stringMatching(
        /^error code "onboarding_not_pending" \(server\/users\/routes\.ts:\d+\) has no "common\.errors\.onboarding_not_pending" in eu$/,
      ),
    ]);
  });

  it('refuses a handler whose place does not handle the code', () => {
    const handlers = [
      ...HANDLED_ELSEWHERE,
      {
        codes: ['onboarding_not_pending'],
        file: 'machines/enrolment.machine.ts',
        guard: 'hasCode',
        why: 'no',
      },
    ];
    const { problems } = checkErrorWords(root, catalogues, { handlers, server });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('"onboarding_not_pending"');
    expect(problems[0]).toContain("has no guard hasCode with params 'onboarding_not_pending'");
  });
});

describe('a server of its own (a fixture)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'error-codes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write(
    'server/http/problem.ts',
    `export class HttpProblem extends Error { constructor(status: number, detail: string, code?: string) { super(detail); } }
export function makeProblem(status: number, detail: string, code?: string) { return { status, detail, code }; }`,
  );
  write(
    'server/routes/things.ts',
    `import { HttpProblem } from '../http/problem';
type Why = 'thing_locked' | 'thing_gone';
const refuse = (why: Why) => new HttpProblem(409, 'No.', why);
const fail = (status: number, code: string) => new HttpProblem(status, 'Failed.', code);
export function route(row: { code: string }, kind: 'a' | 'b') {
  if (kind === 'a') throw fail(400, 'brand_new_code');
  if (kind === 'b') throw refuse('thing_locked');
  throw new HttpProblem(422, 'x', row.code);
}
// a test helper is not the server
`,
  );
  write('server/routes/things.test.ts', `new HttpProblem(400, 'x', 'only_in_a_test');`);

  it('collects literal, typed and builder codes, and names what it cannot follow', () => {
    const result = collectServerCodes(dir, []);
    expect([...result.codes.keys()]).toEqual(['brand_new_code', 'thing_gone', 'thing_locked']);
    expect(result.undeclared).toEqual([{ file: 'server/routes/things.ts', line: 8, text: 'row.code' }]);
  });

  it('fails naming each code without words', () => {
    const report = checkErrorWords(
      dir,
      { es: { 'common.errors.thing_locked': 'Bloqueado.' }, en: {}, eu: {} },
      {
        declarations: [{ file: 'server/routes/things.ts', text: 'row.code', covered: 'fixture' }],
        handlers: [],
        contractLists: [],
      },
    );
    expect(report.problems).toEqual([
      expect.stringMatching(
        /^error code "brand_new_code" .* has no "common\.errors\.brand_new_code" in es, en, eu$/,
      ),
      expect.stringMatching(/^error code "thing_gone" .* in es, en, eu$/),
      expect.stringMatching(/^error code "thing_locked" .* in en, eu$/),
    ]);
  });
});
