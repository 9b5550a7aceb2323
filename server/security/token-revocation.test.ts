// An access token dies with its grant. Reusing an authorization code makes oidc-provider revoke the grant (RFC 6749
// §4.1.2: the code may have been stolen); the access token of the first exchange must stop working on the API too,
// not only the refresh token.
import { describe, expect, it } from 'vitest';
import { GRANT_CHECK_CACHE_MS } from '../auth/verify';
import { apiCall, authorize, exchangeCode, signIn, type Tokens } from '../testing/oidc';
import { startedServerForFile } from '../testing/signed-in-app';

const started = startedServerForFile({}, 120_000);

const me = (token: string) =>
  apiCall(started.base, '/internal/accounts?email=user@gambling.example', 'gambling', token);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('access tokens of a revoked grant', { timeout: 120_000 }, () => {
  it('a reused authorization code ends the first exchange’s access token on the API', async () => {
    const code = await authorize(started.base, 'gambling', 'accountmanager');
    const first = await exchangeCode(started.base, 'gambling', code);
    expect(first.status).toBe(200);
    const tokens = (await first.json()) as Tokens;
    expect((await me(tokens.access_token)).status).toBe(200);

    const reused = await exchangeCode(started.base, 'gambling', code);
    expect(reused.status).toBe(400);
    expect(((await reused.json()) as { error: string }).error).toBe('invalid_grant');

    // The API may believe the grant alive for GRANT_CHECK_CACHE_MS after it last looked.
    await sleep(GRANT_CHECK_CACHE_MS + 100);
    const refused = await me(tokens.access_token);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe('unauthorized');
  });

  it('a token never seen before is refused at once once its grant is gone', async () => {
    const code = await authorize(started.base, 'gambling', 'accountmanager');
    const tokens = (await (await exchangeCode(started.base, 'gambling', code)).json()) as Tokens;
    expect((await exchangeCode(started.base, 'gambling', code)).status).toBe(400);
    expect((await me(tokens.access_token)).status).toBe(401);
  });

  it('another sign-in of the same person keeps working', async () => {
    const tokens = await signIn(started.base, 'gambling', 'accountmanager');
    expect((await me(tokens.access_token)).status).toBe(200);
  });
});
