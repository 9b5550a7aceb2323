// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { Session } from '../auth/access';
import { afterSignInPath, isPublicPath, keptNotice } from './runtime';

const staff = {
  roles: ['get_users_all'],
  enrolled: false,
  claims: null,
  userType: 'staff',
} as unknown as Session;

describe('afterSignInPath', () => {
  it('returns to a screen the person may see', () => {
    expect(afterSignInPath(staff, '/users', 'gambling')).toBe('/users');
  });

  it('goes home instead of to a screen the person may not see, the root or the callback', () => {
    expect(afterSignInPath(staff, '/audit-accesses', 'gambling')).toBe('/portal-management');
    expect(afterSignInPath(staff, '/', 'gambling')).toBe('/portal-management');
    expect(afterSignInPath(staff, '/callback?code=x', 'gambling')).toBe('/portal-management');
    expect(afterSignInPath(staff, null, 'gambling')).toBe('/portal-management');
  });

  it.each(['https://evil.example/users', '//evil.example/users', 'javascript:alert(1)', '/\\evil.example'])(
    'never leaves the portal for %s',
    (returnTo) => {
      expect(afterSignInPath(staff, returnTo, 'gambling')).toBe('/portal-management');
    },
  );
});

describe('isPublicPath', () => {
  it('knows the public routes of spec §2', () => {
    expect(isPublicPath('/')).toBe(true);
    expect(isPublicPath('/callback')).toBe(true);
    expect(isPublicPath('/finish-register-error/underage')).toBe(true);
    expect(isPublicPath('/users')).toBe(false);
    expect(isPublicPath('/user-detail/42')).toBe(false);
    expect(isPublicPath('/nowhere')).toBe(true);
  });
});

describe('keptNotice', () => {
  it('hands a notice kept before a page leaves to the next page once', () => {
    keptNotice.keep('session.expired');
    expect(keptNotice.take()).toBe('session.expired');
    expect(keptNotice.take()).toBeNull();
  });

  it('is not taken by a screen shown while the page is still leaving for the sign-out', () => {
    keptNotice.keep('session.expired');
    expect(keptNotice.take({ leaving: true })).toBeNull();
    expect(keptNotice.take()).toBe('session.expired');
  });
});
