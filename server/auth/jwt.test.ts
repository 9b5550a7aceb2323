import { generateKeyPairSync, sign } from 'node:crypto';
import { exportJWK, type JWK, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { importRs256Keys, JwtInvalid, type Rs256Keys, verifyRs256 } from './jwt';

const ISSUER = 'http://localhost:8080/auth/realms/gambling';
const AUDIENCE = 'urn:identity-portal:api';
const NOW = 1_800_000_000;
const expectations = { issuer: ISSUER, audience: AUDIENCE, now: NOW };

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const ours = pair();
const other = pair();
let jwk: JWK;
let keys: Rs256Keys;

beforeAll(async () => {
  jwk = { ...(await exportJWK(ours.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  keys = importRs256Keys([jwk, { kty: 'EC', kid: 'ec', crv: 'P-256', x: 'x', y: 'y' }]);
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact RS256 JWS signed by hand, so that any header or claim can be made wrong. */
function token(
  claims: Record<string, unknown> = {},
  header: Record<string, unknown> = { alg: 'RS256', kid: 'k1' },
  key = ours.privateKey,
): string {
  const payload = {
    iss: ISSUER,
    aud: AUDIENCE,
    iat: NOW - 10,
    exp: NOW + 300,
    tenant: 'gambling',
    ...claims,
  };
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

describe('verifyRs256', () => {
  it('returns the payload of a token signed with the tenant’s key', async () => {
    expect(verifyRs256(token(), keys, expectations)).toMatchObject({ iss: ISSUER, tenant: 'gambling' });
    // A tenant with a single key: a token without kid means that key.
    const single = importRs256Keys([jwk]);
    expect(verifyRs256(token({}, { alg: 'RS256' }), single, expectations)).toMatchObject({
      iss: ISSUER,
    });
  });

  it('accepts the audience in a list', async () => {
    const listed = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(['other', AUDIENCE])
      .setExpirationTime(NOW + 60)
      .sign(ours.privateKey);
    expect(verifyRs256(listed, keys, expectations).aud).toEqual(['other', AUDIENCE]);
  });

  it.each([
    ['another key', () => token({}, { alg: 'RS256', kid: 'k1' }, other.privateKey)],
    ['an unknown kid', () => token({}, { alg: 'RS256', kid: 'k2' })],
    ['another issuer', () => token({ iss: 'http://evil.example/auth/realms/gambling' })],
    ['another audience', () => token({ aud: 'urn:other' })],
    ['an expiry now', () => token({ exp: NOW })],
    ['no expiry', () => token({ exp: undefined })],
    ['a start in the future', () => token({ nbf: NOW + 60 })],
    ['a crit header', () => token({}, { alg: 'RS256', kid: 'k1', crit: ['exp'], exp: 1 })],
    ['a text iat', () => token({ iat: 'yesterday' })],
  ])('refuses a token with %s', (_name, make) => {
    expect(() => verifyRs256(make(), keys, expectations)).toThrow(JwtInvalid);
  });

  it('refuses alg none, HS256 with the public key as secret, and a tampered payload', async () => {
    const payload = b64({ iss: ISSUER, aud: AUDIENCE, exp: NOW + 60 });
    expect(() => verifyRs256(`${b64({ alg: 'none' })}.${payload}.`, keys, expectations)).toThrow(JwtInvalid);
    const hs = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime(NOW + 60)
      .sign(new TextEncoder().encode(JSON.stringify(jwk)));
    expect(() => verifyRs256(hs, keys, expectations)).toThrow(JwtInvalid);
    const [head, , signature] = token().split('.');
    const tampered = `${head}.${b64({ iss: ISSUER, aud: AUDIENCE, exp: NOW + 60, roles: ['admin'] })}.${signature}`;
    expect(() => verifyRs256(tampered, keys, expectations)).toThrow(JwtInvalid);
  });

  it.each([
    '',
    'a.b',
    'a.b.c.d',
    '!!.e30.AA',
    `${b64({ alg: 'RS256', kid: 'k1' })}.bm90IGpzb24.AA`,
    `${b64([1])}.e30.AA`,
  ])('refuses the malformed %j', (value) => {
    expect(() => verifyRs256(value, keys, expectations)).toThrow(JwtInvalid);
  });
});
