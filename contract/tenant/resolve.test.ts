import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TENANT, tenantFromHost } from './resolve';

const label = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/);
const domain = fc
  .array(fc.stringMatching(/^[a-z0-9]{1,10}$/), { minLength: 1, maxLength: 3 })
  .map((p) => p.join('.'));

describe('tenantFromHost', () => {
  it('uses the default tenant for local development hosts and the app label', () => {
    for (const host of [
      'localhost',
      '127.0.0.1',
      '10.0.0.7',
      '::1',
      '[::1]',
      'app.example.com',
      'APP.localhost',
    ]) {
      expect(tenantFromHost(host)).toEqual({ kind: 'tenant', tenant: DEFAULT_TENANT });
    }
  });

  it('takes the first label of any other host, lower-cased', () => {
    expect(tenantFromHost('demo.localhost')).toEqual({ kind: 'tenant', tenant: 'demo' });
    expect(tenantFromHost('Demo.Portal.Example.com')).toEqual({ kind: 'tenant', tenant: 'demo' });
  });

  it('property: a valid first label names the tenant, whatever the rest of the host', () => {
    fc.assert(
      fc.property(label, domain, (first, rest) => {
        fc.pre(first !== 'app');
        expect(tenantFromHost(`${first}.${rest}`)).toEqual({ kind: 'tenant', tenant: first });
      }),
    );
  });

  it('property: any IPv4 address is a development host', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(tenantFromHost(ip)).toEqual({ kind: 'tenant', tenant: DEFAULT_TENANT });
      }),
    );
  });

  it('property: the result is always the default, a safe label, or an invalid label that is reported', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (host) => {
        const result = tenantFromHost(host);
        if (result.kind === 'tenant') expect(result.tenant).toMatch(/^[a-z0-9-]+$/);
        else expect(result.label).not.toMatch(/^[a-z0-9-]+$/);
      }),
    );
  });

  it('reports labels with characters outside [a-z0-9-]', () => {
    expect(tenantFromHost('bad_label.example.com')).toEqual({ kind: 'invalid', label: 'bad_label' });
    expect(tenantFromHost('xn--caf.example.com')).toEqual({ kind: 'tenant', tenant: 'xn--caf' });
    expect(tenantFromHost('%2e%2e.example.com')).toEqual({ kind: 'invalid', label: '%2e%2e' });
  });
});
