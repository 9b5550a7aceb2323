// @vitest-environment jsdom
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toSafeSameOriginPath } from './safe-link.ts';

const ORIGIN = 'https://portal.example.com';

describe('toSafeSameOriginPath: accepted', () => {
  it.each([
    ['/', '/'],
    ['/visits', '/visits'],
    ['/a/b?c=1#d', '/a/b?c=1#d'],
    ['/a/../b', '/b'],
    ['/onboarding/%C3%B1', '/onboarding/%C3%B1'],
    ['/x?next=//evil.com', '/x?next=//evil.com'],
    ['https://portal.example.com/a?x=1#h', '/a?x=1#h'],
    ['HTTPS://PORTAL.EXAMPLE.COM/a', '/a'],
    ['https://portal.example.com:443/a', '/a'],
    ['https://portal.example.com', '/'],
  ])('%j → %j', (uri, expected) => {
    expect(toSafeSameOriginPath(uri, undefined, ORIGIN)).toBe(expected);
  });

  it('appends query params, encoded', () => {
    expect(toSafeSameOriginPath('/a', { step: '2', q: 'x y&z' }, ORIGIN)).toBe('/a?step=2&q=x+y%26z');
    expect(toSafeSameOriginPath('/a?x=1#top', { y: '2' }, ORIGIN)).toBe('/a?x=1&y=2#top');
    // A hostile query value stays a value: the path does not change.
    expect(toSafeSameOriginPath('/a', { next: '//evil.com', '/': '\\' }, ORIGIN)).toBe(
      '/a?next=%2F%2Fevil.com&%2F=%5C',
    );
  });

  it('defaults to location.origin', () => {
    expect(location.origin).toBe('http://localhost:3000');
    expect(toSafeSameOriginPath('http://localhost:3000/home')).toBe('/home');
    expect(toSafeSameOriginPath(`${ORIGIN}/home`)).toBeNull();
  });
});

describe('toSafeSameOriginPath: rejected', () => {
  it.each([
    // other hosts and protocol-relative
    'https://evil.com',
    'http://evil.com/portal.example.com',
    'https://portal.example.com.evil.com/',
    'http://portal.example.com/',
    'https://portal.example.com:8443/',
    '//evil.com',
    '///evil.com',
    '//portal.example.com/a',
    // backslashes, raw or as separators
    '/\\evil.com',
    '\\\\evil.com',
    '\\/evil.com',
    '/a\\b',
    'https:\\\\evil.com',
    // schemes
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'javascript://portal.example.com/%0aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'blob:https://portal.example.com/0b1c',
    'file:///etc/passwd',
    'mailto:a@b.c',
    'ftp://portal.example.com/',
    'wss://portal.example.com/',
    'https:evil.com',
    'https:/evil.com',
    'https:/portal.example.com/a',
    // whitespace and control characters (browsers strip tabs/newlines)
    '/\t/evil.com',
    '/\n/evil.com',
    '/\r/evil.com',
    'java\nscript:alert(1)',
    'java\tscript:alert(1)',
    ' /a',
    '/a ',
    ' javascript:alert(1)',
    '\u0000/a',
    '/a\u0000',
    '\u007f/a',
    '/\u0085/evil.com',
    '\u00a0/a',
    '/\u2028/evil.com',
    '\ufeff//evil.com',
    // encoded tricks
    '/%2F%2Fevil.com',
    '/%2f/evil.com',
    '/%5Cevil.com',
    '/%5c%5cevil.com',
    '/%09/evil.com',
    '/%E0%A4%A',
    '/.//evil.com',
    '/..//evil.com',
    '/./%2F/evil.com',
    'https://portal.example.com//evil.com',
    'https://portal.example.com/.//evil.com',
    'https://evil%2Ecom/',
    // userinfo tricks
    'https://portal.example.com@evil.com',
    'https://portal.example.com:443@evil.com/',
    'https://evil.com@portal.example.com/',
    'https://user:pass@portal.example.com/',
    'https://:x@portal.example.com/',
    // not a path
    '',
    'visits',
    '../../contract/domain/visits',
    '../visits',
    '?x=1',
    '#top',
    '.',
  ])('%j', (uri) => {
    expect(toSafeSameOriginPath(uri, undefined, ORIGIN)).toBeNull();
    expect(toSafeSameOriginPath(uri, { a: '1' }, ORIGIN)).toBeNull();
  });

  it('rejects non-string input and unusable origins', () => {
    expect(toSafeSameOriginPath(42 as unknown as string, undefined, ORIGIN)).toBeNull();
    expect(toSafeSameOriginPath('/a', undefined, 'not a url')).toBeNull();
    expect(toSafeSameOriginPath('/a', undefined, 'file:///tmp/x')).toBeNull();
    expect(toSafeSameOriginPath('/a', undefined, 'null')).toBeNull();
  });
});

describe('toSafeSameOriginPath: property', () => {
  const isSafe = (result: string | null, origin: string) =>
    result === null ||
    (result.startsWith('/') &&
      !result.startsWith('//') &&
      !result.includes('\\') &&
      new URL(result, origin).origin === origin);

  // Pieces attackers combine; joined at random they cover far more than a fixed list.
  const fragment = fc.constantFrom(
    '/',
    '//',
    '\\',
    '.',
    '..',
    '@',
    ':',
    '?',
    '#',
    '%',
    '%2F',
    '%2f',
    '%5C',
    '%2E',
    '%00',
    '%0A',
    '\t',
    '\n',
    '\r',
    ' ',
    '\u0000',
    '\u00a0',
    '\u2028',
    'http:',
    'https:',
    'HTTPS:',
    'javascript:',
    'data:',
    'blob:',
    'file:',
    'evil.com',
    'portal.example.com',
    'https://portal.example.com',
    'http://localhost:3000',
    'localhost:3000',
    'user:pass',
    'a',
  );
  const hostile = fc.array(fragment, { maxLength: 8 }).map((parts) => parts.join(''));
  const anyString = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'grapheme' }),
    hostile,
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.webPath().map((p) => `/${p}`),
  );
  const query = fc.option(fc.dictionary(fc.string(), fc.string({ unit: 'binary' })), { nil: undefined });

  it.each([ORIGIN, 'http://localhost:3000', 'http://127.0.0.1:8080'])(
    'for any input, the result is null or a path that stays on %s',
    (origin) => {
      fc.assert(
        fc.property(anyString, query, (uri, params) => {
          const result = toSafeSameOriginPath(uri, params, origin);
          expect(isSafe(result, origin)).toBe(true);
          // What comes out is stable: checking it again accepts it unchanged.
          if (result !== null) expect(toSafeSameOriginPath(result, undefined, origin)).toBe(result);
        }),
        { numRuns: 3000 },
      );
    },
  );

  it('accepts every plain app path unchanged (it does not over-reject)', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_~-]{1,12}$/);
    const search = fc.option(fc.stringMatching(/^\?[A-Za-z0-9=&_-]{1,20}$/), { nil: '' });
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), search, (segments, query) => {
        const uri = `/${segments.join('/')}${query}`;
        expect(toSafeSameOriginPath(uri, undefined, ORIGIN)).toBe(uri);
      }),
    );
  });
});
