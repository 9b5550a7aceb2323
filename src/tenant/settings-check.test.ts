import { readFileSync } from 'node:fs';
import { type } from 'arktype';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { browserSettings, localeOverrides, tenantSettings } from '../../contract/api/settings';
import { parseBrowsers, parseOverrides, parseSettings } from './settings-check';
import { TenantLoadError } from './tenant-error';

// The hand-written checks must say what the contract's arktype schemas say: both are run on the shipped files
// and on thousands of variants of them (a field removed, or replaced by a value of another kind or just out of
// bounds), and must agree on every one, and on the value they give back.

const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const shipped = {
  gambling: read('public/tenants/gambling/settings.json'),
  demo: read('public/tenants/demo/settings.json'),
};
const browsers = read('public/browsers.json');
const overrides = read('public/tenants/demo/locales/es.json');

const candidates: unknown[] = [
  '',
  'x',
  'gambling',
  'demo',
  'Bad Name',
  '/tenants/x',
  'tenants/x',
  '#0D55FF',
  '#12345',
  'blue',
  'logo.svg',
  'logo.gif',
  'es',
  'fr',
  'Auto',
  'qr',
  'all',
  'home',
  'id_number',
  'any',
  true,
  false,
  0,
  3,
  3650,
  3651,
  -1,
  1.5,
  null,
  [],
  ['es'],
  ['es', 'fr'],
  ['Auto', 'Single'],
  ['qr', 'selfie'],
  [1],
  {},
  { a: 'b' },
  { a: 1 },
];

/** Every path of a JSON value that can be removed or replaced: object keys and array items, at any depth. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...prefix, i], ...pathsOf(v, [...prefix, i])]);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
  }
  return [];
}

function mutate(
  value: unknown,
  path: (string | number)[],
  replacement: { remove: true } | { with: unknown },
) {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if ('remove' in replacement) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else parent[last] = structuredClone(replacement.with);
  return copy;
}

const variants = (base: unknown) =>
  fc
    .tuple(
      fc.constantFrom(...pathsOf(base)),
      fc.oneof(
        fc.constant({ remove: true } as const),
        fc.constantFrom(...candidates).map((v) => ({ with: v })),
      ),
    )
    .map(([path, change]) => mutate(base, path, change));

function handWritten(tenant: string, raw: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseSettings(tenant, raw) };
  } catch (error) {
    if (error instanceof TenantLoadError) return { ok: false };
    throw error;
  }
}

function contract(tenant: string, raw: unknown): { ok: true; value: unknown } | { ok: false } {
  const out = tenantSettings(raw);
  if (out instanceof type.errors || out.tenant !== tenant) return { ok: false };
  return { ok: true, value: out };
}

describe('settings check', () => {
  it('accepts the shipped settings as the contract does, with the same defaults', () => {
    for (const [tenant, raw] of Object.entries(shipped)) {
      expect(handWritten(tenant, raw)).toEqual(contract(tenant, raw));
      const { acsIdSchema: _, ...withoutDefault } = raw;
      expect(handWritten(tenant, withoutDefault)).toEqual(contract(tenant, withoutDefault));
    }
  });

  it('agrees with the contract on every postEnrolmentAction and on titles per language', () => {
    for (const postEnrolmentAction of ['home', 'showQr', 'accreditations', 'landing', 'elsewhere']) {
      const raw = { ...shipped.gambling, postEnrolmentAction };
      expect(handWritten('gambling', raw)).toEqual(contract('gambling', raw));
    }
    expect(handWritten('gambling', shipped.gambling)).toMatchObject({ ok: true });
    for (const titles of [{ en: 'Identity portal' }, { en: '' }, { eu: 3 }, 'Portal', null, []]) {
      const raw = { ...shipped.gambling, titles };
      expect(handWritten('gambling', raw)).toEqual(contract('gambling', raw));
    }
  });

  it('agrees with the contract on every variant of the shipped settings', () => {
    for (const [tenant, raw] of Object.entries(shipped)) {
      fc.assert(
        fc.property(variants(raw), (variant) => {
          expect(handWritten(tenant, variant)).toEqual(contract(tenant, variant));
        }),
        { numRuns: 1500 },
      );
    }
  });

  it('names every problem with its path', () => {
    const broken: Record<string, unknown> = {
      ...shipped.gambling,
      locales: ['es', 'fr'],
      theme: { brandColor: 'blue', logo: 'logo.svg' },
    };
    delete broken.title;
    expect(() => parseSettings('gambling', broken)).toThrow(TenantLoadError);
    try {
      parseSettings('gambling', broken);
    } catch (error) {
      const problem = (error as TenantLoadError).problem;
      const summary = problem.kind === 'invalid-settings' ? problem.summary : '';
      expect(summary.split('\n')).toEqual([
        'title must be present (was undefined)',
        'theme.brandColor must be a string matching /^#[0-9a-fA-F]{6}$/ (was "blue")',
        'locales[1] must be "es" or "en" or "eu" (was "fr")',
      ]);
    }
  });

  it('agrees with the contract on browsers.json and its variants', () => {
    const contractBrowsers = (raw: unknown) => {
      const out = browserSettings(raw ?? {});
      return out instanceof type.errors ? {} : out;
    };
    expect(parseBrowsers(browsers)).toEqual(contractBrowsers(browsers));
    expect(Object.keys(parseBrowsers(browsers)).length).toBeGreaterThan(0);
    fc.assert(
      fc.property(variants(browsers), (variant) => {
        expect(parseBrowsers(variant)).toEqual(contractBrowsers(variant));
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees with the contract on text overrides and their variants', () => {
    const contractOverrides = (raw: unknown) => {
      const out = localeOverrides(raw ?? {});
      return out instanceof type.errors ? {} : out;
    };
    expect(Object.keys(parseOverrides(overrides)).length).toBeGreaterThan(0);
    fc.assert(
      fc.property(variants(overrides), (variant) => {
        expect(parseOverrides(variant)).toEqual(contractOverrides(variant));
      }),
      { numRuns: 500 },
    );
  });
});
