import type {
  AccountProfile,
  CredentialResetRequest,
  CredentialResetResult,
  DeleteAccountBody,
  IamAccount,
  IamAccountPage,
} from '../../contract/api/accounts.ts';
import type { LocaleCode } from '../../contract/api/settings.ts';
import { accountProfile, credentialResetResult, iamAccountList, iamAccountPage } from './answers.ts';
import type { ApiClient, RequestOptions } from './client.ts';

type CallOptions = Pick<RequestOptions, 'signal' | 'silent' | 'handlers' | 'onError' | 'headers'>;

// GET /public/accounts with pageSize, pageIndex, filter (spec §7 "Accounts and users").
export function listAccounts(
  api: ApiClient,
  query: { pageSize: number; pageIndex: number; filter: string },
  options: CallOptions = {},
): Promise<IamAccountPage> {
  const searchParams: Record<string, string | number> = {
    pageSize: query.pageSize,
    pageIndex: query.pageIndex,
  };
  if (query.filter) searchParams.filter = query.filter;
  return api.get('/public/accounts', { ...options, searchParams, schema: iamAccountPage });
}

const accountPath = (accountId: string, rest = '') =>
  `/internal/accounts/${encodeURIComponent(accountId)}${rest}`;

// GET /internal/accounts/{id}/profile: the person's account and user record (UserProfile).
export function getAccountProfile(
  api: ApiClient,
  accountId: string,
  options: CallOptions = {},
): Promise<AccountProfile> {
  return api.get(accountPath(accountId, '/profile'), { ...options, schema: accountProfile });
}

// GET /internal/accounts/{id}/export: everything stored about the person, as one zip ("download my data").
export async function exportAccountData(
  api: ApiClient,
  accountId: string,
  options: CallOptions = {},
): Promise<Blob> {
  const blob = await api.get<Blob>(accountPath(accountId, '/export'), { ...options, responseType: 'blob' });
  // Saved as my-data-….zip: anything but a zip (an error page, a broken answer) is not the person's data.
  if (blob.type && blob.type !== 'application/zip') throw new Error(`not a zip: ${blob.type}`);
  return blob;
}

// PUT /internal/accounts/{userId}/locale with locale (spec §7).
export async function saveAccountLocale(
  api: ApiClient,
  accountId: string,
  locale: LocaleCode,
  options: CallOptions = {},
): Promise<void> {
  await api.put(accountPath(accountId, '/locale'), { ...options, json: { locale }, responseType: 'none' });
}

// DELETE /internal/accounts/{id} with the optional id_number (spec §7, §8 Account cancellation).
export async function deleteAccount(
  api: ApiClient,
  accountId: string,
  body: DeleteAccountBody,
  options: CallOptions = {},
): Promise<void> {
  await api.delete(accountPath(accountId), { ...options, json: body, responseType: 'none' });
}

// POST /public/credential-resets: ask for a credential reset by email (ResetCredentials); no sign-in needed.
export async function requestCredentialReset(
  api: ApiClient,
  body: CredentialResetRequest,
  options: CallOptions = {},
): Promise<void> {
  await api.post('/public/credential-resets', { ...options, json: body, auth: false, responseType: 'none' });
}

// POST /internal/credential-resets/redeem: the mailed link's token; every credential revoked, a new QR issued.
export function redeemCredentialReset(
  api: ApiClient,
  token: string,
  options: CallOptions = {},
): Promise<CredentialResetResult> {
  return api.post('/internal/credential-resets/redeem', {
    ...options,
    json: { token },
    schema: credentialResetResult,
  });
}

// GET /public/credentials/{userId}/sids/{sid} as a PNG image (the QR to show).
export function fetchCredentialQr(
  api: ApiClient,
  userId: string,
  sid: string,
  options: CallOptions = {},
): Promise<Blob> {
  return api.get<Blob>(
    `/public/credentials/${encodeURIComponent(userId)}/sids/${encodeURIComponent(sid)}?format=png`,
    { ...options, responseType: 'blob' },
  );
}

// GET /internal/accounts?email=: the accounts of the tenant with this email (404 when there is none).
export function findAccountsByEmail(
  api: ApiClient,
  email: string,
  options: CallOptions = {},
): Promise<IamAccount[]> {
  return api.get('/internal/accounts', { ...options, searchParams: { email }, schema: iamAccountList });
}
