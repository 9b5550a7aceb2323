// The prohibited-list fault switch turns a tenant's check off for everyone. Loopback-only is not enough (any local
// process, any page the developer's browser opens): it needs the admin's token too.
import { beforeAll, describe, expect, it } from 'vitest';
import { apiCall, signIn } from '../testing/oidc';
import { startedServerForFile } from '../testing/signed-in-app';

const started = startedServerForFile({ nodeEnv: 'development' });

const FAULT = '/dev/faults/enforcement';
const switchFault = (on: boolean, token?: string, tenant = 'gambling') =>
  apiCall(started.base, FAULT, tenant, token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ on }),
  });
const faultState = (token: string) => apiCall(started.base, FAULT, 'gambling', token);

describe('POST /api/dev/faults/enforcement', { timeout: 120_000 }, () => {
  let admin: string;
  beforeAll(async () => {
    admin = (await signIn(started.base, 'gambling', 'admin')).access_token;
  }, 120_000);

  it('without a token is 401 and leaves the fault off', async () => {
    const res = await switchFault(true);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('unauthorized');
    expect(await (await faultState(admin)).json()).toEqual({ on: false });
    expect((await apiCall(started.base, FAULT, 'gambling')).status).toBe(401);
  });

  it('with the token of someone who is not the admin is 403, staff included', async () => {
    for (const username of ['user', 'assistant', 'usermanager', 'accountmanager']) {
      const token = (await signIn(started.base, 'gambling', username)).access_token;
      const res = await switchFault(true, token);
      expect(res.status, username).toBe(403);
      expect(((await res.json()) as { code: string }).code, username).toBe('forbidden');
    }
    expect(await (await faultState(admin)).json()).toEqual({ on: false });
  });

  it('with the admin token of another tenant is 403', async () => {
    const demoAdmin = (await signIn(started.base, 'demo', 'admin')).access_token;
    expect((await switchFault(true, demoAdmin)).status).toBe(403);
  });

  it('with the admin token switches the fault on and off', async () => {
    const on = await switchFault(true, admin);
    expect(on.status).toBe(200);
    expect(await on.json()).toEqual({ on: true });
    expect(await (await faultState(admin)).json()).toEqual({ on: true });
    const off = await switchFault(false, admin);
    expect(await off.json()).toEqual({ on: false });
  });
});
