// /broker/{provider}/token, Keycloak's: the token an external identity provider gave the account.
import type { createTokenVerifier } from '../verify';
import { methodNotAllowed, type RealmRequest, sendProblem } from './realm';

export async function brokerToken(
  r: RealmRequest,
  providerName: string,
  verify: ReturnType<typeof createTokenVerifier>,
): Promise<void> {
  const { req, res, tenant } = r;
  if (req.method !== 'GET') {
    methodNotAllowed(res);
    return;
  }
  try {
    const claims = await verify(req.headers.authorization);
    if (claims.tenant !== tenant) throw new Error('other tenant');
  } catch {
    sendProblem(res, 401, 'A valid bearer token of this realm is required.', 'unauthorized');
    return;
  }
  // The development provider brokers no external identity providers: no account is linked to one.
  sendProblem(res, 400, `The account is not linked to the identity provider ${providerName}.`, 'not_linked');
}
