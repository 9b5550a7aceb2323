import type { Session } from '../domain/session';

/**
 * When to renew: 30 s before the access token expires, or a quarter of its lifetime before for short-lived
 * tokens (a 20 s token renews at 15 s), so a renewal never starts before the previous token was usable.
 */
export function renewAt(session: Pick<Session, 'issuedAt' | 'expiresAt'>): number {
  const lifetime = Math.max(0, session.expiresAt - session.issuedAt);
  return session.expiresAt - Math.min(30, lifetime / 4);
}
