import { describe, expect, it } from 'vitest';
import { page, readTheme } from './pages';

// The identity provider's pages name the tenant by its title in the page's language (settings `titles`), the plain
// `title` where the tenant has none for that language.
describe('the tenant title on the login pages', () => {
  it('is the one of the page language, else the plain title', () => {
    const gambling = readTheme('public', 'gambling');
    expect(gambling.titles).toEqual({
      es: 'Portal de identidad',
      en: 'Identity portal',
      eu: 'Nortasun ataria',
    });
    const en = page({ theme: gambling, lang: 'en', title: 'Sign in', body: '' });
    expect(en).toContain('<title>Sign in · Identity portal</title>');
    const eu = page({ theme: gambling, lang: 'eu', title: 'Sartu', body: '' });
    expect(eu).toContain('<title>Sartu · Nortasun ataria</title>');
    const demo = readTheme('public', 'demo');
    expect(demo.titles).toEqual({});
    expect(page({ theme: demo, lang: 'en', title: 'Sign in', body: '' })).toContain('· Demo Access</title>');
  });
});
