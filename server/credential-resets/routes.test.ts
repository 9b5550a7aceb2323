import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { App } from '../app';
import { headersOf } from '../onboarding/testing/harness';
import { enrolledPerson, ownerOf, problem } from '../testing/enrolled-person';
import { signedInAppForFile } from '../testing/signed-in-app';
import { mailThrottle } from './store';

// Credential reset through the real app, with the fake auth of the onboarding harness: the mail of a known origin,
// the throttle shared by every process on the database, and redeeming the link once as the same person. Each test
// uses a person of its own.

const portal = signedInAppForFile({ origins: 'default' });
const call = portal.call;

describe('credential reset', () => {
  const mails = async (recipient: string) =>
    (
      await portal.db.query<{ link: string; subject: string }>(
        'select link, subject from outbox where lower(recipient) = lower($1) order by created_at',
        [recipient],
      )
    ).rows;
  const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';

  it('answers the same whether or not the email exists, and mails a link of a known origin', async () => {
    const who = await enrolledPerson(portal.db);
    const known = await call('POST', '/public/credential-resets', undefined, {
      email: who.email.toUpperCase(),
      locale: 'en',
    });
    const unknown = await call('POST', '/public/credential-resets', undefined, {
      email: 'nobody@example.test',
    });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(await known.json()).toEqual(await unknown.json());
    const sent = await mails(who.email);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.subject).toBe('Reset your credentials');
    expect(sent[0]?.link).toMatch(/^http:\/\/localhost:8080\/reset-credentials\?token=[\w-]{40,}$/);
    expect(await mails('nobody@example.test')).toHaveLength(0);
  });

  it('never builds the link from the Host header', async () => {
    const who = await enrolledPerson(portal.db, 'demo');
    const res = await portal.app.request('/api/public/credential-resets', {
      method: 'POST',
      headers: { 'tenant-id': 'demo', host: 'evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ email: who.email }),
    });
    expect(res.status).toBe(202);
    expect((await mails(who.email))[0]?.link).toMatch(
      /^http:\/\/demo\.localhost:8080\/reset-credentials\?token=/,
    );
  });

  it('is throttled per address: beyond three mails the answer is the same and nothing is sent', async () => {
    const who = await enrolledPerson(portal.db);
    for (let i = 0; i < 5; i++) {
      expect((await call('POST', '/public/credential-resets', undefined, { email: who.email })).status).toBe(
        202,
      );
    }
    expect(await mails(who.email)).toHaveLength(3);
  });

  it('counts mails in the database: two app instances on one database share the limit', async () => {
    // A second server process over the same database: the mails sent through either count for both.
    const second = portal.another();
    const who = await enrolledPerson(portal.db);
    const ask = (through: App) =>
      through.request('/api/public/credential-resets', {
        method: 'POST',
        headers: { ...headersOf(undefined), 'content-type': 'application/json' },
        body: JSON.stringify({ email: who.email }),
      });
    for (const through of [portal.app, second, portal.app, second, portal.app])
      expect((await ask(through)).status).toBe(202);
    expect(await mails(who.email)).toHaveLength(3);
    const { rows } = await portal.db.query<{ n: number }>(
      "select count(*)::int as n from mail_throttle where tenant = 'gambling' and key = $1",
      [`reset|address|${who.email}`],
    );
    expect(rows[0]?.n).toBe(3);
  });

  it('limits a tenant across processes and forgets mails older than the window', async () => {
    let at = new Date('2030-01-01T10:00:00Z');
    const options = { perAddress: 3, perTenant: 2, windowMs: 30 * 60_000, now: () => at };
    const first = mailThrottle(options);
    const second = mailThrottle(options);
    const tenant = `throttle-${randomUUID()}`;
    const send = (throttle: typeof first, email: string) =>
      portal.db.transaction((tx) => throttle(tx, tenant, email));
    expect(await send(first, 'a@x.test')).toBe(true);
    expect(await send(second, 'b@x.test')).toBe(true);
    expect(await send(first, 'c@x.test')).toBe(false);
    expect(await send(second, 'd@x.test')).toBe(false);
    // Another tenant has its own count.
    expect(await portal.db.transaction((tx) => first(tx, `${tenant}-other`, 'a@x.test'))).toBe(true);
    at = new Date(at.getTime() + 30 * 60_000 + 1);
    expect(await send(second, 'c@x.test')).toBe(true);
  });

  it('redeems once for the same person: every credential revoked, a new 15-day QR', async () => {
    const who = await enrolledPerson(portal.db);
    await call('POST', '/public/credential-resets', undefined, { email: who.email });
    const token = tokenOf((await mails(who.email))[0]?.link ?? '');
    const other = await enrolledPerson(portal.db);
    await problem(
      await call('POST', '/internal/credential-resets/redeem', ownerOf(other), { token }),
      404,
      'reset_link_not_found',
    );
    await problem(
      await call('POST', '/internal/credential-resets/redeem', ownerOf(who), { token: 'x'.repeat(43) }),
      404,
      'reset_link_not_found',
    );
    const res = await call('POST', '/internal/credential-resets/redeem', ownerOf(who), { token });
    expect(res.status).toBe(200);
    const redeemed = (await res.json()) as {
      sid: string;
      starts_at: string;
      ends_at: string;
      revoked: number;
    };
    expect(redeemed.revoked).toBe(1);
    expect(redeemed.sid).not.toBe(who.sid);
    const days = (Date.parse(redeemed.ends_at) - Date.parse(redeemed.starts_at)) / 86_400_000;
    expect(days).toBe(15);
    const old = await call('GET', `/public/credentials/${who.userId}/sids/${who.sid}`, ownerOf(who));
    expect(await old.json()).toMatchObject({ state: 'revoked', valid: false });
    const fresh = await call('GET', `/public/credentials/${who.userId}/sids/${redeemed.sid}`, ownerOf(who));
    expect(await fresh.json()).toMatchObject({ state: 'active', valid: true });
    await problem(
      await call('POST', '/internal/credential-resets/redeem', ownerOf(who), { token }),
      409,
      'reset_link_used',
    );
  });

  it('refuses an expired link with 410', async () => {
    const who = await enrolledPerson(portal.db);
    await call('POST', '/public/credential-resets', undefined, { email: who.email });
    const token = tokenOf((await mails(who.email))[0]?.link ?? '');
    await portal.db.query(
      "update credential_resets set expires_at = now() - interval '1 second' where account_id = $1",
      [who.accountId],
    );
    await problem(
      await call('POST', '/internal/credential-resets/redeem', ownerOf(who), { token }),
      410,
      'reset_link_expired',
    );
  });
});
