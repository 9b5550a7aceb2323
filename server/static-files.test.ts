import { describe, expect, it } from 'vitest';
import { decodePath } from './static-files';

describe('decodePath', () => {
  it('decodes ordinary segments', () => {
    expect(decodePath('/tenants/demo/settings.json')).toEqual(['tenants', 'demo', 'settings.json']);
    expect(decodePath('/tenants/demo/T%C3%A9rminos.md')).toEqual(['tenants', 'demo', 'Términos.md']);
    expect(decodePath('/')).toEqual(['']);
  });

  it.each([
    '/tenants/../x',
    '/tenants/./x',
    '/tenants/%2e%2e/x',
    '/tenants/..%2fx',
    '/tenants/a%2Fb',
    '/tenants/a%5cb',
    '/tenants/a\\b',
    '/tenants/a%00b',
    '/tenants/a%0ab',
    '/tenants/%E0%A4%A',
  ])('refuses %s', (path) => {
    expect(decodePath(path)).toBeUndefined();
  });
});
