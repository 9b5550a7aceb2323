// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { keepLocaleCookie, localeCookie, readStoredLocale, storeLocale } from './locale';

/** A document's cookie jar as a browser keeps it: each write sets or removes one cookie. */
function jar(protocol = 'http:') {
  const cookies = new Map<string, string>();
  return {
    location: { protocol },
    written: [] as string[],
    get cookie() {
      return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    set cookie(value: string) {
      this.written.push(value);
      const [pair = ''] = value.split(';');
      const [name = '', ...rest] = pair.split('=');
      cookies.set(name, rest.join('='));
    },
  };
}

describe('stored locale', () => {
  it("falls back to the cookie's language when the storage holds none, as the server painted the page in it", () => {
    localStorage.removeItem('portal.locale');
    const cookies = jar();
    cookies.cookie = 'other=1';
    cookies.cookie = 'portal_locale=eu';
    expect(readStoredLocale(localStorage, cookies)).toBe('eu');
    localStorage.setItem('portal.locale', 'en');
    expect(readStoredLocale(localStorage, cookies)).toBe('en');
    localStorage.removeItem('portal.locale');
    expect(readStoredLocale(localStorage, jar())).toBeNull();
  });

  it('survives between reads, and goes to the server in its cookie', () => {
    const cookies = jar();
    storeLocale('eu', localStorage, cookies);
    expect(readStoredLocale(localStorage, cookies)).toBe('eu');
    expect(cookies.cookie).toBe('portal_locale=eu');
    expect(cookies.written).toEqual(['portal_locale=eu; Path=/; Max-Age=31536000; SameSite=Lax']);
    expect(localeCookie('en', { secure: true })).toBe(
      'portal_locale=en; Path=/; Max-Age=31536000; SameSite=Lax; Secure',
    );
  });

  it('writes the cookie at start for a language stored without one, once, and never for an unknown one', () => {
    localStorage.setItem('portal.locale', 'en');
    const cookies = jar('https:');
    keepLocaleCookie(localStorage, cookies);
    keepLocaleCookie(localStorage, cookies);
    expect(cookies.written).toEqual(['portal_locale=en; Path=/; Max-Age=31536000; SameSite=Lax; Secure']);
    localStorage.setItem('portal.locale', 'fr');
    const none = jar();
    keepLocaleCookie(localStorage, none);
    expect(none.written).toEqual([]);
  });
});
