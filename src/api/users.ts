import type {
  ActivationBody,
  ActivationResult,
  BulkResult,
  EvidenceKind,
  UserDetail,
  UserPage,
} from '../../contract/api/users.ts';
import { activationAnswer, activationResult, bulkResult, userDetail, userPage } from './answers.ts';
import type { ApiClient, RequestOptions } from './client.ts';

type CallOptions = Pick<RequestOptions, 'signal' | 'silent'>;

export interface UserQuery {
  pageSize: number;
  pageIndex: number;
  /** Sent wrapped in quotes (spec §5). */
  filter?: string;
  idNumber?: string;
  orderby?: string;
  sorted?: 'asc' | 'desc';
}

// GET /public/users (spec §7 Accounts and users).
export function listUsers(api: ApiClient, query: UserQuery, options: CallOptions = {}): Promise<UserPage> {
  const searchParams: Record<string, string | number> = {
    pageSize: query.pageSize,
    pageIndex: query.pageIndex,
  };
  if (query.filter) searchParams.filter = `"${query.filter}"`;
  if (query.idNumber) searchParams.idNumber = query.idNumber;
  if (query.orderby) searchParams.orderby = query.orderby;
  if (query.sorted) searchParams.sorted = query.sorted;
  return api.get('/public/users', { ...options, searchParams, schema: userPage });
}

const userPath = (id: string, rest = '') => `/public/users/${encodeURIComponent(id)}${rest}`;

// GET /public/users/{id}.
export function getUser(api: ApiClient, id: string, options: CallOptions = {}): Promise<UserDetail> {
  return api.get(userPath(id), { ...options, schema: userDetail });
}

// GET /public/users/{id}/selfie|obverse|reverse.
export async function getUserEvidence(
  api: ApiClient,
  id: string,
  kind: EvidenceKind,
  options: CallOptions = {},
): Promise<Blob> {
  const blob = await api.get<Blob>(userPath(id, `/${kind}`), { ...options, responseType: 'blob' });
  if (blob.type && !blob.type.startsWith('image/')) throw new Error(`not an image: ${blob.type}`);
  return blob;
}

// PUT /public/credentials/{userId}/active|inactive: one user's credentials.
export async function setUserActive(api: ApiClient, userId: string, active: boolean): Promise<void> {
  await api.put(`/public/credentials/${encodeURIComponent(userId)}/${active ? 'active' : 'inactive'}`);
}

// PUT /public/credentials/active|inactive: every user's, confirmed with the tenant's name like the deletions.
export async function setAllActive(api: ApiClient, active: boolean, confirm: string): Promise<BulkResult> {
  const answer = await api.put(`/public/credentials/${active ? 'active' : 'inactive'}`, {
    json: { confirm },
    schema: activationAnswer,
    silent: true,
  });
  return { users: answer.users, images: 0 };
}

// DELETE /public/users and PUT /public/users/deleteAllData, confirmed with the tenant's name.
export function deleteAllUsers(api: ApiClient, confirm: string, allData: boolean): Promise<BulkResult> {
  return allData
    ? api.put('/public/users/deleteAllData', { json: { confirm }, schema: bulkResult, silent: true })
    : api.delete('/public/users', { json: { confirm }, schema: bulkResult, silent: true });
}

// PUT /public/accounts/{id}/onboarding: an assistant completes a pending onboarding.
export async function completeOnboarding(api: ApiClient, accountId: string): Promise<void> {
  await api.put(`/public/accounts/${encodeURIComponent(accountId)}/onboarding`, {
    json: { onboarding_status: 'completed' },
  });
}

// POST /public/users/activation: ActivateUsers, the users of another region activated where the assistant works.
export function activateUsers(
  api: ApiClient,
  body: ActivationBody,
  options: CallOptions = {},
): Promise<ActivationResult> {
  return api.post('/public/users/activation', { ...options, json: body, schema: activationResult });
}
