import { describe, expect, it } from 'vitest';
import type { Session } from './access';
import { paintCookie, paintCookieKeeper } from './paint-cookie';

const session = (accessToken: string, expiresAt = 1_000_300): Session =>
  ({ accessToken, expiresAt }) as Session;

describe('the cookie by which the server paints a data screen with the person’s data', () => {
  it('holds the access token for as long as the token lives, for this site alone', () => {
    expect(paintCookie(session('a.b.c'), { secure: false, now: 1_000_000 })).toBe(
      'portal_paint=a.b.c; Path=/; SameSite=Strict; Max-Age=300',
    );
    expect(paintCookie(session('a.b.c'), { secure: true, now: 1_000_000 })).toContain('; Secure');
  });

  it('is removed with the session, and never holds a token past its end, too long or not a token', () => {
    const removed = 'portal_paint=; Path=/; SameSite=Strict; Max-Age=0';
    expect(paintCookie(null, { secure: false, now: 1 })).toBe(removed);
    expect(paintCookie(session('a.b.c', 10), { secure: false, now: 10 })).toBe(removed);
    expect(paintCookie(session('x'.repeat(4000)), { secure: false, now: 1_000_000 })).toBe(removed);
    expect(paintCookie(session('a.b.c; Path=/x'), { secure: false, now: 1_000_000 })).toBe(removed);
  });

  it('is written when the token changes only, and not for a brokered identity', () => {
    const written: string[] = [];
    const doc = {
      location: { protocol: 'http:' },
      set cookie(value: string) {
        written.push(value);
      },
      get cookie() {
        return '';
      },
    };
    const keep = paintCookieKeeper(doc);
    const now = Math.floor(Date.now() / 1000);
    keep(session('a.b.c', now + 300), false);
    keep(session('a.b.c', now + 300), false);
    keep(session('d.e.f', now + 300), false);
    keep(session('d.e.f', now + 300), true);
    keep(null, false);
    expect(written.map((value) => value.split(';')[0])).toEqual([
      'portal_paint=a.b.c',
      'portal_paint=d.e.f',
      'portal_paint=',
    ]);
  });
});
