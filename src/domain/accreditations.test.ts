import { describe, expect, it } from 'vitest';
import type { UserCredentials } from '../../contract/api/credentials';
import { postEnrolmentScreen } from '../../contract/domain/enrolment';
import {
  accreditationItems,
  allowedKinds,
  currentQrSid,
  MAX_TIMER_MS,
  msUntilExpiry,
} from './accreditations';
import { toSafeKnowMoreHref } from './safe-link';

type Entry = UserCredentials['credentials'][string];
const entry = (over: Partial<Entry>): Entry => ({
  created_at: '2026-11-01T10:00:00.000Z',
  credential_type: 'qr',
  state: 'active',
  starts_at: '2026-11-01T10:00:00.000Z',
  ends_at: '2026-11-16T10:00:00.000Z',
  valid: true,
  ...over,
});

describe('allowedKinds (credentialTypesWhitelist)', () => {
  it('shows every kind when the whitelist is not set', () => {
    expect(allowedKinds([])).toEqual(['qr', 'face', 'proof']);
  });
  it('maps the portal types to kinds: qr and biometric_qr, embedding, a document type for the proof', () => {
    expect(allowedKinds(['embedding'])).toEqual(['face']);
    expect(allowedKinds(['biometric_qr', 'embedding'])).toEqual(['qr', 'face']);
    expect(allowedKinds(['passport'])).toEqual(['proof']);
    expect(allowedKinds(['id_card', 'qr'])).toEqual(['qr', 'proof']);
  });
});

describe('accreditationItems', () => {
  const credentials = {
    old: entry({ created_at: '2026-10-01T10:00:00.000Z', valid: false, ends_at: '2026-10-16T10:00:00.000Z' }),
    now: entry({}),
    face: entry({ credential_type: 'embedding', ends_at: null }),
    oldFace: entry({ credential_type: 'embedding', ends_at: null, state: 'revoked', valid: false }),
    proof: entry({ credential_type: 'enrolment_proof', ends_at: null }),
  };

  it('orders by kind, valid first; an expired QR is expired; a revoked one is hidden behind a live one', () => {
    const items = accreditationItems(credentials, ['qr', 'face', 'proof']);
    expect(items.map((item) => `${item.sid}:${item.kind}:${item.status}`)).toEqual([
      'now:qr:active',
      'old:qr:expired',
      'face:face:active',
      'proof:proof:active',
    ]);
  });

  it('keeps only the tenant’s kinds, and shows a revoked one when nothing else of its kind is left', () => {
    const items = accreditationItems({ oldFace: credentials.oldFace, now: credentials.now }, ['face']);
    expect(items.map((item) => `${item.sid}:${item.status}`)).toEqual(['oldFace:revoked']);
  });
});

describe('currentQrSid', () => {
  it('is the valid QR, else the newest, else none', () => {
    expect(
      currentQrSid({ a: entry({ valid: false, created_at: '2026-11-02T00:00:00.000Z' }), b: entry({}) }),
    ).toBe('b');
    expect(
      currentQrSid({
        a: entry({ valid: false, created_at: '2026-11-02T00:00:00.000Z' }),
        b: entry({ valid: false, state: 'revoked' }),
      }),
    ).toBe('a');
    expect(currentQrSid({ f: entry({ credential_type: 'embedding', ends_at: null }) })).toBeNull();
  });
});

describe('msUntilExpiry', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');
  it('counts down to the end, never below 0, and caps what setTimeout can hold', () => {
    expect(msUntilExpiry('2026-11-23T10:00:01Z', now)).toBe(1000);
    expect(msUntilExpiry('2026-11-23T09:00:00Z', now)).toBe(0);
    expect(msUntilExpiry('2027-11-23T10:00:00Z', now)).toBe(MAX_TIMER_MS);
    expect(msUntilExpiry(null, now)).toBe(MAX_TIMER_MS);
    expect(msUntilExpiry('not a date', now)).toBe(0);
  });
});

describe('postEnrolmentScreen', () => {
  it('follows the tenant’s postEnrolmentAction; home is the person’s own home', () => {
    expect(postEnrolmentScreen('home', 'MyVisits')).toBe('MyVisits');
    expect(postEnrolmentScreen('showQr', 'MyVisits')).toBe('UserHome');
    expect(postEnrolmentScreen('accreditations', 'UserHome')).toBe('MyAccreditations');
    expect(postEnrolmentScreen('landing', 'UserHome')).toBe('Landing');
  });
});

describe('toSafeKnowMoreHref', () => {
  const origin = 'https://portal.example';
  it('keeps https URLs and same-origin paths', () => {
    expect(toSafeKnowMoreHref('https://www.ordenacionjuego.es/', origin)).toBe(
      'https://www.ordenacionjuego.es/',
    );
    expect(toSafeKnowMoreHref('/tenants/demo/info.html', origin)).toBe('/tenants/demo/info.html');
    expect(toSafeKnowMoreHref('https://portal.example/help', origin)).toBe('https://portal.example/help');
  });
  it('drops http, other schemes, protocol-relative URLs, userinfo and control characters', () => {
    for (const bad of [
      'http://example.com',
      'javascript:alert(1)',
      'data:text/html,hi',
      '//evil.example',
      'https://user:pw@evil.example',
      'https://evil.example/\nx',
      '',
    ]) {
      expect(toSafeKnowMoreHref(bad, origin), bad).toBeNull();
    }
  });
});
