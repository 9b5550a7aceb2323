// @vitest-environment jsdom
import { type } from 'arktype';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accessTokenClaims } from '../../contract/api/access-token';
import { unsignedJwt } from '../../tests/support/unsigned-jwt';
import { readClaims, readStoredUser, renewAt, sessionFromAccessToken } from './token';

const now = () => Math.floor(Date.now() / 1000);
const claims = {
  iss: 'http://localhost/auth/realms/gambling',
  sub: 'u-1',
  iat: now(),
  exp: now() + 300,
  tenant: 'gambling',
  roles: ['post_visits_me', 'post_onboardings_auto'],
  email: 'visitor@gambling.example',
  name: 'Ane Etxeberria',
  preferred_username: 'visitor',
  acs_id: 'acs-9',
  enrolled: true,
  claims: null,
};

describe('sessionFromAccessToken', () => {
  it('reads the session values of spec §3 from the claims', () => {
    const session = sessionFromAccessToken(unsignedJwt(claims));
    expect(session).toMatchObject({
      userId: 'u-1',
      userName: 'visitor',
      email: 'visitor@gambling.example',
      enrolled: true,
      acsId: 'acs-9',
      userType: 'visitor',
      firstName: 'Ane',
      name: 'Ane Etxeberria',
      claims: null,
    });
  });

  it('refuses a token that is not a JWT or whose claims break the contract', () => {
    expect(() => sessionFromAccessToken('opaque')).toThrow(/not a JWT/);
    expect(() => sessionFromAccessToken(unsignedJwt({ ...claims, roles: 'admin' }))).toThrow(/roles/);
  });
});

describe('readClaims', () => {
  // The hand-written check must say what the contract's arktype schema says.
  const agrees = (payload: unknown) => {
    const contract = accessTokenClaims(payload);
    let mine: unknown;
    try {
      mine = readClaims(payload);
    } catch {
      mine = 'refused';
    }
    expect(mine).toEqual(contract instanceof type.errors ? 'refused' : contract);
  };
  const values = ['', 'x', 0, 12.5, -1, true, false, null, [], ['a'], [1], {}, { a: 1 }];

  it('agrees with the contract when any claim is missing or of another kind', () => {
    const { iat: _, ...withoutIat } = claims;
    agrees(claims);
    agrees(withoutIat);
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(claims), 'location', 'locale'),
        fc.option(fc.constantFrom(...values), { nil: undefined }),
        (key, value) => {
          const variant: Record<string, unknown> = { ...claims };
          if (value === undefined) delete variant[key];
          else variant[key] = value;
          agrees(variant);
        },
      ),
      { numRuns: 500 },
    );
    for (const payload of [null, 'token', [], 42]) agrees(payload);
  });
});

describe('renewAt', () => {
  it('renews 30 s before expiry, or a quarter of the lifetime before for short tokens', () => {
    expect(renewAt({ issuedAt: 1000, expiresAt: 1300 })).toBe(1270);
    expect(renewAt({ issuedAt: 1000, expiresAt: 1020 })).toBe(1015);
  });
});

describe('readStoredUser', () => {
  const key = 'oidc.user:x';
  it('reads a stored user, telling whether its token must be renewed first', () => {
    localStorage.setItem(key, JSON.stringify({ access_token: unsignedJwt(claims), expires_at: now() + 300 }));
    expect(readStoredUser(localStorage, key)).toMatchObject({ expired: false, session: { userId: 'u-1' } });
    const dueSoon = unsignedJwt({ ...claims, iat: now() - 290, exp: now() + 10 });
    localStorage.setItem(key, JSON.stringify({ access_token: dueSoon, expires_at: now() + 10 }));
    expect(readStoredUser(localStorage, key).expired).toBe(true);
  });

  it('treats no record as no session and drops one it cannot read', () => {
    localStorage.removeItem(key);
    expect(readStoredUser(localStorage, key)).toEqual({ session: null, expired: false });
    localStorage.setItem(key, '{not json');
    expect(readStoredUser(localStorage, key)).toEqual({ session: null, expired: false });
    expect(localStorage.getItem(key)).toBeNull();
  });
});

describe('brokered identity claims', () => {
  it('come with the stored user, so home routing and enrolment data see them after a reload', () => {
    const storage = window.localStorage;
    const key = 'oidc.user:http://localhost/auth/realms/gambling:portal';
    storage.setItem(key, JSON.stringify({ access_token: unsignedJwt(claims) }));
    expect(readStoredUser(storage, key).session?.claims).toBeNull();
    storage.setItem(`${key}:broker`, JSON.stringify({ given_name: 'Ane', birthdate: '1990-04-01' }));
    expect(readStoredUser(storage, key).session?.claims).toEqual({
      given_name: 'Ane',
      birthdate: '1990-04-01',
    });
    storage.setItem(`${key}:broker`, 'not json');
    expect(readStoredUser(storage, key).session?.claims).toBeNull();
    storage.clear();
  });
});
