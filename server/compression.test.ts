import { describe, expect, it } from 'vitest';
import { chooseCoding, isCompressible, parseAcceptEncoding, varyOnAcceptEncoding } from './compression';

describe('chooseCoding (Accept-Encoding, RFC 9110 §12.5.3)', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['deflate', 'identity'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['*;q=0', 'identity'],
    ['gzip;q=0.5', 'gzip'],
    ['gzip;q=0.5, identity', 'identity'],
    ['gzip;q=0.5, identity;q=0.1', 'gzip'],
    ['identity', 'identity'],
    ['br;q=1.5, gzip', 'gzip'],
    ['br;q=abc, gzip;q=0.2, identity;q=0', 'gzip'],
    ['br ; q=0.9 , gzip ; q=0.9', 'br'],
  ] as const)('%j → %s', (header, expected) => {
    expect(chooseCoding(header)).toBe(expected);
  });

  it('chooses only among the codings available for the body', () => {
    expect(chooseCoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(chooseCoding('br', ['gzip'])).toBe('identity');
    expect(chooseCoding('br;q=0, identity;q=0', [])).toBe('identity');
  });

  it('keeps the first mention of a coding', () => {
    expect(parseAcceptEncoding('br;q=0, br')).toEqual(new Map([['br', 0]]));
  });
});

describe('isCompressible', () => {
  it.each([
    'text/html; charset=utf-8',
    'application/json',
    'application/problem+json',
    'text/javascript; charset=utf-8',
    'image/svg+xml',
    'application/manifest+json; charset=utf-8',
  ])('compresses %s', (type) => {
    expect(isCompressible(type)).toBe(true);
  });

  it.each(['image/png', 'image/jpeg', 'application/pdf', 'application/zip', 'font/woff2', '', null])(
    'leaves %s alone',
    (type) => {
      expect(isCompressible(type)).toBe(false);
    },
  );
});

describe('varyOnAcceptEncoding', () => {
  it('adds Accept-Encoding once', () => {
    expect(varyOnAcceptEncoding(null)).toBe('Accept-Encoding');
    expect(varyOnAcceptEncoding('Origin')).toBe('Origin, Accept-Encoding');
    expect(varyOnAcceptEncoding('origin, accept-encoding')).toBe('origin, accept-encoding');
    expect(varyOnAcceptEncoding('*')).toBe('*');
  });
});
